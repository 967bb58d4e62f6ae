"""Family `reconcile-bank-lines`: reconcile the new lines of the bank statement feed (policy 5).

Bands:
    easy: one line, a monthly service charge: post it to 6700 Bank Fees against 1000 on the
        line's date (5.2) and match the line to that entry.
    medium: the fee and a customer's deposit whose reference names the invoice it pays:
        record the payment with its bank line (4.4), applied to that invoice.
    hard: as medium, and the feed delivered the deposit twice (same date, amount and
        reference): mark the duplicate ignored (5.1), record one payment only.
    expert: as hard, and a payment to a vendor that is already in the books came through
        unmatched: match the line to that payment's entry; paying the bill again is wrong.

The same work (the journal, `JOURNAL_SQL`): the fee's entry on the line's date and the
deposit's payment entry; the vendor payment is matched, not paid again. The two identical
deposit lines of hard and expert may swap roles (`SWAPPED`): either one recorded, the other
ignored, never both or neither.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from mcpgym_grading import AnswerMatch, Param, Rubric, SqlCheck, record_state, with_text_amounts
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import BANDS, VOLATILE_COLUMNS, instruction, money
from mcpgym_ledger.families._identity import entry_key
from mcpgym_ledger.families._note_roles import (
    DEBIT_ACCOUNT_CUES,
    PAYMENT_DATE_CUES,
    POSTING_DATE_CUES,
    id_roles,
    note_roles,
)
from mcpgym_ledger.families._notes import (
    EPISODE_TEXT_SQL,
    notes_values_in_role,
    tax_id_not_copied,
    texts_claim_only,
    texts_state_no_other_amount_guard,
)
from mcpgym_ledger.families._posting_months import texts_state_posting_months
from mcpgym_server import Generation, Scenario, TaskFamily, VariantSpec, pick, reference_call

NAME = "reconcile-bank-lines"


def generate(g: Generation) -> VariantSpec:
    """Generate a `reconcile-bank-lines` variant for ``(g.seed, g.band)`` (see above).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band

    def line(day: str, text: str, cents: int, ref: str) -> int:
        return sc.insert(
            "bank_lines",
            {
                "bank_account_id": 1,
                "line_date": day,
                "description": text,
                "amount_cents": cents,
                "reference": ref,
                "status": "unmatched",
                "updated_at": f"{day}T18:00:00Z",
            },
        )

    fee_day = date(2026, 6, rng.randint(1, 12)).isoformat()
    fee = rng.randrange(1500, 6000)
    kind = rng.choice(("WIRE TRANSFER FEE", "SERVICE CHARGE", "CARD TERMINAL FEE"))
    fee_line = line(fee_day, kind, -fee, f"FEE {rng.randrange(100, 999)}")
    lines = [fee_line]
    states = {fee_line: "matched"}
    inv: dict[str, Any] | None = None
    deposit_line = duplicate_line = vendor_line = None
    dep_day = ""
    vendor_pay: dict[str, Any] | None = None
    if band != "easy":
        inv = pick(
            rng,
            sc.rows(
                "SELECT i.*, p.name AS customer FROM invoices i JOIN parties p "
                "ON p.id = i.customer_id WHERE i.status = 'posted' AND i.credited_cents = 0 "
                "ORDER BY i.id"
            ),
            f"{NAME}@{band}: an open invoice",
        )
        dep_day = date(2026, 6, rng.randint(1, 12)).isoformat()
        text = f"DEPOSIT {inv['customer'].upper()[:22]}"
        deposit_line = line(dep_day, text, inv["total_cents"], inv["number"])
        lines.append(deposit_line)
        states[deposit_line] = "matched"
        if band in ("hard", "expert"):
            duplicate_line = line(dep_day, text, inv["total_cents"], inv["number"])
            lines.append(duplicate_line)
            states[duplicate_line] = "ignored"
    if band == "expert":
        vendor_pay = pick(
            rng,
            sc.rows(
                "SELECT b.id AS line_id, p.*, v.name AS vendor FROM bank_lines b "
                "JOIN payments p ON p.id = b.payment_id JOIN parties v ON v.id = p.party_id "
                "WHERE p.direction = 'paid' AND b.line_date >= '2026-05-01' ORDER BY b.id"
            ),
            f"{NAME}@{band}: a vendor payment",
        )
        vendor_line = vendor_pay["line_id"]
        sc.update(
            "bank_lines",
            vendor_line,
            {"status": "unmatched", "payment_id": None, "journal_entry_id": None},
        )
        lines.append(vendor_line)
        states[vendor_line] = "matched"
    rng.shuffle(lines)
    body = (
        f"These bank statement lines are not reconciled yet: {', '.join(map(str, lines))}. "
        "Reconcile them as the policy requires."
    )
    fee_entry = sc.peek_id("journal_entries")
    payment_id = sc.peek_id("payments")
    reference = [reference_call("list_bank_lines", status="unmatched")]
    reference.append(
        reference_call(
            "post_journal_entry",
            entry_date=fee_day,
            memo=f"Bank fee: {kind.lower()}",
            lines=[
                {"account_code": "6700", "debit_cents": fee},
                {"account_code": "1000", "credit_cents": fee},
            ],
        )
    )
    reference.append(
        reference_call("match_bank_line", bank_line_id=fee_line, journal_entry_id=fee_entry)
    )
    moves = [("6700", fee, 0), ("1000", 0, fee)]
    if inv is not None:
        reference.append(reference_call("get_invoice", invoice_id=inv["id"]))
        reference.append(
            reference_call(
                "record_customer_payment",
                customer_id=inv["customer_id"],
                amount_cents=inv["total_cents"],
                payment_date=dep_day,
                allocations=[{"invoice_id": inv["id"], "amount_cents": inv["total_cents"]}],
                bank_line_id=deposit_line,
                reference=inv["number"],
            )
        )
        moves += [("1000", inv["total_cents"], 0), ("1100", 0, inv["total_cents"])]
    if duplicate_line is not None:
        reference.append(
            reference_call(
                "ignore_bank_line",
                bank_line_id=duplicate_line,
                reason=f"duplicate feed line: same date, amount and reference as line "
                f"{deposit_line}, which is recorded (policy 5.1)",
            )
        )
    if vendor_pay is not None:
        reference.append(
            reference_call(
                "find_journal_entries", amount_cents=vendor_pay["amount_cents"], account_code="1000"
            )
        )
        reference.append(
            reference_call(
                "match_bank_line",
                bank_line_id=vendor_line,
                journal_entry_id=vendor_pay["journal_entry_id"],
            )
        )
    params = {
        "line_states": sorted([k, v] for k, v in states.items()),
        "line_states_json": json.dumps(sorted(states)),
        "fee_line_id": fee_line,
        "fee": [[fee_day, "1000", -fee], [fee_day, "6700", fee]],
        "deposit_line_id": deposit_line,
        "deposit": [[inv["customer_id"], inv["total_cents"], inv["id"], inv["total_cents"]]]
        if inv
        else None,
        "duplicate_line_id": duplicate_line,
        # the pair's two lines, each bound by the word "line": a line number of their shape
        # that is neither (one the books do not hold) misstates the duplicate's reason
        "line_roles": note_roles(
            *((str(i), ("line", "lines")) for i in (deposit_line, duplicate_line) if i)
        ),
        # every text's dates, accounts, invoice number and bank lines in their roles: the
        # fee's date and accounts, the deposit's date and invoice, the task's lines (a fee
        # memo `on 2026-05-02, charged to 6600` or a payment reference naming another
        # invoice misstates the record; round 11's M11b)
        "text_roles": note_roles(
            (fee_day, (*POSTING_DATE_CUES, "fee", "charged", "dated")),
            (dep_day, PAYMENT_DATE_CUES),
            (
                vendor_pay["payment_date"] if vendor_pay else "",
                ("paid", "payment", "vendor", "dated"),
            ),
            ("6700", (*DEBIT_ACCOUNT_CUES, "bank fee*", "fee*", "bank charges")),
            ("1000", ("cr", "credit*", "bank account", "cash", "from")),
            *id_roles(inv["number"] if inv else None),
            *((f"line {i}", ("line", "lines", "bank line")) for i in lines),
        ),
        "payment_id": payment_id,
        "new_payments": 1 if inv else 0,
        "vendor_line_id": vendor_line,
        "vendor_entry_id": vendor_pay["journal_entry_id"] if vendor_pay else None,
        "vendor_payment_cents": vendor_pay["amount_cents"] if vendor_pay else None,
        "movements": movements(moves),
    }
    if inv is not None:
        body += f" (The deposit of {money(inv['total_cents'])} is {inv['customer']}'s.)"
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


SWAPPED = (
    "(SELECT status FROM bank_lines WHERE id = :deposit_line_id) = 'ignored' AND "
    "(SELECT status FROM bank_lines WHERE id = :duplicate_line_id) = 'matched'"
)
"""Whether the agent recorded the payment on the second of the two identical deposit lines
and ignored the first (hard, expert): the lines are the same in every field the agent sees
(date, description, amount, reference, status; only their ids differ) and policy 5.1 does
not say which one is "the" duplicate, so either choice is right. The checks read the two
lines' roles through `AS_REFERENCE` (a role-swapped run reads as the reference's roles)."""

AS_REFERENCE = (
    f"CASE WHEN {SWAPPED} AND id = :deposit_line_id THEN :duplicate_line_id "
    f"WHEN {SWAPPED} AND id = :duplicate_line_id THEN :deposit_line_id ELSE id END"
)
"""A bank line's id as the reference's roles name it (`SWAPPED`)."""

BANK_LINES_SQL = (
    f"SELECT {AS_REFERENCE} AS id, bank_account_id, line_date, description, amount_cents, "
    f"reference, status, payment_id, {entry_key('bank_lines.journal_entry_id')} AS entry "
    "FROM bank_lines"
)
"""The bank feed as `nothing_else_changed` compares it (`same_rows`): every line's columns
but the free-text ``note`` and the clock's ``updated_at``, the deposit pair's ids by role,
and the entry each line is matched to by what it is (`entry_key`): the fee's entry and the
deposit's payment entry get their ids in the order the agent posts them."""

PAIR_IGNORED = (
    "SELECT i.note FROM bank_lines i WHERE i.status = 'ignored' "
    "AND i.id IN (:deposit_line_id, :duplicate_line_id)"
)
"""The reason given for the deposit pair's line marked ignored (both, when both are)."""

OTHER_LINES_SQL = (
    "SELECT id FROM bank_lines WHERE (status = 'unmatched' "
    "OR id IN (SELECT value FROM json_each(:line_states_json))) "
    "AND id NOT IN (COALESCE(:deposit_line_id, -1), COALESCE(:duplicate_line_id, -1))"
)
"""The bank lines a duplicate's reason could name but the one it repeats (and itself): the
task's other lines and every line still unmatched."""

TASK_LINES = "SELECT value FROM json_each(:line_states_json)"
"""The bank lines the task names (every band's fee line, the deposit pair, the vendor line)."""

LINE_STATES_SQL = (
    "SELECT 'line ' || id || ' left unmatched' FROM bank_lines WHERE id IN "
    f"({TASK_LINES}) AND status = 'unmatched' "
    "UNION ALL SELECT x FROM (SELECT mcpgym_line_misclaimed(t.body, b.id, b.status) AS x "
    f"FROM ({EPISODE_TEXT_SQL}) t, bank_lines b WHERE b.id IN ({TASK_LINES})) "
    "WHERE x IS NOT NULL "
    "UNION ALL SELECT x FROM (SELECT mcpgym_line_entry_misnamed(t.body, b.id, "
    f"b.journal_entry_id) AS x FROM ({EPISODE_TEXT_SQL}) t, bank_lines b "
    f"WHERE b.id IN ({TASK_LINES})) WHERE x IS NOT NULL "
    "UNION ALL SELECT x FROM (SELECT mcpgym_line_payment_misnamed(t.body, b.id, "
    f"b.payment_id) AS x FROM ({EPISODE_TEXT_SQL}) t, bank_lines b "
    f"WHERE b.id IN ({TASK_LINES})) WHERE x IS NOT NULL"
)
"""What `texts-state-line-states` finds (none expected): a line of the task left unmatched,
and each text's clauses saying a line of the task is in another state than the books hold
(`mcpgym_grading._line_claims`: ``Line 189 matched to the customer payment.`` of the ignored
duplicate, ``line 187 left unmatched`` of the matched fee, ``All lines matched; nothing
ignored.``). Read against the final state, so either deposit line of the identical pair may
be the recorded one. Round 17's R17: no reader read these texts' claims. Also each text's
sentences binding a line of the task to another journal entry than the one it is matched to
(`mcpgym_grading._line_entries`: a fee memo ``; line 154 matched to entry 344`` where 344 is
not the fee's entry; round 17's L17b), and to another payment than its ``payment_id``
(``; line 155 matched to payment 17``; round 20's F2)."""


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(),
        SqlCheck(
            name="lines-reconciled",
            description="every line named is matched, or ignored when it is a duplicate (5.1)",
            sql=f"SELECT {AS_REFERENCE}, status FROM bank_lines WHERE id IN "
            "(SELECT value FROM json_each(:line_states_json))",
            expected=Param("line_states"),
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="fee-posted-and-matched",
            description="the fee line is matched to an entry on its date moving 6700 Bank Fees "
            "and 1000 Operating Bank by the fee in cents (5.2)",
            sql="SELECT e.entry_date, a.code, SUM(l.debit_cents) - SUM(l.credit_cents) "
            "FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
            "JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = "
            "(SELECT journal_entry_id FROM bank_lines WHERE id = :fee_line_id) "
            "GROUP BY e.entry_date, a.code",
            expected=Param("fee"),
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="deposit-recorded",
            description="the deposit line (either of the two identical ones) is matched to a "
            "payment from the customer applied in full to the invoice its reference names; "
            "one payment for the pair, not one for each line",
            sql="SELECT p.party_id, p.amount_cents, a.invoice_id, a.amount_cents FROM bank_lines b "
            "JOIN payments p ON p.id = b.payment_id "
            "LEFT JOIN payment_allocations a ON a.payment_id = p.id "
            "WHERE b.id IN (:deposit_line_id, :duplicate_line_id)",
            expected=Param("deposit"),
            weight=2,
            required=True,
            bands=("medium", "hard", "expert"),
        ),
        SqlCheck(
            name="no-double-payment",
            description="one payment per real deposit: none for the duplicate line or the "
            "vendor payment already in the books",
            sql="SELECT COUNT(*) FROM payments WHERE id >= :payment_id",
            expected=Param("new_payments"),
            weight=2,
            required=True,
            bands=("medium", "hard", "expert"),
        ),
        record_state(
            "bank_lines",
            "status = 'matched' AND journal_entry_id = :vendor_entry_id",
            name="vendor-payment-matched",
            description="the vendor payment's line is matched to the payment already recorded",
            key_param="vendor_line_id",
            bands=("expert",),
        ),
        SqlCheck(
            name="duplicate-reason-names-line",
            description="the ignored line's reason names the line it repeats (the other line "
            "of the identical pair, whichever was recorded), as a whole number",
            sql="SELECT COUNT(*) FROM bank_lines i JOIN bank_lines m "
            "ON m.id IN (:deposit_line_id, :duplicate_line_id) AND m.id <> i.id "
            "AND m.status = 'matched' WHERE i.id IN (:deposit_line_id, :duplicate_line_id) "
            "AND i.status = 'ignored' AND (' ' || mcpgym_fold(i.note) || ' ') "
            "GLOB ('*[^0-9]' || m.id || '[^0-9]*')",
            expected=1,
            weight=0.5,
            bands=("hard", "expert"),
        ),
        AnswerMatch(
            name="duplicate-reason-names-no-other-line",
            description="the duplicate's reason names no line the agent was shown but the "
            "pair (the task's other lines, the feed's unmatched ones), in any form: a reason "
            "listing every line names none",
            source="sql",
            sql=PAIR_IGNORED,
            forbidden_sql=OTHER_LINES_SQL,
            weight=0.5,
            required=True,
            bands=("hard", "expert"),
        ),
        notes_values_in_role(
            Param("line_roles"),
            sql=PAIR_IGNORED,
            name="duplicate-reason-lines-in-role",
            description="each line number the duplicate's reason states beside the word "
            "'line' is one of the identical pair (a line the books do not hold misstates it)",
            bands=("hard", "expert"),
        ),
        notes_values_in_role(
            Param("text_roles"),
            name="texts-values-in-role",
            description="each date, account, invoice number and bank line a note, memo, "
            "payment reference or reason written in the episode states is the record's own, "
            "beside the words of its role (a fee memo `on 2026-05-02, charged to 6600`; "
            "policy 10.1)",
        ),
        SqlCheck(
            name="texts-state-line-states",
            description="no line of the task is left unmatched, and no note, memo, reference "
            "or reason says a line is in another state than the books hold (matched, ignored "
            "or unmatched: `line 189 matched` of the ignored duplicate, `all lines matched`; "
            "policy 10.1; round 17's R17) or matched to another entry than its own (`line "
            "154 matched to entry 344`; round 17's L17b)",
            sql=LINE_STATES_SQL,
            expected=[],
            weight=1,
            required=True,
        ),
        books_moved(),
        tax_id_not_copied(),
        texts_state_posting_months(),
        *texts_claim_only({b: () for b in ("easy", "medium", "hard", "expert")}),
        nothing_else_changed(
            "bank_lines",
            ignore_columns={"payments": ("reference",), "payment_allocations": ("id",)},
            same_rows={"bank_lines": BANK_LINES_SQL},
            description="every other table equals the reference end state (the payments and "
            "invoices included; the bank lines as `BANK_LINES_SQL`, either identical deposit "
            "line recorded; the journal as `JOURNAL_SQL`): nothing else was changed",
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Reconcile bank statement lines: a fee (medium: a deposit for an invoice; "
        "hard: a duplicate feed line; expert: a payment already in the books).",
        bands=BANDS,
        generator=with_text_amounts(generate),
        generator_version="2",
        rubric=RUBRIC,
    )
)
