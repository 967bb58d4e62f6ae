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


def note_roles(*roles: tuple[int | str | None, Iterable[str]]) -> str:
    """The variant param a note check's ``roles`` names: ``(cents, cues)`` pairs as a JSON
    list of ``[cents, [cue, ...]]`` (cues lower-cased, as the grader matches them), in
    order; a null or non-positive amount is left out (it binds nothing). A text in place
    of the cents (a date, an account code) is a value role (`mcpgym_grading._value_roles`);
    an empty one is left out."""
    out = [
        [c, [cue.lower() for cue in cues]]
        for c, cues in roles
        if c is not None and (c != "" if isinstance(c, str) else c > 0)
    ]
    return json.dumps(out)


def role_amounts_sql(param: str) -> str:
    """SQL selecting the amounts of the roles param ``:param`` (`note_roles`): what a note
    may state, each in its role (the roles of a text value, a date or an account code,
    are left out)."""
    return (
        f"SELECT json_extract(value, '$[0]') FROM json_each(:{param}) "
        "WHERE json_type(value, '$[0]') = 'integer'"
    )


# The roles of the dates and accounts a note states (`mcpgym_grading._value_roles`): a date
# or account code bound to another role's words only (the accrual's date beside "reversed",
# the expense account beside "against") misplaces it.

ACCRUAL_DATE_CUES = ("accru*", "month end", "month-end", "end of may", "last day of may")
"""An accrual's date (accrue-expense: 2026-05-31)."""

REVERSAL_DATE_CUES = ("revers*", "auto-revers*", "undone", "backed out", "unwound")
"""The date an accrual is reversed on (accrue-expense: 2026-06-01)."""

POSTING_DATE_CUES = (
    "post",
    "posted",
    "posting",
    "posting date",
    "posts",
    "repost*",
    "re-post*",
    "booked",
    "moved",
    "moved to",
    "first day",
    "first open day",
    "earliest open",
    "open period",
    "entry date",
    "instead",
)
"""The date an entry was posted on (closed-period-posting, enter-vendor-bill: 2026-05-01,
the first day of the earliest open period; correct-misposted-entry's corrected entry,
"reposted on 2026-06-15")."""

ASKED_DATE_CUES = (
    "asked",
    "asked for",
    "request*",
    "wanted",
    "issued",
    "issue date",
    "invoice date",
    "closed period",
    "closed month",
    "belong*",
    "original*",
)
"""The date a posting was asked for, or its document's date, in a closed period
(closed-period-posting)."""

DOCUMENT_DATE_CUES = (
    "dated",
    "bill date",
    "bill is dated",
    "invoice date",
    "document date",
    "issued",
    "printed",
    "closed period",
    "closed month",
    "belong*",
)
"""A bill's own date, as printed (enter-vendor-bill expert: in closed April)."""

DEBIT_ACCOUNT_CUES = ("dr", "debit*", "expense account", "charged to", "booked to")
"""An expense account an accrual debits."""

CREDIT_ACCOUNT_CUES = (
    "cr",
    "credit*",
    "against",
    "accrued expenses",
    "accrued expense",
    "accrued liabilities",
    "liability",
)
"""The account an accrual credits (2100 Accrued Expenses)."""

ACCRUED_TOTAL_CUES = ("accru*", "total*", "in all", "altogether", "2100", "accrued expenses")
"""An accrual's total (what 2100 is credited with)."""


def account_cues(code: str) -> tuple[str, ...]:
    """The cues of an amount booked to the account ``code`` (``6600: $800.00``, ``Dr 6600
    $800.00``, ``$800.00 to 6600``)."""
    return (code, f"{code}:", f"to {code}", f"account {code}", f"dr {code}", f"debit {code}")


# The episode's own ids (invoice and bill numbers, vendor references, bank lines): each is a
# value role of its own, so another id of the same shape in a note (`INV-2026-0149` for
# `INV-2026-0151`, `SUMM-8590` for `SUMM-8594`, `bank line 188`) is none of the record's
# (`mcpgym_grading._value_roles`: a role's kind is closed).

PAYMENT_DATE_CUES = ("received", "recorded", "deposit*", "paid", "payment date", "dated")
"""The date a payment was received on (apply-customer-payment)."""

BAD_DEBT_ACCOUNT_CUES = ("bad debt", "bad debts", "bad-debt", "expense", "written off to")
"""The account a write-off is charged to (6800 Bad Debt Expense)."""

WROTE_OFF_CUES = ("wrote off", "written off", "write-off of", "wrote-off")
"""The invoice written off (write-off-bad-debt)."""

ESCALATED_CUES = ("not written off", "escalat*", "above", "over the", "exceeds", "controller")
"""The invoice escalated instead (write-off-bad-debt)."""

RIGHT_ACCOUNT_CUES = ("should", "right", "correct", "corrected to", "reposted", "posted again")
"""The account a mis-coded entry belongs on (correct-misposted-entry)."""

WRONG_ACCOUNT_CUES = ("wrong*", "mis*", "coded to", "from", "instead of")
"""The account a mis-coded entry was coded to (correct-misposted-entry)."""

ENTRY_DATE_CUES = ("dated", "original*", "paid on", "payment on", "entry of", "card payment")
"""The date of the entry being corrected (correct-misposted-entry)."""


def id_roles(*ids: str | None) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
    """`note_roles` items for the episode's own ids (an invoice number, a vendor reference):
    each bound by itself, so any of them may stand anywhere and another id of their shape is
    none of the record's; a None id is left out."""
    return tuple((i, (i.lower(),)) for i in ids if i)
