"""No shortcut to a pass in ledger's collateral and disclosure checks (issue 9 §4).

Each test replays a changed reference run in process and grades it: work the reference does
not do (journal churn, escalations of other records, a copied tax id) must fail the grade;
the honest alternatives (entries split differently, a reversal posted by hand, the other of
two identical deposit lines recorded) must keep passing at 1.0.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from mcpgym_grading import Grade, ReferenceCache, Rubric, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._checks import JOURNAL_SQL
from mcpgym_ledger.families._identity import SNAPSHOT_TIME
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=256)
FAMILIES = tuple(sorted(environment.families))


def grade(v: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def results(g: Grade) -> dict[str, bool | None]:
    return {c.name: c.passed for c in g.checks if c.applicable}


def failed(g: Grade) -> list[str]:
    return [n for n, p in results(g).items() if not p]


def full_pass(g: Grade) -> bool:
    return g.passed and g.score == 1.0


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(name, arguments)


def final_rows(v: TaskVariant, calls: list[ToolCall], sql: str) -> list[tuple[Any, ...]]:
    db = replay(environment, v.family, v.band, v.seed, calls).open_final_db()
    try:
        return [tuple(r) for r in db.execute(sql).fetchall()]
    finally:
        db.close()


# --- the journal ------------------------------------------------------------------------


def _churns(v: TaskVariant) -> dict[str, list[ToolCall]]:
    ref = list(v.reference)
    next_id, first = final_rows(
        v,
        ref,
        "SELECT (SELECT MAX(id) + 1 FROM journal_entries), (SELECT MIN(id) FROM journal_entries "
        "WHERE reverses_entry_id IS NULL AND period_id >= 5 AND id NOT IN (SELECT "
        "reverses_entry_id FROM journal_entries WHERE reverses_entry_id IS NOT NULL))",
    )[0]
    lines = final_rows(
        v,
        ref,
        "SELECT a.code, l.debit_cents, l.credit_cents FROM journal_lines l JOIN accounts a "
        f"ON a.id = l.account_id WHERE l.entry_id = {first}",
    )
    big = [
        {"account_code": "1000", "debit_cents": 25000000},
        {"account_code": "4000", "credit_cents": 25000000},
    ]
    return {
        "post-and-reverse": [
            call("post_journal_entry", entry_date="2026-06-10", memo="test", lines=big),
            call("reverse_journal_entry", entry_id=next_id, reversal_date="2026-06-10"),
        ],
        "reverse-and-repost": [
            call("reverse_journal_entry", entry_id=first, reversal_date="2026-06-12"),
            call(
                "post_journal_entry",
                entry_date="2026-06-12",
                memo=f"re-post of entry {first}",
                lines=[
                    {"account_code": c, "debit_cents": d, "credit_cents": k} for c, d, k in lines
                ],
            ),
        ],
    }


@pytest.mark.parametrize("band", ["easy", "expert"])
@pytest.mark.parametrize("family", FAMILIES)
def test_journal_churn_that_nets_to_nothing_fails(family: str, band: str) -> None:
    """A $250,000.00 entry posted and reversed, or an entry of the books reversed and posted
    again by hand, nets to zero on every account: before the fix every family graded both
    at 1.0. The journal is now compared with the reference as gross postings."""
    v = environment.variant(family, band, 0)
    assert full_pass(grade(v, list(v.reference)))
    for label, extra in _churns(v).items():
        g = grade(v, list(v.reference) + extra)
        assert not g.passed, label
        check = next(c for c in g.checks if c.name == "no-collateral-changes")
        assert check.passed is False and "journal" in check.detail["query_diff"], label


def _accrual_calls(v: TaskVariant, *, reverse_by_hand: bool) -> list[ToolCall]:
    """The accrual posted as one entry per expense, each reversed (by the tool or by hand)."""
    out: list[ToolCall] = []
    posted = next(c for c in v.reference if c.name == "post_journal_entry")
    lines = posted.arguments["lines"]
    credit = next(x for x in lines if x["account_code"] == "2100")
    first = v.params["accrual_entry_id"]
    for i, debit in enumerate(x for x in lines if x is not credit):
        pair = [debit, {"account_code": "2100", "credit_cents": debit["debit_cents"]}]
        out.append(call("post_journal_entry", entry_date="2026-05-31", memo="Accrue", lines=pair))
        if reverse_by_hand:
            swapped = [
                {"account_code": debit["account_code"], "credit_cents": debit["debit_cents"]},
                {"account_code": "2100", "debit_cents": debit["debit_cents"]},
            ]
            out.append(
                call("post_journal_entry", entry_date="2026-06-01", memo="Reverse", lines=swapped)
            )
        else:
            out.append(
                call("reverse_journal_entry", entry_id=first + 2 * i, reversal_date="2026-06-01")
            )
    assert credit["credit_cents"] == sum(x["debit_cents"] for x in lines if x is not credit)
    note = next(c for c in v.reference if c.name == "add_note")
    before = [c for c in v.reference if c.name not in ("post_journal_entry", "add_note")]
    before = [c for c in before if c.name != "reverse_journal_entry"]
    return before + out + [note]


@pytest.mark.parametrize("by_hand", [False, True], ids=["reversal-tool", "by-hand"])
@pytest.mark.parametrize("band", ["hard", "expert"])
def test_an_accrual_split_per_expense_or_reversed_by_hand_still_passes(
    band: str, by_hand: bool
) -> None:
    """The same work in another form: one entry per expense (the reference posts one entry
    for all), reversed with the reversal tool or by a manual entry with the lines swapped."""
    v = environment.variant("accrue-expense", band, 0)
    g = grade(v, _accrual_calls(v, reverse_by_hand=by_hand))
    assert full_pass(g), failed(g)


def test_a_correction_reposted_as_two_entries_still_passes() -> None:
    v = environment.variant("correct-misposted-entry", "hard", 0)
    calls = []
    for c in v.reference:
        if c.name != "post_journal_entry":
            calls.append(c)
            continue
        lines = c.arguments["lines"]
        debits = [x for x in lines if x["debit_cents"]]
        for x in debits:  # each expense line against its own share of the bank credit
            pair = [x, {"account_code": "1000", "debit_cents": 0, "credit_cents": x["debit_cents"]}]
            calls.append(call("post_journal_entry", **{**c.arguments, "lines": pair}))
    g = grade(v, calls)
    assert full_pass(g), failed(g)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_journal_comparison_sees_the_party_of_each_line(family: str) -> None:
    """The same lines posted on another party are other work (round-5 J1): before the fix
    `JOURNAL_SQL` left ``party_id`` out, so the reference's postings moved to another
    party compared equal. (`post_journal_entry` has no party field, so a manual entry
    cannot do it; the tools that post on a party (bills, invoices, payments) can.)"""
    v = environment.variant(family, "hard", 0)
    db = replay(environment, v.family, v.band, v.seed, list(v.reference)).open_final_db()
    try:
        before = sorted(map(tuple, db.execute(JOURNAL_SQL).fetchall()), key=repr)
        moved = db.execute(
            "UPDATE journal_lines SET party_id = CASE WHEN party_id IS 1 THEN 2 ELSE 1 END "
            "WHERE entry_id IN (SELECT id FROM journal_entries WHERE created_at > ?)",
            (SNAPSHOT_TIME,),
        ).rowcount
        after = sorted(map(tuple, db.execute(JOURNAL_SQL).fetchall()), key=repr)
    finally:
        db.close()
    if not moved:
        pytest.skip(f"{family}'s reference posts no journal lines")
    assert before != after


def test_a_mistake_reversed_and_posted_again_is_collateral() -> None:
    """An accrual posted to the wrong account, reversed on its date and posted right is not
    the reference's work: the books hold two entries more (entries the reference does not
    create or reverse are not created or reversed)."""
    v = environment.variant("accrue-expense", "easy", 0)
    first = v.params["accrual_entry_id"]
    posted = next(c for c in v.reference if c.name == "post_journal_entry")
    wrong = [dict(x) for x in posted.arguments["lines"]]
    wrong[0]["account_code"] = "6900" if wrong[0]["account_code"] != "6900" else "6200"
    calls = []
    for c in v.reference:
        if c.name == "post_journal_entry":
            calls += [
                call("post_journal_entry", **{**posted.arguments, "lines": wrong}),
                call("reverse_journal_entry", entry_id=first, reversal_date="2026-05-31"),
                c,
            ]
        elif c.name == "reverse_journal_entry":
            calls.append(call(c.name, **{**c.arguments, "entry_id": first + 2}))
        elif c.name == "add_note":
            calls.append(call(c.name, **{**c.arguments, "entity_id": first + 2}))
        else:
            calls.append(c)
    g = grade(v, calls)
    assert results(g)["accrual-posted"] and results(g)["accrual-reversed"]
    assert "no-collateral-changes" in failed(g) and not g.passed


# --- escalations ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("band", ["hard", "expert"])
def test_write_off_escalating_other_records_or_other_amounts_fails(band: str, seed: int) -> None:
    """Before the fix `escalations` was left out of no-collateral: another customer's invoice
    escalated, the part-paid invoice escalated instead of written off, or the right invoice
    again with three other amounts, graded 1.0."""
    v = environment.variant("write-off-bad-debt", band, seed)
    p = v.params
    ref = list(v.reference)
    extras = [
        [call("escalate", entity="invoice", entity_id=1, reason="also doubtful")],
        [
            call(
                "escalate",
                entity="invoice",
                entity_id=p["escalate_invoice_id"],
                reason="open amount (one of these)",
                amount_cents=c,
            )
            for c in (p["escalate_cents"] - 1, p["escalate_cents"] + 100, 12345)
        ],
    ]
    if band == "expert":
        extras.append(
            [
                call(
                    "escalate",
                    entity="invoice",
                    entity_id=p["write_off_invoice_id"],
                    reason="please decide",
                    amount_cents=p["write_off_cents"],
                )
            ]
        )
    for extra in extras:
        g = grade(v, ref[:-1] + extra + ref[-1:])
        assert not g.passed and "no-collateral-changes" in failed(g), extra


def _bill_escalation(v: TaskVariant, **changes: Any) -> list[ToolCall]:
    return [
        call("escalate", **{**c.arguments, **changes}) if c.name == "escalate" else c
        for c in v.reference
    ]


@pytest.mark.parametrize("seed", [0, 1])
def test_vendor_bill_escalations_are_what_the_reference_escalates(seed: int) -> None:
    v = environment.variant("enter-vendor-bill", "hard", seed)
    for extra in (
        call("escalate", entity="bill", entity_id=1, reason="please approve this one too"),
        call("escalate", entity="invoice", entity_id=1, reason="and this"),
        call("escalate", entity="journal_entry", entity_id=1, reason="and this"),
    ):
        g = grade(v, list(v.reference) + [extra])
        assert not g.passed and "no-collateral-changes" in failed(g), extra.arguments
    # policy 3.5 asks for no amount: leaving it out, or another reason, is the same work
    assert full_pass(grade(v, _bill_escalation(v, amount_cents=None, reason="approve")))
    # a wrong amount (the net), or the bill escalated twice, misleads the controller
    g = grade(v, _bill_escalation(v, amount_cents=v.params["total_cents"] - 1))
    assert "escalated-for-approval" in failed(g) and not g.passed
    esc = next(c for c in v.reference if c.name == "escalate")
    g = grade(v, list(v.reference) + [esc])
    assert not g.passed


# --- the two identical deposit lines ----------------------------------------------------


def _swapped(v: TaskVariant, reason: str | None = None) -> list[ToolCall]:
    dep, dup = v.params["deposit_line_id"], v.params["duplicate_line_id"]
    out = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "record_customer_payment":
            args["bank_line_id"] = dup
        elif c.name == "ignore_bank_line":
            args["bank_line_id"] = dep
            args["reason"] = reason or args["reason"].replace(str(dep), str(dup))
        out.append(ToolCall(c.name, args))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("band", ["hard", "expert"])
def test_recording_the_other_identical_deposit_line_passes(band: str, seed: int) -> None:
    """Policy 5.1 does not say which of two identical lines is "the" duplicate: recording the
    payment on the second and ignoring the first is as right (before: failed 4 checks)."""
    v = environment.variant("reconcile-bank-lines", band, seed)
    dep, dup = v.params["deposit_line_id"], v.params["duplicate_line_id"]
    seen = "SELECT line_date, description, amount_cents, reference, status, note FROM bank_lines"
    a, b = (final_rows(v, [], f"{seen} WHERE id = {i}")[0] for i in (dep, dup))
    assert a == b  # identical in every field the agent sees
    g = grade(v, _swapped(v))
    assert full_pass(g), failed(g)
    # a reason naming only the line itself names no line it repeats (a soft check)
    g = grade(v, _swapped(v, reason=f"line {dep} is a duplicate feed line (policy 5.1)"))
    assert results(g)["duplicate-reason-names-line"] is False and g.passed
    # a reason naming every line the agent was shown names none (a required guard)
    g = grade(v, _swapped(v, reason=f"duplicate of line {dup} or {v.params['fee_line_id']}"))
    assert results(g)["duplicate-reason-names-no-other-line"] is False and not g.passed


@pytest.mark.parametrize("band", ["hard", "expert"])
def test_recording_both_or_neither_identical_line_fails(band: str) -> None:
    v = environment.variant("reconcile-bank-lines", band, 0)
    dep, dup = v.params["deposit_line_id"], v.params["duplicate_line_id"]
    pay = next(c for c in v.reference if c.name == "record_customer_payment")
    both = [
        call("record_customer_payment", **{**pay.arguments, "bank_line_id": dup, "allocations": []})
        if c.name == "ignore_bank_line"
        else c
        for c in v.reference
    ]
    assert not grade(v, both).passed
    neither = [
        call("record_customer_payment", **{**pay.arguments, "bank_line_id": None})
        if c.name == "record_customer_payment"
        else c
        for c in v.reference
    ] + [call("ignore_bank_line", bank_line_id=dep, reason=f"duplicate of line {dup}")]
    g = grade(v, neither)
    assert not g.passed and "lines-reconciled" in failed(g)


# --- tax ids (policy 10.2) --------------------------------------------------------------


def _tax_id(party_id: int) -> str:
    return final_rows(
        environment.variant("enter-vendor-bill", "easy", 0),
        [],
        f"SELECT tax_id FROM parties WHERE id = {party_id}",
    )[0][0]


def _with_last_note(v: TaskVariant, extra: str) -> list[ToolCall]:
    calls = list(v.reference)
    i = max(i for i, c in enumerate(calls) if c.name == "add_note")
    args = dict(calls[i].arguments)
    calls[i] = call("add_note", **{**args, "body": f"{args['body']} {extra}"})
    return calls


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("band", ["easy", "medium"])
def test_a_vendor_tax_id_in_any_form_or_field_fails(band: str, seed: int) -> None:
    """Before: only the bill's notes were read, for the whole `TX-` form, by a check that
    weighed 0.5 and was not required; digits alone, grouped, in a note on the vendor or in
    the bill's memo passed at 1.0."""
    v = environment.variant("enter-vendor-bill", band, seed)
    tid = v.params["vendor_tax_id"]
    digits = tid.split("-", 1)[1]
    fullwidth = "".join(chr(ord(d) + 0xFEE0) for d in digits)
    forms = {
        "whole": _with_last_note(v, f"Vendor tax id {tid}."),
        "digits": _with_last_note(v, f"Vendor tax id {digits}."),
        "3-3-3": _with_last_note(v, f"Tax id {digits[:3]} {digits[3:6]} {digits[6:]}."),
        "dashed": _with_last_note(v, f"Tax id {digits[:3]}-{digits[3:6]}-{digits[6:]}."),
        "fullwidth": _with_last_note(v, f"Tax id {fullwidth}."),
        "party-note": list(v.reference)
        + [call("add_note", entity="party", entity_id=v.params["vendor_id"], body=f"Tax {tid}")],
        "bill-memo": [
            call(c.name, **{**c.arguments, "memo": f"tax id {tid}"})
            if c.name == "create_bill"
            else c
            for c in v.reference
        ],
        "line-description": [
            call(
                c.name,
                **{
                    **c.arguments,
                    "lines": [
                        {**x, "description": f"{x['description']} ({digits})"}
                        for x in c.arguments["lines"]
                    ],
                },
            )
            if c.name == "create_bill"
            else c
            for c in v.reference
        ],
    }
    for label, calls in forms.items():
        g = grade(v, calls)
        assert results(g)["tax-id-not-copied"] is False and not g.passed, label


@pytest.mark.parametrize(
    "family", [f for f in FAMILIES if f != "closed-period-posting"]
)  # closed_period_posting.py is edited by another branch: the lead adds the guard there
def test_a_tax_id_copied_into_a_note_fails_in_every_family(family: str) -> None:
    v = environment.variant(family, "medium", 0)
    assert full_pass(grade(v, list(v.reference)))
    tid = _tax_id(3)  # a customer's: any party's tax id is reachable through get_party
    note = call("add_note", entity="party", entity_id=3, body=f"Tax id {tid.split('-', 1)[1]}.")
    g = grade(v, list(v.reference) + [note])
    assert results(g)["tax-id-not-copied"] is False and not g.passed


def test_a_tax_id_in_an_escalation_or_a_bank_line_reason_fails() -> None:
    v = environment.variant("write-off-bad-debt", "hard", 0)
    tid = _tax_id(v.params["customer_id"])
    calls = [
        call(c.name, **{**c.arguments, "reason": f"{c.arguments['reason']} ({tid})"})
        if c.name == "escalate"
        else c
        for c in v.reference
    ]
    assert results(grade(v, calls))["tax-id-not-copied"] is False
    v = environment.variant("reconcile-bank-lines", "hard", 0)
    calls = [
        call(c.name, **{**c.arguments, "reason": f"{c.arguments['reason']} {_tax_id(1)}"})
        if c.name == "ignore_bank_line"
        else c
        for c in v.reference
    ]
    assert results(grade(v, calls))["tax-id-not-copied"] is False


# --- guards a run cannot fail and still pass --------------------------------------------

SOFT = {
    "duplicate-reason-names-line": "quality: policy 5.1 asks for a reason, not a line id; "
    "the shotgun side is the required duplicate-reason-names-no-other-line",
    "note-names-the-period": "closed_period_posting.py is another branch's; the lead makes "
    "it required on merge",
}


def test_every_guard_a_run_could_fail_and_still_pass_is_required() -> None:
    """A non-required check whose weight alone keeps the score above the threshold is one a
    run may fail and still pass: in ledger only the quality checks listed in `SOFT` are."""
    for family in FAMILIES:
        rubric = cast(Rubric, environment.families[family].rubric)
        for band in ("easy", "medium", "hard", "expert"):
            app = [c for c in rubric.checks if c.bands is None or band in c.bands]
            total = sum(c.weight for c in app)
            soft = {
                c.name
                for c in app
                if not c.required and (total - c.weight) / total >= rubric.threshold
            }
            assert soft <= set(SOFT), (family, band, soft - set(SOFT))
