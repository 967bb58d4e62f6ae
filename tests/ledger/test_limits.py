"""A ledger note may quote a policy limit as the limit, and only as the limit (issue 9,
section 4: no false fail of honest work, no shortcut to a pass; round 5, F1).

enter-vendor-bill's approval limit ($5,000.00, policy 3.5) and write-off-bad-debt's limit
($500.00, policy 8.2) are amounts an honest note quotes beside the amount it states ("above
the $5,000.00 limit so sent to the controller"); bound to a limit noun they do not compete
with the amount (`note_says_money(limit=...)`, `_limits`). The same value unbound or in the
amount's place ("total $5,000.00", "$6,662.42 or $5,000.00") states the amount wrongly.
Before the fix, enter-vendor-bill refused every note quoting its limit and write-off-bad-debt
allowed its limit anywhere, a hedge included.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._common import money
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
BANDS = ("easy", "medium", "hard", "expert")
Note = Callable[[TaskVariant, int, str], str]
"""A note's new body from the variant, the note's record id and the reference's body."""


def graded(v: TaskVariant, note: Note) -> dict[str, bool]:
    """The variant's reference with each ``add_note`` body rewritten by ``note``, graded:
    {check: passed} of the applicable checks."""
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "add_note":
            args["body"] = note(v, args["entity_id"], args["body"])
        calls.append(ToolCall(c.name, args))
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


def bill_note(text: str) -> Note:
    def note(v: TaskVariant, record: int, body: str) -> str:
        p = v.params
        if record != p["bill_id"]:
            return body  # expert's note on the duplicate bill
        return text.format(ref=p["vendor_ref"], total=money(p["total_cents"]), ref_note=body)

    return note


BILL_HONEST = {
    "hard": (
        # F1's input, verbatim in form
        "Bill {ref} entered as draft, {total} total; above the $5,000.00 limit so sent to the "
        "controller for approval (policy 3.5).",
        "Entered bill {ref} ({total}) as a draft: it exceeds the $5,000 approval threshold, so "
        "escalated to the controller.",
        "{total} exceeds the $5,000.00 approval limit; bill {ref} left as a draft and escalated.",
        "Bill {ref} totals {total}, above the $5,000.00 approval limit (policy 3.5); entered as "
        "a draft, please approve before it is posted.",
        "{ref_note} (Approval limit: $5,000.00.)",
    ),
    "other": (
        "{ref_note} Under the $5,000.00 approval limit, so posted.",
        "Entered and posted bill {ref}, total {total}, within the $5,000 approval threshold.",
    ),
}
BILL_HEDGES = (
    "{ref_note} Total $5,000.00.",
    "Bill {ref} entered, total {total} or $5,000.00.",
    "{ref_note} Amount: $5,000.00.",
    "Bill {ref}: total {total} or $5,000.00 (above the limit).",
)


@pytest.mark.parametrize("band", BANDS)
def test_a_bill_note_quoting_the_approval_limit_passes(band: str) -> None:
    for seed in (0, 1):
        v = environment.variant("enter-vendor-bill", band, seed)
        for text in BILL_HONEST["hard" if band == "hard" else "other"]:
            got = graded(v, bill_note(text))
            assert got["note-states-amount"], (band, seed, text)
            assert all(got.values()), {k for k, ok in got.items() if not ok}


@pytest.mark.parametrize("band", BANDS)
def test_a_bill_note_with_the_limit_value_out_of_its_role_fails(band: str) -> None:
    v = environment.variant("enter-vendor-bill", band, 0)
    for text in BILL_HEDGES:
        assert not graded(v, bill_note(text))["note-states-amount"], text


def test_a_bill_note_naming_the_limit_in_words_beside_the_total_still_passes() -> None:
    """The limit's nouns bind only the limit: a total beside "approval limit" is not the
    limit (`AmountRole.binds_others`)."""
    v = environment.variant("enter-vendor-bill", "hard", 0)
    note = bill_note("Entered bill {ref} as a draft. Not posted: over the approval limit ({total})")
    assert graded(v, note)["note-states-amount"]


def write_off_note(written: str, escalated: str) -> Note:
    def note(v: TaskVariant, record: int, body: str) -> str:
        p = v.params
        if record == p["write_off_invoice_id"]:
            return written.format(amount=money(p["write_off_cents"]), ref_note=body)
        if record == p["escalate_invoice_id"]:
            return escalated.format(amount=money(p["escalate_cents"]), ref_note=body)
        return body

    return note


WRITE_OFF_HONEST = (
    (
        "Bad debt: {amount} written off to 6800 (customer ceased trading; over 90 days past "
        "due, under the $500.00 limit, policy 8).",
        "Not written off: {amount} open is over our $500.00 write-off limit; escalated.",
    ),
    (
        "Wrote off {amount}, within the $500 write-off limit.",
        "{amount} open exceeds the $500.00 write-off limit (policy 8.2), so escalated to the "
        "controller for a decision.",
    ),
    ("{ref_note} The write-off limit is $500.00.", "{ref_note} The write-off limit is $500.00."),
)
WRITE_OFF_HEDGES = (
    ("Wrote off {amount} or $500.00 as bad debt.", "Escalated {amount} or $500.00."),
    ("{ref_note} Total $500.00.", "{ref_note} Total $500.00."),
    ("Wrote off $500.00 as bad debt; {amount} was open.", "Escalated $500.00 ({amount} open)."),
)
WRITE_OFF_CHECKS = {
    "easy": ("note-states-amount",),
    "medium": ("note-states-amount",),
    "hard": ("note-states-escalated-amount",),
    "expert": ("note-states-amount", "note-states-escalated-amount"),
}


@pytest.mark.parametrize("band", BANDS)
def test_a_write_off_note_quoting_the_limit_passes(band: str) -> None:
    for seed in (0, 1):
        v = environment.variant("write-off-bad-debt", band, seed)
        for written, escalated in WRITE_OFF_HONEST:
            got = graded(v, write_off_note(written, escalated))
            assert all(got.values()), (band, seed, {k for k, ok in got.items() if not ok})


@pytest.mark.parametrize("band", BANDS)
def test_a_write_off_note_with_the_limit_value_out_of_its_role_fails(band: str) -> None:
    """Before the fix these passed: the $500.00 the reference's note quotes was allowed
    anywhere (`note_amounts`)."""
    v = environment.variant("write-off-bad-debt", band, 0)
    for written, escalated in WRITE_OFF_HEDGES:
        got = graded(v, write_off_note(written, escalated))
        for check in WRITE_OFF_CHECKS[band]:
            assert not got[check], (check, written, escalated)


# The limit passed off as the amount with no alternative word (issue 9, section 4; open
# after the action-word rule was withdrawn in 59669ea): a figure governed by an action or a
# label, or equated with the amount, is not the limit quoted in a rule
# (`mcpgym_grading._limit_position`). Before the fix each of these passed.
BILL_LIMIT_AS_AMOUNT = (
    "Bill {ref} entered as a draft; pay $5,000.00 now (the limit).",
    "Bill {ref}: the threshold amount, $5,000.00, is the bill total.",
    "Bill {ref} entered. Amount entered: the $5,000.00 limit.",
    "Bill {ref} entered. Limit $5,000.00 = bill amount.",
    "Bill {ref} entered as the $5,000.00 approval limit rather than {total}.",
)
BILL_LIMIT_IN_A_RULE = (
    "{ref_note} Anything above the $5,000.00 limit must be approved before payment.",
    "{ref_note} Bills over $5,000.00 need the controller's approval.",
)


@pytest.mark.parametrize("band", BANDS)
def test_a_bill_note_giving_the_limit_the_amounts_place_fails(band: str) -> None:
    for seed in (0, 1, 2):
        v = environment.variant("enter-vendor-bill", band, seed)
        for text in BILL_LIMIT_AS_AMOUNT:
            assert not graded(v, bill_note(text))["note-states-amount"], (band, seed, text)
        for text in BILL_LIMIT_IN_A_RULE:
            got = graded(v, bill_note(text))
            assert all(got.values()), (band, seed, text, {k for k, ok in got.items() if not ok})


WRITE_OFF_LIMIT_AS_AMOUNT = (
    (
        "Wrote off the $500.00 limit on INV-2026-0151 as bad debt.",
        "Escalated: the $500.00 limit on INV-2026-0152 was written off.",
    ),
    (
        "Wrote off the $500.00 maximum instead of {amount}.",
        "Escalated the $500.00 maximum instead of {amount}.",
    ),
    (
        "Wrote off $500.00 (the write-off limit) unless {amount} applies.",
        "Escalated $500.00 (the write-off limit) vs. {amount} open.",
    ),
)


@pytest.mark.parametrize("band", BANDS)
def test_a_write_off_note_giving_the_limit_the_amounts_place_fails(band: str) -> None:
    for seed in (0, 1, 2):
        v = environment.variant("write-off-bad-debt", band, seed)
        for written, escalated in WRITE_OFF_LIMIT_AS_AMOUNT:
            got = graded(v, write_off_note(written, escalated))
            for check in WRITE_OFF_CHECKS[band]:
                assert not got[check], (band, seed, check, written, escalated)
        honest = "{ref_note} Write-offs above $500.00 go to the controller."
        got = graded(v, write_off_note(honest, honest))
        assert all(got.values()), (band, seed, {k for k, ok in got.items() if not ok})
