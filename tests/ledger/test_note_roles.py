"""Every amount a ledger note may state stands in its role (issue 9, round 9: N2' and F1).

A note may rightly state several amounts of the work: the payment received and what went to
each invoice, the credit held; a credit note's unit price, net, tax and total; a bill's total,
net and tax. Before this fix each was allowed anywhere in the note, so two of them swapped
("$708.40 applied to INV-0102; $70.12 applied to INV-0115" the other way round, "2 x $51.70 +
tax = $23.50", "total $1,496.49 ($1,646.14 net ...)") passed at 1.0; now each amount is bound
to its role (`_note_roles`, `note_says_money(roles=...)`) and a swap fails. Honest forms pass:
a credit note's net and tax beside its total (they failed before, F1), the earlier reference
forms, per-invoice wordings, and a zero balance ("paid in full ($0.00 open)", F1).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._common import money
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
SEEDS = (0, 1, 2)
Note = Callable[[TaskVariant, str], str | None]
"""The first note's new body from the variant and the reference's body (None: no such form
for this variant, e.g. two equal amounts that cannot be swapped)."""


def graded(v: TaskVariant, note: Note) -> dict[str, bool] | None:
    """The variant's reference with its first ``add_note`` body rewritten by ``note``,
    graded: {check: passed} of the applicable checks (None when ``note`` gives None)."""
    calls, done = [], False
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "add_note" and not done:
            body = note(v, args["body"])
            if body is None:
                return None
            args["body"], done = body, True
        calls.append(ToolCall(c.name, args))
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


def swap(body: str, a: str, b: str) -> str | None:
    """``body`` with the amounts ``a`` and ``b`` exchanged (None when they are equal)."""
    if a == b:
        return None
    assert a in body and b in body, (a, b, body)
    return body.replace(a, "\0").replace(b, a).replace("\0", b)


def failed(results: list[dict[str, bool] | None]) -> list[dict[str, bool]]:
    got = [r for r in results if r is not None]
    assert got, "no variant had the form"
    return [r for r in got if all(r.values())]


def passed_all(results: list[dict[str, bool] | None]) -> list[dict[str, bool]]:
    got = [r for r in results if r is not None]
    assert got, "no variant had the form"
    return [r for r in got if not all(r.values())]


def run(family: str, bands: tuple[str, ...], note: Note) -> list[dict[str, bool] | None]:
    return [graded(environment.variant(family, b, s), note) for b in bands for s in SEEDS]


# apply-customer-payment ---------------------------------------------------------------------


def _allocations(v: TaskVariant) -> list[str]:
    return [money(c) for _i, c in v.params["allocations"]]


def test_payment_allocations_swapped_between_invoices_fail() -> None:
    def note(v: TaskVariant, body: str) -> str | None:
        a = _allocations(v)
        return swap(body, a[0], a[1])

    results = run("apply-customer-payment", ("medium", "hard"), note)
    assert failed(results) == []
    assert all(r is None or not r["note-states-amount"] for r in results)


def test_payment_credit_held_swapped_with_the_allocation_fails() -> None:
    def note(v: TaskVariant, body: str) -> str | None:
        return swap(body, _allocations(v)[0], money(v.params["credit_cents"]))

    results = run("apply-customer-payment", ("expert",), note)
    assert failed(results) == []
    assert all(r is None or not r["note-states-credit"] for r in results)


def test_payment_received_swapped_with_an_allocation_fails() -> None:
    def note(v: TaskVariant, body: str) -> str | None:
        return swap(body, money(v.params["amount_cents"]), _allocations(v)[-1])

    assert failed(run("apply-customer-payment", ("medium", "hard", "expert"), note)) == []


ALLOCATED = re.compile(r"(\$[\d,]+\.\d\d) applied to (INV-\d{4}-\d{4})")


def _pairs(body: str) -> list[tuple[str, str]]:
    """The reference note's (amount, invoice number) allocations, in its order."""
    return ALLOCATED.findall(body)


def _received(v: TaskVariant) -> str:
    return money(v.params["amount_cents"])


PAYMENT_HONEST: tuple[Note, ...] = (
    # F1: a zero balance is no competing amount
    lambda v, body: body + " The invoices are now paid in full ($0.00 open).",
    lambda v, body: body + " Balance due: $0.00.",
    # the allocations named by invoice, in brackets, or listed with commas
    lambda v, body: (
        f"Payment of {_received(v)} recorded: "
        + " and ".join(f"{n} ({a})" for a, n in _pairs(body))
        + "."
    ),
    lambda v, body: (
        f"Received {_received(v)}: " + ", ".join(f"{a} to {n}" for a, n in _pairs(body)) + "."
    ),
    lambda v, body: (
        f"Recorded {_received(v)} received: "
        + ", ".join(f"{a} applied to {n}" for a, n in _pairs(body))
        + "."
    ),
)


@pytest.mark.parametrize("form", range(len(PAYMENT_HONEST)))
def test_honest_payment_notes_pass(form: int) -> None:
    # the zero balance forms are true where every invoice is paid in full (not hard's last);
    # expert's notes must also state the credit held
    bands = ("easy", "medium") if form < 2 else ("easy", "medium", "hard")
    assert passed_all(run("apply-customer-payment", bands, PAYMENT_HONEST[form])) == []


EXPERT_HONEST: tuple[Note, ...] = (
    lambda v, body: (
        f"Received {_received(v)}: "
        + ", ".join(f"{a} to {n}" for a, n in _pairs(body))
        + f"; {money(v.params['credit_cents'])} kept as customer credit (paid twice)."
    ),
    lambda v, body: (
        f"{money(v.params['credit_cents'])} held as credit on account, "
        + ", ".join(f"{a} applied to {n}" for a, n in _pairs(body))
        + f" (payment of {_received(v)})."
    ),
)


@pytest.mark.parametrize("form", range(len(EXPERT_HONEST)))
def test_honest_payment_notes_with_the_credit_held_pass(form: int) -> None:
    assert passed_all(run("apply-customer-payment", ("expert",), EXPERT_HONEST[form])) == []


def test_a_zero_applied_to_an_invoice_still_fails() -> None:
    def note(v: TaskVariant, body: str) -> str:
        return body.replace(_allocations(v)[0], "$0.00", 1)

    assert failed(run("apply-customer-payment", ("medium",), note)) == []


# credit-returned-item ------------------------------------------------------------------------

CREDIT = re.compile(
    r"\((\d+) x (\$[\d,]+\.\d\d) each, (\$[\d,]+\.\d\d) net \+ (\$[\d,]+\.\d\d) tax = "
    r"(\$[\d,]+\.\d\d)\)"
)


def _credit(body: str) -> dict[str, str]:
    m = CREDIT.search(body)
    assert m is not None, body
    return dict(zip(("qty", "unit", "net", "tax", "total"), m.groups(), strict=True))


CREDIT_BANDS = ("easy", "medium", "hard", "expert")


@pytest.mark.parametrize(
    ("a", "b"), [("unit", "total"), ("net", "total"), ("net", "tax"), ("unit", "tax")]
)
def test_credit_note_amounts_swapped_fail(a: str, b: str) -> None:
    def note(v: TaskVariant, body: str) -> str | None:
        c = _credit(body)
        if "$0.00" in (c[a], c[b]):
            return None  # a zero-rated customer's $0.00 tax: a zero binds no role
        return swap(body, c[a], c[b])

    assert failed(run("credit-returned-item", CREDIT_BANDS, note)) == []


def test_the_earlier_reference_form_swapped_fails() -> None:
    # the probe's input: `2 x $51.70 + tax = $23.50` (unit and total exchanged)
    def note(v: TaskVariant, body: str) -> str | None:
        c = _credit(body)
        if c["unit"] == c["total"]:
            return None
        return CREDIT.sub(f"({c['qty']} x {c['total']} + tax = {c['unit']})", body)

    assert failed(run("credit-returned-item", CREDIT_BANDS, note)) == []


CREDIT_HONEST = (
    # F1's input, verbatim in form
    lambda c: (
        f"Credit note for {c['qty']} x item returned: {c['net']} net + {c['tax']} tax "
        f"= {c['total']}."
    ),
    # the earlier reference form
    lambda c: (
        f"Credit note for {c['qty']} x item returned ({c['qty']} x {c['unit']} + tax = "
        f"{c['total']})."
    ),
    lambda c: f"Credited {c['total']} for {c['qty']} x item at {c['unit']} each.",
    lambda c: f"Credit note for {c['total']} ({c['qty']} x {c['unit']} plus tax).",
    lambda c: f"Issued a credit note of {c['total']}: net {c['net']}, tax {c['tax']}.",
)


@pytest.mark.parametrize("form", range(len(CREDIT_HONEST)))
def test_honest_credit_notes_pass(form: int) -> None:
    def note(v: TaskVariant, body: str) -> str:
        return CREDIT_HONEST[form](_credit(body))

    assert passed_all(run("credit-returned-item", ("easy", "medium", "expert"), note)) == []


# enter-vendor-bill ---------------------------------------------------------------------------

BILL = re.compile(r"total (\$[\d,]+\.\d\d) \((\$[\d,]+\.\d\d) net \+ (\$[\d,]+\.\d\d) tax\)")
BILL_BANDS = ("easy", "medium", "hard", "expert")


def _bill(body: str) -> dict[str, str]:
    m = BILL.search(body)
    assert m is not None, body
    return dict(zip(("total", "net", "tax"), m.groups(), strict=True))


@pytest.mark.parametrize(("a", "b"), [("total", "net"), ("total", "tax"), ("net", "tax")])
def test_bill_amounts_swapped_fail(a: str, b: str) -> None:
    def note(v: TaskVariant, body: str) -> str | None:
        c = _bill(body)
        return swap(body, c[a], c[b])

    assert failed(run("enter-vendor-bill", BILL_BANDS, note)) == []


BILL_HONEST = (
    lambda c, body: BILL.sub(f"total {c['total']}", body),  # the earlier reference form
    lambda c, body: BILL.sub(f"{c['net']} net + {c['tax']} tax = {c['total']} total", body),
    lambda c, body: BILL.sub(f"total {c['total']} (net {c['net']}, tax {c['tax']})", body),
)


@pytest.mark.parametrize("form", range(len(BILL_HONEST)))
def test_honest_bill_notes_pass(form: int) -> None:
    def note(v: TaskVariant, body: str) -> str:
        return BILL_HONEST[form](_bill(body), body)

    assert passed_all(run("enter-vendor-bill", BILL_BANDS, note)) == []


def _second_note(v: TaskVariant, rewrite: Callable[[str], str | None]) -> dict[str, bool]:
    """hard: the reference with the note on the second invoice rewritten (None: dropped)."""
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "add_note" and args["entity_id"] == v.params["second_invoice_id"]:
            body = rewrite(args["body"])
            if body is None:
                continue
            args["body"] = body
        calls.append(ToolCall(c.name, args))
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


@pytest.mark.parametrize(("a", "b"), [("unit", "total"), ("net", "total"), ("net", "tax")])
def test_the_second_invoices_note_swapped_fails(a: str, b: str) -> None:
    """hard: two credit notes on two invoices; the note on the second is read for roles too
    (before, only the guard read it, and allowed its amounts anywhere)."""
    seen = 0
    for seed in SEEDS:
        v = environment.variant("credit-returned-item", "hard", seed)

        def rewrite(body: str) -> str | None:
            c = _credit(body)
            return None if "$0.00" in (c[a], c[b]) else swap(body, c[a], c[b])

        body = next(
            c.arguments["body"]
            for c in v.reference
            if c.name == "add_note" and c.arguments["entity_id"] == v.params["second_invoice_id"]
        )
        if rewrite(body) is None:
            continue
        got = _second_note(v, rewrite)
        assert not got["second-note-amounts-in-role"], (seed, got)
        seen += 1
    assert seen


def test_the_second_invoices_note_honest_or_absent_passes() -> None:
    for seed in SEEDS:
        v = environment.variant("credit-returned-item", "hard", seed)
        for form in CREDIT_HONEST:
            got = _second_note(v, lambda body, f=form: f(_credit(body)))
            assert all(got.values()), (seed, form, got)
        assert _second_note(v, lambda body: None)["second-note-amounts-in-role"]
