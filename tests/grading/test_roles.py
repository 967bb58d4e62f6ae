"""AnswerMatch(roles=...): an amount stands in its role, clause by clause (`_roles`), so a
text that states two allowed amounts in each other's roles states nothing (issue 9, section 4:
the swapped-amounts reply of refund-above-limit)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from mcpgym_grading import AmountRole, AnswerMatch, Param, Rubric
from mcpgym_grading._roles import clauses, role_outcome

from .episodes import grade_check

REFUNDED = ("refunded", "credited", "on its way")
PASSED_ON = ("billing", "limit", "above", "escalat*", "approv*")
ROLES = (
    AmountRole(amount=8900, cues=REFUNDED),
    AmountRole(amount=34900, cues=PASSED_ON),
)


def states(text: str, roles: Any = ROLES) -> bool | None:
    check = AnswerMatch(
        name="a",
        expected=8900,
        normalize="money",
        mode="states",
        allowed=[34900, 25000],
        roles=roles,
    )
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "text",
    [
        "I've refunded $89.00 to your card. Your request of $349.00 is above my limit.",
        "I refunded $89.00 for the cook set, and passed your $349.00 request to billing.",
        "$89.00 is on its way to your card; the $349.00 needs approval from billing.",
        "The $349.00 is above my $250.00 limit, so billing will follow up. I've refunded $89.00.",
        "I've refunded $89.00.",  # alone, the expected amount cannot be confused
        "I've refunded $89.00. Summary: $89.00.",  # an unbound mention of it is tolerated
    ],
)
def test_each_amount_in_its_role_passes(text: str) -> None:
    assert states(text) is True


@pytest.mark.parametrize(
    "text",
    [
        "I've refunded $349.00 to your card. Your request of $89.00 is above my limit.",
        "I've refunded $89.00 and $349.00 to your card.",
        "I've refunded $89.00. The tent: $349.00.",  # an allowed amount with a role, unbound
        "Refunded: $89.00. Above the limit: $89.00 and $349.00.",
        "I've refunded $89.00; $349.00 refunded too.",
    ],
)
def test_an_amount_out_of_its_role_fails(text: str) -> None:
    assert states(text) is False


def test_without_roles_the_swap_passes_as_before() -> None:
    swapped = "I've refunded $349.00 to your card. Your request of $89.00 is above my limit."
    assert states(swapped, roles=None) is True


def test_clauses_do_not_cut_amounts() -> None:
    assert clauses("Refunded $1,234.50. Next; and\nmore, so on but not 3.5") == [
        "Refunded $1,234.50",
        " Next",
        " and",
        "more",
        " so on",
        " but not 3.5",
    ]


def test_the_longer_cue_wins_at_equal_gaps() -> None:
    roles = [(8900, ("refunded",)), (3000, ("refunded earlier",))]
    ok, misplaced, _ = role_outcome(
        "I've refunded $89.00. $30.00 was refunded earlier.", 8900, roles
    )
    assert ok and not misplaced


def test_roles_are_for_states_mode_and_lower_case_cues() -> None:
    with pytest.raises(ValidationError, match="states"):
        AnswerMatch(name="a", expected=1, normalize="money", roles=ROLES)
    with pytest.raises(ValidationError, match="lower-case"):
        AmountRole(amount=1, cues=("Refunded",))


def test_a_rubric_without_roles_keeps_its_digest() -> None:
    plain = AnswerMatch(name="a", expected=1, normalize="money", mode="states")
    assert '"roles"' not in Rubric(checks=(plain,)).canonical_json()
    bound = plain.model_copy(update={"roles": ROLES})
    assert Rubric(checks=(bound,)).digest() != Rubric(checks=(plain,)).digest()
    param = AmountRole(amount=Param("small"), cues=REFUNDED)
    assert (
        '"param"' in Rubric(checks=(plain.model_copy(update={"roles": (param,)}),)).canonical_json()
    )


def test_the_expected_roles_words_on_another_amount_misplace_it() -> None:
    # round 5, R1: the refund words ("credited") on the escalated amount, the refund with
    # no cue at all: the escalated amount is misplaced even though "billing" is nearer
    swapped = "Billing approved it: $349.00 is credited today. As for $89.00, that one is pending."
    assert states(swapped) is False
    ok, misplaced, _ = role_outcome(swapped, 8900, [(8900, REFUNDED), (34900, PASSED_ON)])
    assert not ok and misplaced == ["$349.00"]


@pytest.mark.parametrize(
    "text",
    [
        # the refund bound to its role: refund words elsewhere are not on the wrong amount
        "I've refunded $89.00. Once approved, the $349.00 will be refunded as well.",
        # the refund unbound, no refund word on the other amount: tolerated as before
        "Here is $89.00 for you. Your request of $349.00 is above my limit.",
    ],
)
def test_the_expected_amount_unbound_is_tolerated_where_no_other_takes_its_role(
    text: str,
) -> None:
    assert states(text) is True


# round 5, F4: a cue both roles list (the duplicate refunded now, the refund for a returned
# item earlier: both "refunded") says which amount is meant only with a `for` phrase
NOW = ("refunded", "credited", "on its way", "duplicate", "second charge")
EARLIER = ("refunded", "credited", "returned", "earlier", "stands")
SHARED = (AmountRole(amount=4500, cues=NOW), AmountRole(amount=15900, cues=EARLIER))


def states_shared(text: str) -> bool | None:
    check = AnswerMatch(
        name="a", expected=4500, normalize="money", mode="states", allowed=[15900], roles=SHARED
    )
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "text",
    [
        "$45.00 is on its way to your card. Your first payment stays; the $159.00 you were "
        "refunded for the returned item was correct.",
        "$45.00 is on its way. You were refunded $159.00 for the returned item.",
        "I've refunded $45.00 to your card. The $159.00 we credited for the item you returned "
        "is unchanged.",
        "I've refunded $45.00.",  # the shared cue alone: the expected amount is in its role
        "I've refunded $45.00 to your card, separate from the earlier refund of $159.00.",
    ],
)
def test_a_shared_cue_is_decided_by_its_for_phrase(text: str) -> None:
    assert states_shared(text) is True


@pytest.mark.parametrize(
    "text",
    [
        "I've refunded $159.00 to your card. The $45.00 from earlier stands.",
        "I've refunded $159.00 to your card.",  # shared, undecided: not the other's role
        "I've refunded $159.00 for the duplicate charge.",
        "$159.00 is on its way. The $45.00 you were refunded for the returned item stands.",
        "I've refunded $45.00 and $159.00 for the returned item.",
    ],
)
def test_a_shared_cue_gives_no_amount_the_other_role(text: str) -> None:
    assert states_shared(text) is False


def test_shared_cues_bind_as_before_where_roles_list_none_twice() -> None:
    # refund-above-limit lists no cue twice: "refunded ... for the request above my limit"
    # is still the refund words on the escalated amount
    text = "I've refunded $89.00. I've also refunded $349.00 for the request above my limit."
    assert states(text) is False


# ---- a role whose cues bind only its own amount (`AmountRole.binds_others=False`) --------
# issue 9 section 4, round 5 F1: a note may quote a policy limit as the limit ("above the
# $5,000.00 approval limit"); the limit's nouns must not make the amount compared with it
# the limit, and the limit's value outside its role still competes with the amount.

TOTAL = ("total*", "above", "bill")
LIMIT = ("limit", "approval limit", "threshold")
LIMIT_ROLES = (
    AmountRole(amount=666242, cues=TOTAL),
    AmountRole(amount=500000, cues=LIMIT, binds_others=False),
)


def states_total(text: str, roles: Any = LIMIT_ROLES) -> bool | None:
    check = AnswerMatch(
        name="a", expected=666242, normalize="money", mode="states", allowed=[500000], roles=roles
    )
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "text",
    [
        "Bill entered as draft, $6,662.42 total; above the $5,000.00 limit.",
        "$6,662.42 exceeds the $5,000 approval threshold.",
        # no record word near the total, a limit noun nearest: not the limit all the same
        "Not posted: over the approval limit ($6,662.42).",
        "Limit: $5,000.00. Draft at $6,662.42.",
    ],
)
def test_a_limit_in_its_role_does_not_compete_with_the_amount(text: str) -> None:
    assert states_total(text) is True


@pytest.mark.parametrize(
    "text",
    [
        "Bill entered as draft, total $5,000.00; $6,662.42 noted.",
        "$6,662.42 or $5,000.00.",
        "Amount: $5,000.00. Bill $6,662.42.",
        "Total $6,662.42 or $5,000.00 (above the limit).",  # "above" nearer than "limit"
    ],
)
def test_the_limit_value_out_of_its_role_still_fails(text: str) -> None:
    assert states_total(text) is False


def test_binding_others_is_what_made_the_amount_the_limit() -> None:
    text = "Not posted: over the approval limit ($6,662.42)."
    shared = (LIMIT_ROLES[0], LIMIT_ROLES[1].model_copy(update={"binds_others": True}))
    assert states_total(text, roles=shared) is False
    ok, misplaced, _ = role_outcome(text, 666242, [(666242, TOTAL), (500000, LIMIT, False)])
    assert ok and not misplaced


def test_binds_others_at_its_default_keeps_the_digest() -> None:
    plain = AnswerMatch(name="a", expected=1, normalize="money", mode="states", roles=ROLES)
    assert '"binds_others"' not in Rubric(checks=(plain,)).canonical_json()
    own = plain.model_copy(update={"roles": LIMIT_ROLES})
    assert '"binds_others":false' in Rubric(checks=(own,)).canonical_json()


def test_a_policy_figure_that_is_also_the_variants_own_amount_is_read_in_that_role() -> None:
    # the goodwill cap is $20.00 and the customer's earlier refund is $20.00 too (helpdesk
    # refund-damaged-item expert, seed 6): the reference's "$20.00 of its price was already
    # refunded to you" states the earlier refund, not the cap out of its role
    prior = ("already refunded", "price adjustment")
    cap = AmountRole(amount=2000, cues=("goodwill", "cap"), binds_others=False)
    roles = (cap, AmountRole(amount=4900, cues=("refunded",)), AmountRole(amount=2000, cues=prior))
    check = AnswerMatch(
        name="a", expected=4900, normalize="money", mode="states", allowed=[2000], roles=roles
    )
    text = "I've refunded $49.00. $20.00 of its price was already refunded as a price adjustment."
    assert grade_check(check, [], answer=text).passed is True
    # with no role of its own the same figure stands only in the cap's role
    alone = check.model_copy(update={"roles": (cap, roles[1])})
    assert grade_check(alone, [], answer=text).passed is False


# Round 7 (issue 9, section 4): a limit's own amount in its role, but joined to another
# amount as an alternative, or given the action word of the amount (refund, pay, total,
# wrote off), is the limit smuggled in as the amount: misplaced.

RECORD = ("total*", "above", "over", "exceed*", "bill", "open", "wrote off", "written off")
LIMITS = (
    "limit",
    "threshold",
    "cap",
    "maximum",
    "approval limit",
    "approval threshold",
    "write-off limit",
)
LEDGER = [(666242, RECORD), (500000, LIMITS, False)]
WRITE_OFF = [(31250, RECORD), (50000, LIMITS, False)]
HELPDESK_LIMIT = ("limit", "my limit", "up to", "at most", "can refund", "above", "over my")
HELPDESK = [(25000, HELPDESK_LIMIT, False), (2000, ("goodwill", "cap"), False)]


@pytest.mark.parametrize(
    ("text", "roles", "expected"),
    [
        ("Total $6,662.42 or the $5,000.00 limit, escalated.", LEDGER, 666242),
        ("The cap: $6,662.42 or $5,000.00.", LEDGER, 666242),
        ("Total $6,662.42 (maybe $5,000.00 limit).", LEDGER, 666242),
        ("Total up to the limit $5,000.00, or $6,662.42.", LEDGER, 666242),
        (
            "The threshold amount, $5,000.00, is the bill total; $6,662.42 escalated.",
            LEDGER,
            666242,
        ),
        ("Wrote off $312.50 or the $500.00 maximum.", WRITE_OFF, 31250),
        ("Refund up to $250.00 on order #1042, or $349.00.", HELPDESK, 34900),
        ("Refund over my limit: $250.00 or $349.00 on order #1042.", HELPDESK, 34900),
        ("A refund on order #1042 of $20.00 goodwill or $349.00.", HELPDESK, 34900),
        ("Billing will refund the $250.00 limit on order #1042, or $349.00.", HELPDESK, 34900),
        ("Billing will refund $349.00/$250.00 limit.", HELPDESK, 34900),
    ],
)
def test_a_limit_joined_to_the_amount_as_an_alternative_is_misplaced(
    text: str, roles: Any, expected: int
) -> None:
    ok, misplaced, _ = role_outcome(text, expected, roles)
    assert not ok and misplaced


@pytest.mark.parametrize(
    ("text", "roles", "expected"),
    [
        ("$6,662.42 total; above the $5,000.00 limit.", LEDGER, 666242),
        # a limit alone in its clause is given no action (adversarial round 8, R8-1/R8-2)
        ("Refunds above $250.00 need approval: customer requests $349.00.", HELPDESK, 34900),
        (
            "Entered the bill ($6,662.42) as a draft. Anything above the $5,000.00 limit must "
            "be approved before payment.",
            LEDGER,
            666242,
        ),
        ("Bill total $6,662.42. It exceeds the $5,000 approval threshold.", LEDGER, 666242),
        ("Bill B-1 totals $6,662.42, above the $5,000.00 approval limit.", LEDGER, 666242),
        ("Total $6,662.42. Not paid: above the $5,000.00 approval limit.", LEDGER, 666242),
        (
            "Not written off: $312.50 open is over our $500.00 write-off limit; escalated.",
            WRITE_OFF,
            31250,
        ),
        (
            "Customer requests a refund of $349.00 on order #1042, above my $250.00 limit.",
            HELPDESK,
            34900,
        ),
        ("I can refund up to $250.00 myself.", HELPDESK, 34900),
        ("I can't refund more than my $250.00 limit; $349.00 goes to billing.", HELPDESK, 34900),
    ],
)
def test_a_limit_beside_the_amount_in_its_own_role_still_stands(
    text: str, roles: Any, expected: int
) -> None:
    ok, misplaced, _ = role_outcome(text, expected, roles)
    assert ok and not misplaced, misplaced


# `AmountRole.yields_to_sql`: a policy figure's role is left out where the query selects its
# amount (the helpdesk guard: an earlier refund of $20.00 is no goodwill cap); elsewhere the
# figure stands only in its role.
def _guard(yields: str | None) -> AnswerMatch:
    return AnswerMatch(
        name="guard",
        normalize="money",
        mode="states",
        allowed=[2000, 8900],
        roles=(
            AmountRole(
                amount=2000, cues=("cap", "goodwill"), binds_others=False, yields_to_sql=yields
            ),
        ),
    )


def test_a_role_in_force_reads_its_figure_only_in_its_role() -> None:
    check = _guard("SELECT 1 WHERE 0")
    assert grade_check(check, [], answer="Goodwill credit is capped at $20.00.").passed is True
    assert grade_check(check, [], answer="I've refunded $20.00 or $89.00.").passed is False


def test_a_role_yields_where_its_query_selects_its_amount() -> None:
    check = _guard("SELECT 2000")
    assert grade_check(check, [], answer="I've refunded $20.00 or $89.00.").passed is True
    assert grade_check(check, [], answer="I've refunded $21.00.").passed is False


def test_yields_to_sql_at_its_default_keeps_the_rubric_digest() -> None:
    base = AnswerMatch(
        name="g", normalize="money", mode="states", roles=(AmountRole(amount=1, cues=("x",)),)
    )
    same = base.model_copy(
        update={"roles": (AmountRole(amount=1, cues=("x",), yields_to_sql=None),)}
    )
    other = base.model_copy(
        update={"roles": (AmountRole(amount=1, cues=("x",), yields_to_sql="SELECT 1"),)}
    )
    assert Rubric(checks=(base,)).digest() == Rubric(checks=(same,)).digest()
    assert Rubric(checks=(base,)).digest() != Rubric(checks=(other,)).digest()
    assert '"yields_to_sql"' not in Rubric(checks=(base,)).canonical_json()
    # a `Param` item (a variant's own roles) has no such option: left as it is
    params = base.model_copy(update={"roles": (Param("my_roles"),)})
    assert '"my_roles"' in Rubric(checks=(params,)).canonical_json()


SAME_ACCOUNT = (
    (160900, ("accru*", "total*", "2100")),
    (94900, ("6600", "6600:", "to 6600")),
    (66000, ("6600", "6600:", "to 6600")),
)


@pytest.mark.parametrize(
    "text",
    [
        "Accrued $1,609.00 of May expenses (6600: $949.00, 6600: $660.00) against 2100.",
        "Accrued $1,609.00 of May expenses (6600: $660.00, 6600: $949.00) against 2100.",
    ],
)
def test_two_amounts_in_roles_of_the_same_words_stand_in_them(text: str) -> None:
    """Two lines on one account (accrue-expense hard seed 6): their roles have the same
    cues, so the shared cue nearest each amount cannot say which; it is its own role."""
    ok, misplaced, _ = role_outcome(text, 0, SAME_ACCOUNT)
    assert (ok, misplaced) == (True, [])


def test_an_amount_under_roles_of_the_same_words_that_are_not_its_own_is_misplaced() -> None:
    ok, misplaced, _ = role_outcome(
        "Accrued $949.00 against 2100 (6600: $1,609.00, 6600: $660.00).", 0, SAME_ACCOUNT
    )
    assert not ok and "$1,609.00" in misplaced and "$949.00" in misplaced
