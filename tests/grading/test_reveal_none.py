"""The kit's `texts_reveal_none` and `AnswerMatch.given_sql` (adversarial round 10, P1/P2):
a forbidden value is found in any form, unless the other party's own texts state it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mcpgym_grading import AnswerMatch, texts_reveal_none

from .episodes import grade_check

SECRETS = (
    "SELECT '(608) 555-0108' UNION ALL SELECT 'rosa.torres@example.org' UNION ALL SELECT 100107"
)


def reveals(text: str, given: str | None = None) -> bool:
    given_sql = None if given is None else "SELECT '" + given.replace("'", "''") + "'"
    check = texts_reveal_none(
        "SELECT '" + text.replace("'", "''") + "'",
        SECRETS,
        name="reveal",
        description="d",
        given_sql=given_sql,
    )
    return not grade_check(check, []).passed


@pytest.mark.parametrize(
    "text",
    [
        "Call 608-555-0108.",
        "Call 6 0 8 5 5 5 0 1 0 8.",
        "Write to rosa.torres at example dot org",
        "Order #１００１０７ shipped.",
    ],
)
def test_a_secret_in_any_form_is_revealed(text: str) -> None:
    assert reveals(text)


@pytest.mark.parametrize("text", ["Order #1001070 shipped, $1,001.07 refunded.", "Hi Rosa!"])
def test_other_numbers_and_a_first_name_reveal_nothing(text: str) -> None:
    assert not reveals(text)


def test_a_value_the_other_party_wrote_is_theirs() -> None:
    assert not reveals("We'll call you at 608 555 0108.", given="my phone is (608) 555-0108")
    assert reveals("We'll call you at 608 555 0108.", given="my phone is (608) 555-0109")
    # one value given clears that value only
    assert reveals("608 555 0108, order 100107", given="my phone is 608.555.0108")


def test_given_sql_needs_forbidden_values_and_no_money() -> None:
    with pytest.raises(ValidationError):
        AnswerMatch(name="a", expected="x", given_sql="SELECT 'x'")
    with pytest.raises(ValidationError):
        AnswerMatch(name="a", normalize="money", forbidden=[100], given_sql="SELECT 'x'")


def test_an_unset_given_sql_leaves_the_digest_alone() -> None:
    from mcpgym_grading import Rubric

    check = AnswerMatch(name="a", expected="x", forbidden=["y"])
    assert "given_sql" not in Rubric(checks=(check,)).canonical_json()
