"""The policy limits a ledger note may quote, bound to their role (`note_says_money`'s
``limit``).

Policy 3.5 ($5,000.00 approval limit for bills) and 8.2 ($500.00 write-off limit per
invoice) are amounts an honest note quotes beside the amount it states ("Bill TRAI-9197,
$6,662.42, is above the $5,000.00 approval limit"). Allowed anywhere, the limit would let a
note hedge with it ("total $6,662.42 or $5,000.00"); refused, it fails honest notes. So the
limit is allowed only as the limit: an `mcpgym_grading.AmountRole` whose cues are the nouns
of a limit (`LIMIT_CUES`), and the note's own amount takes the words of the record and of
its standing against the limit (`RECORD_CUES`) as its role, so that a record word nearer the
limit's value than a limit noun ("total $5,000.00", "$6,662.42 or $5,000.00 (above the
limit)") takes it, and the limit's role binds nothing but the limit (`binds_others=False`),
so a limit noun beside the amount never makes it the limit (`mcpgym_grading._roles`).
"""

from __future__ import annotations

from mcpgym_grading import AmountRole, Param

LIMIT_CUES = (
    "limit",
    "limits",
    "threshold",
    "cap",
    "ceiling",
    "maximum",
    *(
        f"{kind} {noun}"
        for kind in (
            "approval",
            "write-off",
            "write off",
            "writeoff",
            "policy",
            "per-invoice",
            "per invoice",
            "agent",
            "authority",
            "authorisation",
            "authorization",
            "sign-off",
            "signing",
            "posting",
        )
        for noun in ("limit", "threshold", "cap", "ceiling", "maximum")
    ),
)
"""The words that name a policy limit in a note (`note_says_money`'s ``limit``, an
`AmountRole`'s cues): nouns of a limit, alone or after the word that says what it limits
(``approval limit``, ``write-off threshold``): a cue nearest the amount wins, and the
longer one at equal gaps, so ``above the $5,000.00 approval limit`` binds the amount to the
limit, not to `RECORD_CUES`' ``above`` (nearer than a bare ``limit`` there)."""

RECORD_CUES = (
    "above",
    "over",
    "exceed*",
    "more than",
    "greater than",
    "beyond",
    "under",
    "below",
    "within",
    "less than",
    "total*",
    "bill",
    "invoice",
    "open",
    "outstanding",
    "balance",
    "due",
    "entered",
    "posted",
    "recorded",
    "draft",
    "escalat*",
    "wrote off",
    "written off",
    "write off",
    "writing off",
    "write-off",
)
"""The words that say an amount is the record's own (its total, what is open, what was
written off) or how it stands against a limit (``$6,662.42 is above the $5,000.00 limit``):
the role of a note's expected amount when the note may quote a limit, so that the limit's
noun beside the limit does not take the amount too."""


def limit_roles(cents_param: str, limit: int) -> tuple[AmountRole, AmountRole]:
    """The roles of a note check that may quote the policy limit ``limit`` (cents): the
    expected amount ``:cents_param`` with `RECORD_CUES`, then the limit with `LIMIT_CUES`,
    which bind only the limit (``binds_others=False``: "above the approval limit
    ($6,662.42)" does not make the total the limit). An amount equal to both is read as the
    expected amount (no family draws one: write-offs stay under $500.00, escalated
    invoices and hard's bills above their limit, other bills under it)."""
    return (
        AmountRole(amount=Param(cents_param), cues=RECORD_CUES),
        AmountRole(amount=limit, cues=LIMIT_CUES, binds_others=False),
    )
