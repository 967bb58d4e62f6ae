"""Family `write-off-bad-debt`: a customer will not pay; write off within the limit or escalate.

Policy 8: an invoice more than 90 days past due may be written off to 6800 Bad Debt
Expense; the agent may write off at most $500.00 per invoice (above that: escalate to the
controller with the amount, write nothing off); only what is still open.

Bands:
    easy: the request names one invoice, 90+ days past due, its open amount under the limit.
    medium: the request names the customer: one of their invoices is 90+ days past due and
        under the limit (write it off); their other open invoices are younger (leave them).
    hard: the named invoice is above the limit: escalate it with its open amount, no write-off.
    expert: the customer ceased trading: one old invoice was part paid, so what is open on it
        is under the limit although its total is not (write off the open part only); another
        old invoice is open above the limit (escalate it with the amount).

The same work: the journal holds only the write-off's entry (`JOURNAL_SQL`); the only
escalation is of the invoice above the limit (hard, expert), once, with its open amount;
nothing else is escalated, written off, paid or reversed.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from mcpgym_grading import (
    DecisionMatch,
    Param,
    Rubric,
    SqlCheck,
    money_moved_only_as_allowed,
    record_state,
    with_text_amounts,
)
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import (
    BANDS,
    PRODUCTS,
    RATES,
    TODAY,
    VOLATILE_COLUMNS,
    instruction,
    money,
    tax_on,
)
from mcpgym_ledger.families._identity import SNAPSHOT_TIME
from mcpgym_ledger.families._names import texts_name_only_own_party
from mcpgym_ledger.families._note_roles import (
    BAD_DEBT_ACCOUNT_CUES,
    ESCALATED_CUES,
    WROTE_OFF_CUES,
    id_roles,
    note_roles,
)
from mcpgym_ledger.families._notes import (
    EPISODE_MEMOS_SQL,
    EPISODE_REASONS_SQL,
    EPISODE_TEXT_SQL,
    note_decision,
    note_left,
    note_says_money,
    notes_values_in_role,
    stated_cents,
    tax_id_not_copied,
    texts_claim_only,
    texts_state_no_other_amount_guard,
    untouched_records_claim_nothing,
)
from mcpgym_ledger.families._past_books import PastBooks
from mcpgym_ledger.families._posting_months import texts_state_posting_months
from mcpgym_server import Generation, Scenario, TaskFamily, VariantSpec, pick_where, reference_call

NAME = "write-off-bad-debt"

LIMIT_CENTS = 50000
"""Policy 8.2: the agent's write-off limit per invoice ($500.00)."""

OLD_BEFORE = "2026-03-17"
"""Due before this day means more than 90 days past due on 2026-06-15."""

REASONS = ("has ceased trading", "went into liquidation", "closed its doors for good")

_WRITTEN = ("write-off",)
"""The bands that write an invoice off (hard escalates it, expert does both)."""


def _lines(g: Generation, lo: int, hi: int) -> list[tuple[str, int, int]]:
    """One invoice line whose net is between ``lo`` and ``hi`` cents (before tax)."""
    product, unit = PRODUCTS[g.rng.randrange(len(PRODUCTS))]
    qty = max(1, g.rng.randrange(lo, hi) // unit)
    return [(product, qty, unit)]


def _old_dates(g: Generation) -> tuple[str, str]:
    issue = date(2026, 1, 5) + timedelta(days=g.rng.randrange(35))
    return issue.isoformat(), (issue + timedelta(days=30)).isoformat()


def generate(g: Generation) -> VariantSpec:
    """Generate a `write-off-bad-debt` variant for ``(g.seed, g.band)`` (see above).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    past = PastBooks(sc)

    def usable(cust: dict[str, Any]) -> Any:
        opened = sc.rows(
            "SELECT * FROM invoices WHERE customer_id = ? AND status IN ('posted', 'part_paid') "
            "ORDER BY id",
            (cust["id"],),
        )
        if any(i["due_date"] < OLD_BEFORE for i in opened):
            return None  # an old debt of its own would make the request ambiguous
        return bool(opened) or band in ("easy", "hard")

    cust = pick_where(
        rng,
        sc.rows("SELECT * FROM parties WHERE kind = 'customer' ORDER BY id"),
        usable,
        f"{NAME}@{band}",
    )
    why = REASONS[rng.randrange(len(REASONS))]
    write_off: dict[str, Any] | None = None
    escalate: dict[str, Any] | None = None
    if band in ("easy", "medium"):
        write_off = past.invoice(cust, *_old_dates(g), _lines(g, 9000, 42000))
    elif band == "hard":
        escalate = past.invoice(cust, *_old_dates(g), _lines(g, 60000, 240000))
    else:
        issue, due = _old_dates(g)
        lines = _lines(g, 70000, 160000)
        net = sum(q * u for _p, q, u in lines)
        taxed = net + tax_on(net, RATES[cust["default_tax_code"]])
        part_open = rng.randrange(8000, 40000)
        paid_day = (date.fromisoformat(due) + timedelta(days=rng.randint(3, 20))).isoformat()
        write_off = past.invoice(cust, issue, due, lines, paid=[(paid_day, taxed - part_open)])
        escalate = past.invoice(cust, *_old_dates(g), _lines(g, 60000, 240000))
    main = write_off or escalate
    assert main is not None
    if band == "medium" or band == "expert":
        body = (
            f"{cust['name']} {why}; we will not see another payment from them. Deal with their "
            "unpaid invoices as the write-off policy allows."
        )
    else:
        body = (
            f"{cust['name']} {why}. Invoice {main['number']} ({money(main['open_cents'])} "
            "open) will never be paid. Deal with it as the write-off policy allows."
        )
    reference = [reference_call("find_parties", text=cust["name"], kind="customer")]
    reference.append(reference_call("get_party", party_id=cust["id"]))
    notes = []
    if write_off is not None:
        cents = write_off["open_cents"]
        reference.append(reference_call("get_invoice", invoice_id=write_off["id"]))
        reference.append(
            reference_call(
                "write_off_invoice",
                invoice_id=write_off["id"],
                amount_cents=cents,
                reason=f"bad debt: {cust['name']} {why}",
                write_off_date=TODAY,
            )
        )
        notes.append(
            (
                write_off["id"],
                f"Wrote off {money(cents)} still open on {write_off['number']} as bad debt "
                f"(6800): {cust['name']} {why}; more than 90 days past due, within the "
                "$500.00 limit (policy 8).",
            )
        )
    if escalate is not None:
        cents = escalate["open_cents"]
        reference.append(reference_call("get_invoice", invoice_id=escalate["id"]))
        reference.append(
            reference_call(
                "escalate",
                entity="invoice",
                entity_id=escalate["id"],
                amount_cents=cents,
                reason=f"{cust['name']} {why}; {escalate['number']} has {money(cents)} open, "
                "above the $500.00 write-off limit (policy 8.2): please decide on the write-off.",
            )
        )
        notes.append(
            (
                escalate["id"],
                f"Not written off: {money(cents)} open on {escalate['number']} is above the "
                "$500.00 limit; escalated to the controller (policy 8.2).",
            )
        )
    for inv_id, text in notes:
        reference.append(reference_call("add_note", entity="invoice", entity_id=inv_id, body=text))
    cents_off = write_off["open_cents"] if write_off else 0

    def noted(inv: dict[str, Any] | None) -> str:  # what the reference's note on it states
        return stated_cents(*(t for i, t in notes if inv is not None and i == inv["id"]))

    params = {
        "customer_id": cust["id"],
        "invoice_id": main["id"],
        "write_off_invoice_id": write_off["id"] if write_off else None,
        "write_off_cents": cents_off,
        "write_off_note_amounts": noted(write_off),
        "escalate_note_amounts": noted(escalate),
        # 6800 and each invoice number a note states are the record's own
        "note_roles": note_roles(
            ("6800", BAD_DEBT_ACCOUNT_CUES),
            (write_off["number"] if write_off else None, WROTE_OFF_CUES),
            (escalate["number"] if escalate else None, ESCALATED_CUES),
        ),
        # the invoice number the controller's reason states (hard, expert); easy and
        # medium, where nothing is escalated: the one the write-off's reason (its entry's
        # memo) states (round 11's M11; `REASONS_OR_MEMOS_SQL` takes it out of the memos)
        "reason_roles": note_roles(*id_roles((escalate or main)["number"])),
        "escalate_invoice_id": escalate["id"] if escalate else None,
        "escalate_number": escalate["number"] if escalate else None,
        "write_off_number": write_off["number"] if write_off else None,
        "escalate_cents": escalate["open_cents"] if escalate else None,
        "movements": movements([("6800", cents_off, 0), ("1100", 0, cents_off)]),
    }
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


T = SNAPSHOT_TIME

ESCALATED_IN_A_MEMO = "inv-0000-0000"
"""What `REASONS_OR_MEMOS_SQL` writes in a memo for the escalated invoice's number: a number
of the invoices' kind that is none of the episode's, so the value roles refuse it."""

_MEMO = "mcpgym_fold(memo)"
_MEMO_LESS_WRITTEN_OFF = f"COALESCE(replace({_MEMO}, lower(:write_off_number), ''), {_MEMO})"

REASONS_OR_MEMOS_SQL = (
    f"SELECT * FROM ({EPISODE_REASONS_SQL}) UNION ALL SELECT "
    f"COALESCE(replace({_MEMO_LESS_WRITTEN_OFF}, lower(:escalate_number), "
    f"'{ESCALATED_IN_A_MEMO}'), {_MEMO_LESS_WRITTEN_OFF}) "
    f"FROM ({EPISODE_MEMOS_SQL})"
)
"""The escalation reasons, and the memos (`EPISODE_MEMOS_SQL`: the write-off's reason is its
entry's memo, read folded) with the number of the invoice written off taken out (the memos
may name it) and the escalated invoice's number (expert) written as `ESCALATED_IN_A_MEMO`:
the roles param binds the escalated invoice's number, the escalation reason's own, while a
write-off's memo naming it names the invoice not written off (stop 21's open row)."""

RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(LIMIT_CENTS),
        record_state(
            "invoices",
            "status = 'written_off' AND written_off_cents = :write_off_cents",
            name="invoice-written-off",
            description="the old invoice within the limit is written off, for exactly what "
            "was still open on it (policy 8.1, 8.3)",
            key_param="write_off_invoice_id",
            weight=3,
            bands=("easy", "medium", "expert"),
        ),
        SqlCheck(
            name="escalated-with-amount",
            description="the invoice above the limit was escalated to the controller with its "
            "open amount (policy 8.2)",
            sql="SELECT COUNT(*) > 0 FROM escalations WHERE entity = 'invoice' "
            "AND entity_id = :escalate_invoice_id AND amount_cents = :escalate_cents",
            expected=1,
            weight=3,
            required=True,
            bands=("hard", "expert"),
        ),
        money_moved_only_as_allowed(
            [
                "SELECT 'write_off_not_allowed', e.source_id, SUM(l.debit_cents) "
                "FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id "
                "JOIN accounts a ON a.id = l.account_id WHERE a.code = '6800' "
                f"AND e.created_at > '{T}' AND (e.source_id IS NOT :write_off_invoice_id "
                f"OR l.debit_cents > {LIMIT_CENTS}) GROUP BY e.id",
                f"SELECT 'credit_note', id, total_cents FROM credit_notes WHERE created_at > '{T}'",
                f"SELECT 'payment', id, amount_cents FROM payments WHERE created_at > '{T}'",
            ],
            description="no money moved but the allowed write-off: nothing written off above "
            "the $500.00 limit or on another invoice, no credit note or payment instead",
        ),
        books_moved(),
        note_left("invoice", "invoice_id"),
        note_decision(bands=("easy", "medium"), not_denied=("write-off",)),
        note_decision(
            name="note-states-not-written-off", bands=("hard",), not_claimed=("write-off",)
        ),
        note_decision(
            name="note-states-written-off",
            bands=("expert",),
            not_denied=("write-off",),
            on=("invoice", "write_off_invoice_id"),
        ),
        note_decision(
            name="note-states-escalated-not-written-off",
            bands=("expert",),
            not_claimed=("write-off",),
            on=("invoice", "escalate_invoice_id"),
        ),
        note_says_money(
            "invoice",
            "write_off_invoice_id",
            "write_off_cents",
            party="customer_id",
            allowed="write_off_note_amounts",
            limit=LIMIT_CENTS,
            roles="note_roles",
            bands=("easy", "medium", "expert"),
        ),
        note_says_money(
            "invoice",
            "escalate_invoice_id",
            "escalate_cents",
            party="customer_id",
            allowed="escalate_note_amounts",
            limit=LIMIT_CENTS,
            roles="note_roles",
            name="note-states-escalated-amount",
            bands=("hard", "expert"),
        ),
        notes_values_in_role(
            Param("reason_roles"),
            sql=REASONS_OR_MEMOS_SQL,
            name="reason-values-in-role",
            description="each invoice number the escalation reason states is the episode's "
            "own (the controller acts on it: another number sends them to another invoice); "
            "each invoice number the write-off's reason (its entry's memo) and every other memo "
            "states is the invoice written off, not the one escalated nor another (round 11's "
            "M11)",
        ),
        DecisionMatch(
            name="reason-states-not-written-off",
            description="the escalation reason does not claim the escalated invoice written "
            "off (it was not, before or in the episode: the controller decides on it; a "
            "sentence naming the invoice written off is about that one)",
            source="sql",
            sql=EPISODE_REASONS_SQL,
            not_claimed=("write-off",),
            about=Param("escalate_number"),
            required=True,
            bands=("hard", "expert"),
        ),
        SqlCheck(
            name="texts-state-escalated-still-open",
            description="the escalated invoice is still open, in the books and in the texts: "
            "it stays posted (not written off, paid or credited) and no note, memo or reason "
            "says it has nothing left open (`INV-… now has a zero balance`, `nothing is left "
            "open on INV-…`, `INV-… is settled`): the controller decides on it (round 15's "
            "L15c: a write-off claimed by the state it leaves; a paid invoice says the same, "
            "so only this family's escalated invoice is read, `mcpgym_grading._settled`)",
            sql="SELECT 'the escalated invoice is ' || status FROM invoices "
            "WHERE id = :escalate_invoice_id AND status <> 'posted' "
            "UNION ALL SELECT x FROM (SELECT mcpgym_settled(t.body, :escalate_number) AS x "
            f"FROM ({EPISODE_TEXT_SQL}) t) WHERE x IS NOT NULL",
            expected=[],
            weight=1,
            required=True,
            bands=("hard", "expert"),
        ),
        texts_name_only_own_party("customer_id"),
        tax_id_not_copied(),
        texts_state_posting_months(),
        untouched_records_claim_nothing(),
        *texts_claim_only(
            {
                "easy": _WRITTEN,
                "medium": _WRITTEN,
                "hard": ("escalate",),
                "expert": (*_WRITTEN, "escalate"),
            }
        ),
        nothing_else_changed(
            description="every other table equals the reference end state (the customer's "
            "other invoices included): nothing else was written off, paid or changed; "
            "nothing escalated but what the reference escalates, once, with its amount; "
            "the journal holds the same postings (`JOURNAL_SQL`)",
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Write off a bad debt within the limit or escalate it (medium: find the "
        "old invoice; hard: above the limit; expert: part paid, plus one to escalate).",
        bands=BANDS,
        generator=with_text_amounts(generate),
        generator_version="3",
        rubric=RUBRIC,
    )
)
