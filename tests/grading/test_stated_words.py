"""A kind closed by its vocabulary (`mcpgym_grading._stated_words`) and dates in words read
by the value roles (`mcpgym_grading._value_roles`; issue 9 section 4, stop 21)."""

from __future__ import annotations

import pytest

from mcpgym_grading._stated_words import greeted_other, sql_stated_other, stated_other
from mcpgym_grading._value_roles import value_outcome


def test_a_forbidden_phrase_is_read_whole_and_folded() -> None:
    assert stated_other("Your NEON-PINK jacket ships", ["Neon Pink"]) == ["Neon Pink"]
    assert stated_other("your Mastercard ending", ["Master Card"]) == ["Master Card"]
    assert stated_other("a redundant reply", ["Red"]) == []


def test_an_allowed_phrase_is_read_out_first() -> None:
    text = "Your Forest Green Rain Shell ships"
    assert stated_other(text, ["Forest", "Green"], ["Forest Green Rain Shell"]) == []
    assert stated_other(text, ["Forest"]) == ["Forest"]


def test_a_malformed_array_is_an_error() -> None:
    with pytest.raises(ValueError):
        sql_stated_other("text", "{}", "[]")
    assert sql_stated_other(None, "[]", "[]") is None


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("Hi Olivia,\n\nDone.", []),
        ("Hello Ms. Chen,", []),
        ("Good morning,\n\nOrder #1 is cancelled.", []),
        ("Hi there!", []),
        ("Hi Bob,\n\nDone.", ["Bob"]),
        ("Dear Mr Smith,", ["Smith"]),
        ("Thanks,\nHi Sam", ["Sam"]),
    ],
)
def test_the_greeting_names_the_customer(text: str, wrong: list[str]) -> None:
    assert greeted_other(text, ["Olivia", "Chen"]) == wrong


ETA = ("estimated delivery", "arriv*", "by")


@pytest.mark.parametrize(
    "text",
    [
        "Estimated delivery September 30.",
        "It should arrive by 30 Sept 2026.",
        "It should arrive by Sept. 30th.",
        "Estimated delivery the 30th of September.",
    ],
)
def test_a_wrong_date_in_words_is_misplaced(text: str) -> None:
    ok, wrong, _ = value_outcome(text, [("2026-06-12", ETA)])
    assert not ok and wrong[0].startswith("2026-09-30")


@pytest.mark.parametrize(
    "text",
    ["Estimated delivery June 12.", "It should arrive by Friday, June 12th, 2026.", "By 12 Jun."],
)
def test_the_own_date_in_words_stands(text: str) -> None:
    assert value_outcome(text, [("2026-06-12", ETA)])[0]


def test_words_without_a_date_role_are_not_read() -> None:
    assert value_outcome("You may 2 times ask; order 100510.", [("100510", ("order",))])[0]
