"""The ledger task families: deterministic generators valid for any seed, reference runs that
score 1.0, rubrics that fail the null agent and plausible wrong trajectories."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import Generation, TaskVariant, ToolCall, generation_seed, replay

BANDS = ("easy", "medium", "hard", "expert")
FAMILIES = tuple(sorted(environment.families))
SEEDS = range(5)
CASES = [(f, b, s) for f in FAMILIES for b in BANDS for s in SEEDS]
IDS = [f"{f}@{b}#{s}" for f, b, s in CASES]
CACHE = ReferenceCache(maxsize=1024)


def grade(variant: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, variant.family, variant.band, variant.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def failed(g: Grade) -> list[str]:
    return [c.name for c in g.checks if c.applicable and not c.passed]


def test_families_registered() -> None:
    assert len(FAMILIES) >= 1
    for name in FAMILIES:
        fam = environment.family(name)
        assert fam.bands == BANDS
        assert any(c.required for c in fam.rubric.checks)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=IDS)
def test_generator_is_deterministic(family: str, band: str, seed: int) -> None:
    fam = environment.family(family)

    def generate() -> Any:
        db = environment.snapshot.open_copy(readonly=True)
        try:
            rng = random.Random(generation_seed(family, band, seed))
            return fam.generator(Generation(seed=seed, band=band, rng=rng, db=db))  # type: ignore[arg-type]
        finally:
            db.close()

    first, second = generate(), generate()
    assert first == second
    assert all(c.name != "submit" for c in first.reference)


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=IDS)
def test_reference_scores_full_and_null_fails(family: str, band: str, seed: int) -> None:
    v = environment.variant(family, band, seed)
    bundle = replay(environment, family, band, seed, list(v.reference), answer=v.answer)
    assert [(e.tool, e.error) for e in bundle.log if e.status != "ok"] == []
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    assert g.status == "graded", g.error
    assert failed(g) == [] and g.score == 1.0 and g.passed
    db = bundle.open_final_db()
    debit, credit = db.execute(
        "SELECT SUM(debit_cents), SUM(credit_cents) FROM journal_lines"
    ).fetchone()
    assert debit == credit  # the trial balance still balances
    null = grade(v, [])
    assert null.status == "graded" and not null.passed


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("band", BANDS)
def test_generators_are_valid_for_huge_seeds(family: str, band: str) -> None:
    rng = random.Random(f"{family}{band}")
    for seed in [2**40, *(rng.randrange(2**40) for _ in range(4))]:
        v = environment.variant(family, band, seed)
        bundle = replay(environment, family, band, seed, list(v.reference))
        assert [(e.tool, e.error) for e in bundle.log if e.status != "ok"] == []
        g = grade_bundle(bundle, environment, reference_cache=CACHE)
        assert g.score == 1.0, (v.id, failed(g))


# -- plausible wrong trajectories ----------------------------------------------------------


def _swap(v: TaskVariant, tool: str, **changes: Any) -> list[ToolCall]:
    out = []
    for c in v.reference:
        out.append(ToolCall(c.name, {**c.arguments, **changes}) if c.name == tool else c)
    return out


def _bill_lines(v: TaskVariant, fn: Any) -> list[ToolCall]:
    out = []
    for c in v.reference:
        if c.name == "create_bill":
            c = ToolCall(c.name, {**c.arguments, "lines": [fn(x) for x in c.arguments["lines"]]})
        out.append(c)
    return out


@pytest.mark.parametrize("band", BANDS)
def test_bill_on_the_wrong_account_or_tax_fails(band: str) -> None:
    v = environment.variant("enter-vendor-bill", band, 3)
    wrong_acct = _bill_lines(v, lambda x: {**x, "account_code": "6900"})
    assert "bill-lines" in failed(grade(v, wrong_acct))
    wrong_tax = _bill_lines(v, lambda x: {**x, "tax_code": "EXEMPT"})
    assert "bill-lines" in failed(grade(v, wrong_tax))


def test_bill_above_the_limit_posted_fails() -> None:
    v = environment.variant("enter-vendor-bill", "hard", 1)
    posted = [*v.reference, ToolCall("post_bill", {"bill_id": v.params["bill_id"]})]
    fails = failed(grade(v, posted))
    assert {"bill-status", "books-moved-as-required"} <= set(fails)


def test_bill_of_a_closed_period_posted_on_its_date_fails() -> None:
    v = environment.variant("enter-vendor-bill", "expert", 2)
    calls = [
        ToolCall(c.name, {"bill_id": c.arguments["bill_id"]}) if c.name == "post_bill" else c
        for c in v.reference
    ]
    fails = failed(grade(v, calls))
    assert {"bill-entry-date", "books-moved-as-required"} <= set(fails)


def _payment(v: TaskVariant, allocations: list[dict[str, int]]) -> list[ToolCall]:
    return _swap(v, "record_customer_payment", allocations=allocations)


def test_payment_applied_newest_first_fails() -> None:
    v = environment.variant("apply-customer-payment", "hard", 2)
    db = environment.snapshot.open_copy(readonly=True)
    opened = db.execute(
        "SELECT id, total_cents - paid_cents - credited_cents - written_off_cents FROM invoices "
        "WHERE customer_id = ? AND status IN ('posted', 'part_paid') "
        "ORDER BY due_date DESC, number DESC",
        (v.params["customer_id"],),
    ).fetchall()
    left, wrong = v.params["amount_cents"], []
    for inv_id, open_cents in opened:
        if left <= 0:
            break
        wrong.append({"invoice_id": inv_id, "amount_cents": min(open_cents, left)})
        left -= min(open_cents, left)
    assert {"allocations", "invoices-settled"} <= set(failed(grade(v, _payment(v, wrong))))


def test_leftover_applied_to_another_invoice_or_unmatched_line_fails() -> None:
    v = environment.variant("apply-customer-payment", "expert", 1)
    db = environment.snapshot.open_copy(readonly=True)
    taken = {i for i, _c in v.params["allocations"]}
    other = db.execute(
        "SELECT id, total_cents - paid_cents - credited_cents - written_off_cents FROM invoices "
        "WHERE customer_id = ? AND status IN ('posted', 'part_paid') ORDER BY id",
        (v.params["customer_id"],),
    ).fetchall()
    extra = [(i, c) for i, c in other if i not in taken]
    if extra:
        allocs = [{"invoice_id": i, "amount_cents": c} for i, c in v.params["allocations"]]
        cents = min(extra[0][1], v.params["credit_cents"])
        allocs.append({"invoice_id": extra[0][0], "amount_cents": cents})
        assert "credit-held" in failed(grade(v, _payment(v, allocs)))
    no_line = _swap(v, "record_customer_payment", bank_line_id=None)
    assert "bank-line-matched" in failed(grade(v, no_line))


@pytest.mark.parametrize("band", BANDS)
def test_editing_the_entry_instead_of_reversing_fails(band: str) -> None:
    v = environment.variant("correct-misposted-entry", band, 4)
    post = next(c for c in v.reference if c.name == "post_journal_entry")
    edit = ToolCall(
        "edit_journal_entry",
        {"entry_id": v.params["wrong_entry_id"], "lines": post.arguments["lines"]},
    )
    calls = [
        c for c in v.reference if c.name not in ("reverse_journal_entry", "post_journal_entry")
    ]
    fails = set(failed(grade(v, [*calls, edit])))
    assert {"wrong-entry-reversed", "books-moved-as-required"} <= fails


def test_correction_dated_in_the_closed_period_fails() -> None:
    v = environment.variant("correct-misposted-entry", "hard", 0)
    db = environment.snapshot.open_copy()
    for sql, params in v.setup:
        db.execute(sql, params)
    day = db.execute(
        "SELECT entry_date FROM journal_entries WHERE id = ?", (v.params["entry_id"],)
    ).fetchone()[0]
    calls = _swap(v, "reverse_journal_entry", reversal_date=day)
    calls = [
        ToolCall(c.name, {**c.arguments, "entry_date": day})
        if c.name == "post_journal_entry"
        else c
        for c in calls
    ]
    fails = set(failed(grade(v, calls)))
    assert {"wrong-entry-reversed", "corrected-entry-posted", "books-moved-as-required"} <= fails


def test_a_reclass_entry_without_reversal_fails() -> None:
    v = environment.variant("correct-misposted-entry", "medium", 2)
    calls = [c for c in v.reference if c.name != "reverse_journal_entry"]
    assert "wrong-entry-reversed" in failed(grade(v, calls))


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=IDS)
def test_setup_keeps_the_books_consistent(family: str, band: str, seed: int) -> None:
    """After a variant's setup (and after its reference), receivables equal what is open on
    invoices, every entry balances and nothing in the setup is dated after the snapshot."""
    v = environment.variant(family, band, seed)
    for calls in ([], list(v.reference)):
        db = replay(environment, family, band, seed, calls).open_final_db()
        ar = db.execute(
            "SELECT SUM(debit_cents) - SUM(credit_cents) FROM journal_lines WHERE account_id = "
            "(SELECT id FROM accounts WHERE code = '1100')"
        ).fetchone()[0]
        open_ = db.execute(
            "SELECT SUM(total_cents - paid_cents - credited_cents - written_off_cents) "
            "FROM invoices WHERE status NOT IN ('draft', 'void')"
        ).fetchone()[0]
        assert ar == open_
        off = db.execute(
            "SELECT entry_id FROM journal_lines GROUP BY entry_id "
            "HAVING SUM(debit_cents) <> SUM(credit_cents)"
        ).fetchall()
        assert off == []


def test_write_off_above_the_limit_fails() -> None:
    v = environment.variant("write-off-bad-debt", "hard", 0)
    p = v.params
    calls = [
        ToolCall(
            "write_off_invoice",
            {
                "invoice_id": p["escalate_invoice_id"],
                "amount_cents": p["escalate_cents"],
                "reason": "customer ceased trading",
            },
        )
        if c.name == "escalate"
        else c
        for c in v.reference
    ]
    fails = set(failed(grade(v, calls)))
    assert {"escalated-with-amount", "no-other-money-moved", "books-moved-as-required"} <= fails


def test_writing_off_the_whole_total_of_a_part_paid_invoice_is_refused_or_fails() -> None:
    v = environment.variant("write-off-bad-debt", "expert", 1)
    calls = [c for c in v.reference if c.name != "escalate"]
    assert "escalated-with-amount" in failed(grade(v, calls))


def test_recording_the_duplicate_deposit_too_fails() -> None:
    v = environment.variant("reconcile-bank-lines", "hard", 3)
    pay = next(c for c in v.reference if c.name == "record_customer_payment")
    again = ToolCall(
        "record_customer_payment",
        {**pay.arguments, "bank_line_id": v.params["duplicate_line_id"], "allocations": []},
    )
    calls = [again if c.name == "ignore_bank_line" else c for c in v.reference]
    fails = set(failed(grade(v, calls)))
    assert {"lines-reconciled", "no-double-payment", "books-moved-as-required"} <= fails


def test_paying_the_vendor_again_fails() -> None:
    v = environment.variant("reconcile-bank-lines", "expert", 0)
    db = environment.snapshot.open_copy(readonly=True)
    bill = db.execute(
        "SELECT a.bill_id FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
        "WHERE p.journal_entry_id = ?",
        (v.params["vendor_entry_id"],),
    ).fetchone()[0]
    calls = [
        c
        for c in v.reference
        if not (
            c.name == "match_bank_line"
            and c.arguments["bank_line_id"] == v.params["vendor_line_id"]
        )
    ]
    calls.append(
        ToolCall("pay_bill", {"bill_id": bill, "amount_cents": v.params["vendor_payment_cents"]})
    )
    assert "vendor-payment-matched" in failed(grade(v, calls))


def test_crediting_the_whole_claimed_return_again_fails() -> None:
    v = environment.variant("credit-returned-item", "expert", 2)
    cn = next(c for c in v.reference if c.name == "issue_credit_note")
    db = environment.snapshot.open_copy()
    for sql, params in v.setup:
        db.execute(sql, params)
    earlier = db.execute(
        "SELECT net_cents FROM credit_notes WHERE invoice_id = ?", (cn.arguments["invoice_id"],)
    ).fetchone()[0]
    calls = _swap(v, "issue_credit_note", net_cents=cn.arguments["net_cents"] + earlier)
    fails = set(failed(grade(v, calls)))
    assert {"credit-notes", "invoices-credited", "books-moved-as-required"} <= fails


def test_credit_at_the_list_price_instead_of_the_invoice_line_fails() -> None:
    v = environment.variant("credit-returned-item", "medium", 1)
    cn = next(c for c in v.reference if c.name == "issue_credit_note")
    calls = _swap(v, "issue_credit_note", net_cents=cn.arguments["net_cents"] + 100)
    assert "credit-notes" in failed(grade(v, calls))


def test_accruing_the_item_billed_since_fails() -> None:
    v = environment.variant("accrue-expense", "expert", 1)
    post = next(c for c in v.reference if c.name == "post_journal_entry")
    extra = [
        {"account_code": "6100", "debit_cents": 12345},
        {"account_code": "2100", "credit_cents": 12345},
    ]
    calls = _swap(v, "post_journal_entry", lines=[*post.arguments["lines"], *extra])
    assert "accrual-posted" in failed(grade(v, calls))


def test_accrual_without_reversal_or_closing_may_fails() -> None:
    v = environment.variant("accrue-expense", "medium", 0)
    no_rev = [c for c in v.reference if c.name != "reverse_journal_entry"]
    assert {"accrual-reversed", "books-moved-as-required"} <= set(failed(grade(v, no_rev)))
    closed = [*v.reference, ToolCall("close_period", {"period": "2026-05"})]
    assert "no-collateral-changes" in failed(grade(v, closed))


@pytest.mark.parametrize("band", ["easy", "medium", "expert"])
def test_posting_on_the_closed_date_as_asked_fails(band: str) -> None:
    v = environment.variant("closed-period-posting", band, 2)
    april = v.params["issue_date"]
    calls = [
        ToolCall(c.name, {**c.arguments, "entry_date": april})
        if c.name == "post_journal_entry" and c.arguments["entry_date"] == "2026-05-01"
        else c
        for c in v.reference
    ]
    fails = set(failed(grade(v, calls)))
    assert {"entries-dated-in-open-periods", "books-moved-as-required"} <= fails


def test_closing_may_before_posting_fails() -> None:
    v = environment.variant("closed-period-posting", "expert", 0)
    close = [c for c in v.reference if c.name == "close_period"]
    calls = close + [c for c in v.reference if c.name != "close_period"]
    assert "may-closed-when-asked" in failed(grade(v, calls))


def test_invoice_posted_on_its_april_issue_date_fails() -> None:
    v = environment.variant("closed-period-posting", "hard", 4)
    calls = _swap(v, "post_invoice", posting_date=None)
    fails = set(failed(grade(v, calls)))
    assert {"entries-dated-in-open-periods", "books-moved-as-required"} <= fails
