"""The roles of the amounts a ledger note states (`note_says_money`'s ``roles``).

A note may rightly state several amounts of the work: a payment received and what went to
each invoice, a credit note's unit price, net, tax and total, a bill's total with its net and
tax. Allowed anywhere in the note, two of them can trade places ("$708.40 applied to
INV-0102; $70.12 applied to INV-0115" for the other way round; "total $1,496.49 ($1,646.14
net ...)") and every figure is an allowed one. So each amount is bound to the words that say
what it is (an `mcpgym_grading.AmountRole`, read clause by clause by the grader's
`mcpgym_grading._roles`), and a stated amount whose nearest cue is another role's fails.

Some cues differ per variant (the invoice an allocation went to) and so does the number of
roles (one allocation per invoice paid), so a family writes its roles into a variant param
(`note_roles`, a JSON list of ``[cents, [cue, ...]]``) that the check names. An amount in
several roles (an allocation that is the whole payment, a unit price that is the net of one
item) stands in any of them. A zero amount binds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

RECEIVED_CUES = (
    "recorded",
    "received",
    "receipt",
    "deposit",
    "deposited",
    "payment of",
    "paid in",
    "remitted",
    "total*",
    "in all",
)
"""The payment itself (apply-customer-payment's amount received)."""

CREDIT_HELD_CUES = (
    "customer credit",
    "credit",
    "on account",
    "unapplied",
    "left over",
    "leftover",
    "held",
    "kept",
    "overpaid",
    "overpayment",
    "excess",
    "surplus",
    "already paid",
    "paid twice",
    "twice",
    "duplicate",
)
"""What a payment left over as the customer's credit (policy 4.2); with the number of the
invoice that was paid twice (the credit is that second payment)."""

UNIT_CUES = ("x", "×", "each", "per unit", "unit", "unit price", "per item", "apiece", "ea")
"""A unit price (``2 x $23.50``, ``$23.50 each``)."""

NET_CUES = (
    "net",
    "subtotal",
    "sub-total",
    "before tax",
    "pre-tax",
    "pretax",
    "excl*",
    "ex tax",
    "ex-tax",
    "without tax",
)
"""A document's amount before tax."""

TAX_CUES = ("tax", "vat", "gst", "sales tax")
"""A document's tax."""

TOTAL_CUES = (
    "=",
    "total*",
    "in all",
    "credited",
    "credit note",
    "credit note for",
    "credit note of",
    "credit for",
    "credit of",
    "gross",
    "incl*",
    "inc tax",
    "including tax",
    "with tax",
    "after tax",
    "tax included",
    "tax inclusive",
    "tax-inclusive",
)
"""A document's amount with tax (a credit note's total); the tax phrases are longer than
`TAX_CUES`' ``tax`` so they win at an equal gap."""


def document_cues(number: str) -> tuple[str, ...]:
    """The cues of an amount that went to the document ``number`` (an allocation to an
    invoice): the number alone (``INV-2026-0102 ($70.12)``) and after the words that lead
    to it, which start right after the amount (``$70.12 to INV-2026-0102, $708.40 to
    INV-2026-0115``: ``to INV-2026-0115`` is nearer the second amount than the first
    invoice's number before it)."""
    n = number.lower()
    return (n, *(f"{w} {n}" for w in ("to", "applied to", "for", "against", "on", "paid on")))


def note_roles(*roles: tuple[int | None, Iterable[str]]) -> str:
    """The variant param a note check's ``roles`` names: ``(cents, cues)`` pairs as a JSON
    list of ``[cents, [cue, ...]]`` (cues lower-cased, as the grader matches them), in
    order; a null or non-positive amount is left out (it binds nothing)."""
    out = [[c, [cue.lower() for cue in cues]] for c, cues in roles if c is not None and c > 0]
    return json.dumps(out)


def role_amounts_sql(param: str) -> str:
    """SQL selecting the amounts of the roles param ``:param`` (`note_roles`): what a note
    may state, each in its role."""
    return f"SELECT json_extract(value, '$[0]') FROM json_each(:{param})"
