"""A note on a record the episode did not touch claims no action was done to it (issue 9,
round 11's O11): where the band writes an invoice off, a second note `Written off as bad
debt (6800)` on the customer's other invoice (nothing wrote it off) passed at score 1.0, as
did `Bill entered and posted` on another bill of the vendor: the claim check allows the band's
own actions in every text. The references (the expert bill's note on the bill already
entered: `it was not entered a second time`) and plain notes pass."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
NAME = "untouched-records-claim-nothing"


def _with_note(v: TaskVariant, sql: str, entity: str, body: str) -> dict[str, bool]:
    db = replay(environment, v.family, v.band, v.seed, v.reference).open_final_db()
    try:
        target = db.execute(sql, dict(v.params)).fetchone()[0]
    finally:
        db.close()
    calls = [
        *v.reference,
        ToolCall("add_note", {"entity": entity, "entity_id": target, "body": body}),
    ]
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    assert g.status == "graded", g.error
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


OTHER_INVOICE = (
    "SELECT id FROM invoices WHERE customer_id = :customer_id AND id <> :invoice_id "
    "ORDER BY id DESC"
)
OTHER_BILL = "SELECT id FROM bills WHERE vendor_id = :vendor_id AND id < :bill_id ORDER BY id"


@pytest.mark.parametrize(
    ("family", "band", "sql", "entity", "body"),
    [
        (
            "write-off-bad-debt",
            "easy",
            OTHER_INVOICE,
            "invoice",
            "Written off as bad debt (6800): the customer has ceased trading.",
        ),
        (
            "enter-vendor-bill",
            "medium",
            OTHER_BILL,
            "bill",
            "Bill entered and posted today from the vendor's email.",
        ),
        # no subject: a note on a bill is about that bill
        (
            "enter-vendor-bill",
            "easy",
            OTHER_BILL,
            "bill",
            "Entered and posted today from the vendor's email.",
        ),
        (
            "enter-vendor-bill",
            "expert",
            OTHER_BILL,
            "bill",
            "Entered today from the vendor's email; posted on 2026-05-01.",
        ),
    ],
)
def test_a_claim_on_an_untouched_record_fails(
    family: str, band: str, sql: str, entity: str, body: str
) -> None:
    checks = _with_note(environment.variant(family, band, 0), sql, entity, body)
    assert checks[NAME] is False, checks
    assert not all(checks.values())


@pytest.mark.parametrize(
    ("family", "band", "sql", "entity", "body"),
    [
        (
            "write-off-bad-debt",
            "medium",
            OTHER_INVOICE,
            "invoice",
            "Checked with the customer file: this invoice is within its terms.",
        ),
        (
            "enter-vendor-bill",
            "easy",
            OTHER_BILL,
            "bill",
            "Checked against the new bill: this one is a different delivery.",
        ),
        (
            "enter-vendor-bill",
            "medium",
            OTHER_BILL,
            "bill",
            "Already entered in April; the new email is for a different delivery.",
        ),
        (
            "enter-vendor-bill",
            "expert",
            OTHER_BILL,
            "bill",
            "Not entered again: the vendor's email repeats a bill already on the books.",
        ),
    ],
)
def test_a_plain_note_on_an_untouched_record_passes(
    family: str, band: str, sql: str, entity: str, body: str
) -> None:
    checks = _with_note(environment.variant(family, band, 0), sql, entity, body)
    assert all(checks.values()), {n: ok for n, ok in checks.items() if not ok}


@pytest.mark.parametrize("family", sorted(environment.families))
@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
def test_references_pass(family: str, band: str) -> None:
    v = environment.variant(family, band, 1)
    g = grade_bundle(
        replay(environment, family, band, 1, v.reference), environment, reference_cache=CACHE
    )
    assert g.passed and g.score == 1.0, [c.name for c in g.checks if c.passed is False]


UNTOUCHED = {
    "credit-returned-item": "SELECT id FROM invoices WHERE customer_id = :customer_id "
    "AND id NOT IN (SELECT invoice_id FROM credit_notes) ORDER BY id DESC",
    "apply-customer-payment": "SELECT id FROM invoices WHERE customer_id = :customer_id "
    "AND id NOT IN (SELECT invoice_id FROM payment_allocations WHERE payment_id >= :payment_id) "
    "ORDER BY id DESC",
}
"""An invoice of the customer the reference did not credit or pay (untouched)."""


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize(
    ("family", "body"),
    [
        ("credit-returned-item", "Credit note issued for the returned items on this invoice."),
        ("credit-returned-item", "Credit note for 2 x item returned."),
        (
            "apply-customer-payment",
            "Payment received and applied to this invoice; it is now paid in full.",
        ),
        ("apply-customer-payment", "Recorded $10.00 received from the customer."),
    ],
)
def test_a_credit_note_or_payment_claimed_on_an_untouched_invoice_fails(
    family: str, body: str, band: str
) -> None:
    """Round 11's O11b: the claim on another invoice of the customer (one the episode did not
    change) passed at 1.0: the reader had no credit-note or payment-received action."""
    graded = _with_note(environment.variant(family, band, 0), UNTOUCHED[family], "invoice", body)
    assert graded[NAME] is False, graded


@pytest.mark.parametrize("band", ["easy", "expert"])
@pytest.mark.parametrize(
    ("family", "body"),
    [
        ("credit-returned-item", "No credit note was issued on this invoice: nothing returned."),
        ("credit-returned-item", "Not part of this return; no credit note issued."),
        ("apply-customer-payment", "Not paid by this deposit; it stays open."),
        ("apply-customer-payment", "The payment was not applied to this invoice."),
    ],
)
def test_an_honest_note_on_an_untouched_invoice_passes(family: str, body: str, band: str) -> None:
    graded = _with_note(environment.variant(family, band, 0), UNTOUCHED[family], "invoice", body)
    assert all(graded.values()), graded
