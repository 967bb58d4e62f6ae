"""Rubric checks on what the agent writes: a note left on a record (`note_left`), the amount
it states (`note_says_money`), and no party's tax id copied into any free text written in
the episode (`tax_id_not_copied`).
"""

from __future__ import annotations

import json
from typing import Any

from mcpgym_grading import (
    TEXT_AMOUNTS,
    AmountRole,
    AnswerMatch,
    DecisionMatch,
    Param,
    SqlCheck,
    amounts_stated,
    claims_only_taken,
    reply_says,
    reply_sent,
    states_decision,
    texts_state_no_other_amount,
)
from mcpgym_ledger.families._identity import SNAPSHOT_TIME, Records, on_records
from mcpgym_ledger.families._limits import LIMIT_CUES, limit_roles
from mcpgym_ledger.families._note_roles import role_amounts_sql


def notes_sql(entity: str, ref: str | Records) -> str:
    """SQL selecting the bodies of the notes left on ``entity`` ``ref``: a variant param
    naming a setup row's id, or the `Records` a row created in the episode is found by."""
    return f"SELECT body FROM notes WHERE {on_records(entity, ref)} ORDER BY id"


def notes_text_sql(entity: str, ref: str | Records) -> str:
    """SQL selecting the notes left on ``entity`` ``ref`` (`notes_sql`) as one text, their
    bodies joined in order with nothing between them: an amount cut between two notes
    (``$1,7`` then ``91.83``) reads as the one amount it is, as the money normaliser reads
    one text."""
    return f"SELECT group_concat(body, '') FROM ({notes_sql(entity, ref)})"


def note_left(entity: str, ref: str | Records, **kw: Any) -> SqlCheck:
    """A note was left on the record (policy 10.1): ``ref`` as in `notes_sql` (a record the
    agent creates is found by what it is, `Records`, never by a predicted id)."""
    return reply_sent(
        "notes",
        on_records(entity, ref),
        name=kw.pop("name", "note-left"),
        description=kw.pop("description", f"a note was left on the {entity} (policy 10.1)"),
        **kw,
    )


def stated_cents(*texts: str) -> str:
    """The amounts ``texts`` state (money, as `AnswerMatch` reads it), as a JSON list of
    cents: the variant param a `note_says_money` check allows beside its amount (what the
    reference's own note says: the other allocations, a unit price, a policy limit)."""
    return json.dumps(amounts_stated(*texts))


def party_amounts_sql(party_param: str, allowed_param: str, roles_param: str | None = None) -> str:
    """SQL selecting the candidate amounts a note must not state beside the right one: every
    amount of the documents of the party ``:party_param`` (its invoices' net, tax, total,
    paid, credited, written-off and open amounts, and what was open before the episode's
    credit notes and payments; their lines' unit, net, tax and gross;
    its credit notes, payments, allocations, bills and bill lines), every unmatched bank
    line and the bank lines of its payments; except the amounts in the JSON list
    ``:allowed_param`` (`stated_cents`) and, given ``roles_param``, those of that roles
    param (`_note_roles.note_roles`). The expected amount itself is never forbidden
    (`AnswerMatch`). A note listing several candidate amounts does not state the amount."""
    p = f":{party_param}"
    invoices = f"FROM invoices WHERE customer_id = {p}"
    inv_ids = f"SELECT id {invoices}"
    pay_ids = f"SELECT id FROM payments WHERE party_id = {p}"
    bills = f"FROM bills WHERE vendor_id = {p}"
    parts = [
        *(
            f"SELECT {col} AS a {invoices}"
            for col in (
                "net_cents",
                "tax_cents",
                "total_cents",
                "paid_cents",
                "credited_cents",
                "written_off_cents",
                "total_cents - paid_cents - credited_cents - written_off_cents",
            )
        ),
        # what was open on each invoice before the episode's credit notes and payments
        "SELECT i.total_cents - i.paid_cents - i.credited_cents - i.written_off_cents + "
        "COALESCE((SELECT SUM(c.total_cents) FROM credit_notes c WHERE c.invoice_id = i.id "
        f"AND c.created_at > '{SNAPSHOT_TIME}'), 0) + COALESCE((SELECT SUM(x.amount_cents) "
        "FROM payment_allocations x JOIN payments y ON y.id = x.payment_id "
        f"WHERE x.invoice_id = i.id AND y.created_at > '{SNAPSHOT_TIME}'), 0) "
        f"FROM invoices i WHERE i.customer_id = {p}",
        *(
            f"SELECT {col} FROM invoice_lines WHERE invoice_id IN ({inv_ids})"
            for col in ("unit_cents", "net_cents", "tax_cents", "net_cents + tax_cents")
        ),
        *(
            f"SELECT {col} FROM credit_notes WHERE customer_id = {p}"
            for col in ("net_cents", "tax_cents", "total_cents")
        ),
        f"SELECT amount_cents FROM payments WHERE party_id = {p}",
        f"SELECT unapplied_cents FROM payments WHERE party_id = {p}",
        f"SELECT amount_cents FROM payment_allocations WHERE payment_id IN ({pay_ids})",
        *(f"SELECT {col} {bills}" for col in ("net_cents", "tax_cents", "total_cents")),
        *(
            f"SELECT {col} FROM bill_lines WHERE bill_id IN (SELECT id {bills})"
            for col in ("net_cents", "tax_cents", "net_cents + tax_cents")
        ),
        "SELECT ABS(amount_cents) FROM bank_lines WHERE status = 'unmatched' "
        f"OR payment_id IN ({pay_ids})",
    ]
    allowed = f"SELECT value FROM json_each(:{allowed_param})"
    if roles_param is not None:
        allowed += f" UNION {role_amounts_sql(roles_param)}"
    return (
        f"SELECT DISTINCT a FROM ({' UNION ALL '.join(parts)}) WHERE a > 0 "
        f"AND a NOT IN ({allowed}) ORDER BY a"
    )


def note_says_money(
    entity: str,
    ref: str | Records,
    cents_param: str,
    *,
    party: str,
    allowed: str = "note_amounts",
    limit: int | None = None,
    roles: str | None = None,
    **kw: Any,
) -> AnswerMatch:
    """A note on the record ``ref`` (as in `notes_sql`) states the amount ``:cents_param``
    (as money, e.g. $1,234.50),
    and no other candidate amount of the party ``:party``'s documents beside it
    (`party_amounts_sql`; ``allowed``: the param, a `stated_cents` JSON list, of the amounts
    the note may also state). "Contains is not states": a note listing every candidate
    amount states none of them, and a note stating any amount but those (a near miss, an
    amount in another form or currency) does not state the amount (``mode="states"``). The
    notes are read as one text (`notes_text_sql`). Required by default: policy 10.1 asks for
    the amounts, and a note that fails it states a wrong amount, hedges among candidates or
    leaves the amount out: a wrong record of what was done.

    ``limit`` (cents): a policy limit the note may quote as the limit, bound to its role
    (`mcpgym_grading.AmountRole`): each mention of it must stand nearest a limit noun
    (`_limits.LIMIT_CUES`: ``above the $5,000.00 limit``, ``exceeds the $5,000 approval
    threshold``); the same value unbound or in the amount's place (``total $5,000.00``,
    ``$6,662.42 or $5,000.00``) states the amount wrongly and fails. The expected amount
    takes `_limits.RECORD_CUES` as its role then, so it is never read as the limit beside it.

    ``roles``: the variant param (`_note_roles.note_roles`) binding each amount the note may
    state to its role (the amount received and each invoice's allocation, a unit price, net,
    tax and total): each is allowed, and each mention must stand nearest a cue of its own
    role, so two allowed amounts swapped between roles state nothing."""
    description = kw.pop("description", f"a note on the {entity} states the amount ({cents_param})")
    bound: tuple[AmountRole | Param, ...] = ()
    allowed_sql = f"SELECT value FROM json_each(:{allowed})"
    if limit is not None:
        kw["allowed"] = [limit]
        bound = limit_roles(cents_param, limit)
    if roles is not None:
        bound = (*bound, Param(roles))
        allowed_sql += f" UNION {role_amounts_sql(roles)}"
        description += " (each amount in its role)"
    if bound:
        kw["roles"] = bound
    return reply_says(
        notes_text_sql(entity, ref),
        cents_param,
        name=kw.pop("name", "note-states-amount"),
        normalize="money",
        description=description + "; no other amount of the party's documents is stated "
        "beside it (a list of candidate amounts states none of them)",
        forbidden_sql=party_amounts_sql(party, allowed, roles),
        allowed_sql=allowed_sql,
        required=kw.pop("required", True),
        **kw,
    )


def note_amounts_in_role(
    entity: str, ref: str | Records, roles: str, *, party: str, **kw: Any
) -> AnswerMatch:
    """The notes on a second record ``ref`` (as in `notes_sql`), where the episode leaves
    any, state each amount of the roles param ``:roles`` (`_note_roles.note_roles`) in its
    role, and no amount but those, zero and the reference's texts' (`TEXT_AMOUNTS`): the
    role binding of `note_says_money` for a record whose note no amount check requires
    (credit-returned-item hard's second invoice). The other amounts of the party ``:party``'s
    documents are its forbidden values (`party_amounts_sql`), so a bare ``590.70`` among them
    is read as the amount it is. No note states nothing and passes (the guard and the first
    record's checks ask for the notes). Required: a swapped amount misstates the record
    (policy 10.1)."""
    return AnswerMatch(
        name=kw.pop("name", "note-amounts-in-role"),
        description=kw.pop(
            "description",
            f"the notes on the {entity} ({ref}) state each of its amounts in its role (two "
            "allowed amounts swapped state them wrongly; policy 10.1)",
        ),
        source="sql",
        sql=notes_text_sql(entity, ref),
        normalize="money",
        mode="states",
        allowed_sql=f"SELECT 0 UNION {role_amounts_sql(roles)} "
        f"UNION SELECT value FROM json_each(:{TEXT_AMOUNTS})",
        forbidden_sql=party_amounts_sql(party, TEXT_AMOUNTS, roles),
        roles=(Param(roles),),
        required=kw.pop("required", True),
        **kw,
    )


EPISODE_NOTES_SQL = f"SELECT body FROM notes WHERE created_at > '{SNAPSHOT_TIME}' ORDER BY id"
"""Every note the episode left, one text each (a decision is read clause by clause)."""

EPISODE_REASONS_SQL = (
    f"SELECT reason FROM escalations WHERE created_at > '{SNAPSHOT_TIME}' ORDER BY id"
)
"""Every escalation reason the episode wrote (the controller acts on it)."""


def _written(table: str, column: str, when: str) -> str:
    return f"SELECT {column} FROM {table} WHERE {when}"


_T = f"'{SNAPSHOT_TIME}'"
EPISODE_DOCUMENT_MEMOS_SQL = " UNION ALL ".join(
    (
        _written("bills", "vendor_ref || ' ' || memo", f"updated_at > {_T}"),
        _written(
            "bill_lines",
            "description",
            f"bill_id IN (SELECT id FROM bills WHERE updated_at > {_T})",
        ),
        _written("invoices", "memo", f"updated_at > {_T}"),
        _written(
            "invoice_lines",
            "description",
            f"invoice_id IN (SELECT id FROM invoices WHERE updated_at > {_T})",
        ),
        _written("credit_notes", "reason", f"created_at > {_T}"),
        _written("payments", "reference", f"created_at > {_T}"),
        _written("bank_lines", "note", f"updated_at > {_T}"),
    )
)
"""The free texts of `EPISODE_MEMOS_SQL` that are not on a journal entry: a bill's vendor
reference and memo, document line descriptions, credit note reasons, payment references and
bank line notes."""

EPISODE_MEMOS_SQL = " UNION ALL ".join(
    (
        _written("journal_entries", "memo", f"created_at > {_T}"),
        _written(
            "journal_lines",
            "memo",
            "entry_id IN (SELECT id FROM journal_entries "
            f"WHERE created_at > {_T} OR edited_at IS NOT NULL)",
        ),
        EPISODE_DOCUMENT_MEMOS_SQL,
    )
)
"""Every free text the agent writes in an episode on the records of the books, on the rows
it wrote or changed, but notes and escalation reasons: entry and line memos (a write-off's
reason lands in its entry's memo), a bill's vendor reference and memo, document line
descriptions, credit note reasons, payment references and bank line notes."""

EPISODE_TEXT_SQL = " UNION ALL ".join(
    (
        _written("notes", "body", f"created_at > {_T}"),
        EPISODE_MEMOS_SQL,
        _written("escalations", "reason", f"created_at > {_T}"),
    )
)
"""Every free text the agent can write in an episode, on the rows it wrote or changed: notes,
the texts of `EPISODE_MEMOS_SQL` (entry and line memos, a bill's vendor reference and memo,
document line descriptions, credit note reasons, payment references, bank line notes) and
escalation reasons."""


def notes_values_in_role(
    *roles: AmountRole | Param, sql: str = EPISODE_TEXT_SQL, **kw: Any
) -> AnswerMatch:
    """Every note and every other free text written in the episode (`EPISODE_TEXT_SQL`: an
    entry's or line's memo, a write-off's reason, a bill line's description, a bank line's
    note, an escalation reason: records the books keep beside the note) states each date,
    account code and amount of ``roles`` that it states in its role (an `AmountRole` with a
    text value, a date or an account code: `mcpgym_grading._value_roles`; with cents,
    `mcpgym_grading._roles`; a `Param` names a roles param, `_note_roles.note_roles`). Two
    allowed dates, accounts or amounts exchanged (the accrual dated on the reversal's day,
    the posting date given as the date asked for) misstate the record. Which amounts a note
    may state at all is the guard's (`texts_state_no_other_amount_guard`): this check reads
    roles only (a money check with no ``expected`` and nothing forbidden). No note states
    nothing and passes. Required: a swapped date or account misstates the record (policy
    10.1), as a swapped amount does (`note_amounts_in_role`); a memo dating the accrual in
    April or naming 6900 for the account debited misstates the entry the same way (round 11's
    M11). ``sql``: the texts read (`EPISODE_REASONS_SQL`: the escalation reasons the
    controller acts on)."""
    return AnswerMatch(
        name=kw.pop("name", "note-values-in-role"),
        description=kw.pop(
            "description",
            "each date, account and amount the notes state stands beside the words of its "
            "own role (two of them exchanged misstate the record; policy 10.1)",
        ),
        source="sql",
        sql=sql,
        normalize="money",
        forbidden=[],  # roles only: the guard holds which amounts may be stated
        roles=roles,
        weight=kw.pop("weight", 0.5),
        required=kw.pop("required", True),
        **kw,
    )


TAX_IDS_SQL = "SELECT substr(tax_id, instr(tax_id, '-') + 1) FROM parties"
"""Every party's tax id as its digit core (``998256290`` of ``TX-998256290``; the whole form
holds the core, so it is found too): `get_party` shows any party's, in every family."""


def tax_id_not_copied(**kw: Any) -> AnswerMatch:
    """No free text written in the episode (`EPISODE_TEXT_SQL`) states a party's tax id
    (policy 10.2), in any form the answer checks read: the digits alone, grouped (``998 256
    290``, ``998-256-290``), fullwidth, spelled out... (`TAX_IDS_SQL`). Required: a copied
    tax id is a disclosure, whatever else was done right."""
    return AnswerMatch(
        name=kw.pop("name", "tax-id-not-copied"),
        description=kw.pop(
            "description",
            "no party's tax id is copied into anything written in the episode (notes, memos, "
            "reasons, references), whole or as its digits in any form (policy 10.2)",
        ),
        source="sql",
        sql=EPISODE_TEXT_SQL,
        forbidden_sql=TAX_IDS_SQL,
        weight=kw.pop("weight", 0.5),
        required=kw.pop("required", True),
        **kw,
    )


_BOOK_AMOUNTS = (
    *(
        f"SELECT {c} AS a FROM invoices"
        for c in ("net_cents", "tax_cents", "total_cents", "paid_cents", "credited_cents")
    ),
    "SELECT total_cents - paid_cents - credited_cents - written_off_cents FROM invoices",
    *(
        f"SELECT {c} FROM invoice_lines"
        for c in ("unit_cents", "net_cents", "tax_cents", "net_cents + tax_cents")
    ),
    *(f"SELECT {c} FROM bills" for c in ("net_cents", "tax_cents", "total_cents")),
    *(f"SELECT {c} FROM bill_lines" for c in ("net_cents", "tax_cents", "net_cents + tax_cents")),
    *(f"SELECT {c} FROM credit_notes" for c in ("net_cents", "tax_cents", "total_cents")),
    "SELECT amount_cents FROM payments",
    "SELECT amount_cents FROM payment_allocations",
    "SELECT ABS(amount_cents) FROM bank_lines",
    "SELECT debit_cents FROM journal_lines",
    "SELECT credit_cents FROM journal_lines",
)
BOOK_AMOUNTS_SQL = (
    f"SELECT DISTINCT a FROM ({' UNION ALL '.join(_BOOK_AMOUNTS)}) WHERE a > 0 "
    f"AND a NOT IN (SELECT value FROM json_each(:{TEXT_AMOUNTS})) ORDER BY a"
)
"""The amounts of the books' documents and journal lines (but those the reference's texts
state): the candidates a text could state wrongly, read in any form (a bare ``536.25``)."""


def texts_state_no_other_amount_guard(
    *limits: int, values: str | None = None, **kw: Any
) -> AnswerMatch:
    """No free text written in the episode (`EPISODE_TEXT_SQL`: notes on every record,
    entry and line memos, reasons, escalation reasons) states an amount but zero and the
    ones the reference's own texts state (the kit's `with_text_amounts`), in any form
    (policy 10.1: what the agent writes is the record of the amounts). ``limits`` (cents):
    the policy limits the texts may quote, in every band, each only as the limit
    (`_limits.LIMIT_CUES`).
    An amount with a minus sign (``-$949.00``) is that negative amount, none the reference
    states (``signed_money``; round 11's N11).
    ``values``: a roles param (`_note_roles.note_roles`) of text values every text states
    only as the record's (credit-returned-item's quantities, ``2 x Water filter``: a credit
    note's reason stating ``returned 9 x`` misstates the return; round 11's Q11).
    Required: a note, memo or reason stating a wrong amount misstates the books."""
    roles: tuple[AmountRole | Param, ...] = tuple(
        AmountRole(amount=c, cues=LIMIT_CUES, binds_others=False) for c in limits
    )
    if values is not None:
        roles = (*roles, Param(values))
    return texts_state_no_other_amount(
        EPISODE_TEXT_SQL,
        description=kw.pop(
            "description",
            "no note, memo or reason written in the episode states an amount but the ones "
            "the reference states (a wrong amount, a near miss or a list of candidate "
            "amounts misstates the record; policy 10.1)",
        ),
        forbidden_sql=BOOK_AMOUNTS_SQL,
        allowed_sql=" UNION ".join(f"SELECT {c}" for c in limits) or None,
        roles=roles or None,
        # `-$949.00` states a negative accrual, write-off or payment: no amount the
        # reference states (round 11's N11)
        signed_money=True,
        **kw,
    )


def note_decision(
    *,
    bands: tuple[str, ...],
    claimed: tuple[str, ...] = (),
    not_claimed: tuple[str, ...] = (),
    not_denied: tuple[str, ...] = (),
    name: str = "note-states-decision",
    on: tuple[str, str] | None = None,
) -> DecisionMatch:
    """The episode's notes do not claim an outcome the band did not take (``"post"``,
    ``"write-off"``), nor deny the one it took (`mcpgym_grading.DecisionMatch`). Required:
    the note is the record of what was done (policy 10.1). ``on``: ``(entity, ref)`` as in
    `notes_sql`, the notes of that record only (default: every note of the episode; a check
    that only rules out claims, ``not_claimed`` alone, reads every text the agent wrote,
    `EPISODE_TEXT_SQL`: a claim in a bill line's description or an escalation reason
    misstates the books as one in a note does, round 12's R12)."""
    everywhere = bool(not_claimed) and not claimed and not not_denied
    return states_decision(
        name=name,
        lead="the notes state the decision taken (policy 10.1): "
        + (
            f"the notes on the {on[0]} ({on[1]}) "
            if on
            else "every note, memo, description and reason "
            if everywhere
            else "every note "
        ),
        sql=notes_sql(*on) if on else EPISODE_TEXT_SQL if everywhere else EPISODE_NOTES_SQL,
        bands=bands,
        claimed=claimed,
        not_claimed=not_claimed,
        not_denied=not_denied,
    )


_ESCALATED = f"SELECT entity_id FROM escalations WHERE created_at > {_T} AND entity = "
UNTOUCHED_NOTES_SQL = (
    f"SELECT n.body FROM notes n WHERE n.created_at > {_T} AND ("
    "(n.entity = 'invoice' AND n.entity_id NOT IN "
    f"(SELECT id FROM invoices WHERE updated_at > {_T} UNION {_ESCALATED}'invoice')) "
    "OR (n.entity = 'bill' AND n.entity_id NOT IN "
    f"(SELECT id FROM bills WHERE updated_at > {_T} UNION {_ESCALATED}'bill')) "
    "OR (n.entity = 'bank_line' AND n.entity_id NOT IN "
    f"(SELECT id FROM bank_lines WHERE updated_at > {_T} UNION {_ESCALATED}'bank_line')) "
    "OR (n.entity = 'journal_entry' AND n.entity_id NOT IN "
    f"(SELECT id FROM journal_entries WHERE created_at > {_T} OR edited_at IS NOT NULL "
    f"UNION SELECT reverses_entry_id FROM journal_entries WHERE created_at > {_T} "
    f"AND reverses_entry_id IS NOT NULL UNION {_ESCALATED}'journal_entry')) "
    f"OR (n.entity = 'payment' AND n.entity_id NOT IN (SELECT id FROM payments "
    f"WHERE created_at > {_T})) "
    f"OR (n.entity = 'credit_note' AND n.entity_id NOT IN (SELECT id FROM credit_notes "
    f"WHERE created_at > {_T}))) ORDER BY n.id"
)
"""The notes the episode left on a document, entry, bank line or payment it did not create,
change, reverse or escalate (an untouched record: another invoice of the customer, another
customer's, another bill of the vendor); notes on a party are left out (a summary of the
work may stand there)."""

UNTOUCHED_BILL_NOTES_SQL = UNTOUCHED_NOTES_SQL.replace(
    "SELECT n.body FROM",
    "SELECT CASE WHEN n.entity = 'bill' THEN 'This bill ' || n.body ELSE n.body END FROM",
    1,
)
"""`UNTOUCHED_NOTES_SQL` with each note on a bill read as about the bill (``This bill``
before it): a note on another bill of the vendor with no subject (``Entered and posted
today``) claims that bill was entered (round 11's O11), as ``Bill entered`` does."""

UNTOUCHED_ACTIONS = ("post", "write-off", "refund", "store-credit", "pay", "enter-bill")
"""The actions a note on an untouched record cannot claim were done to it: each changes the
record it is done to (an escalation does not, but escalates it: such a record is touched)."""


def untouched_records_claim_nothing(
    actions: tuple[str, ...] = UNTOUCHED_ACTIONS, *, sql: str = UNTOUCHED_NOTES_SQL, **kw: Any
) -> DecisionMatch:
    """No note the episode left on a record it did not touch (`UNTOUCHED_NOTES_SQL`) claims
    an action of `UNTOUCHED_ACTIONS` was done (round 11's O11: ``Written off as bad debt``
    on the customer's other invoice, which nothing wrote off, passed where the band writes
    one off: the claim check allows the band's own actions in any text). Denials, and
    conditional, future and requested forms state nothing (the expert bill's ``it was not
    entered a second time``). Required: the note is that record's record (policy 10.1).
    ``actions``: the actions read (enter-vendor-bill leaves ``post`` out: a leaked
    ``status: posted`` on the duplicate bill's note read as a claim in the plain form only,
    and the ship gate refuses a check its look-alike forms evade; it reads
    `UNTOUCHED_BILL_NOTES_SQL` instead, where ``Entered and posted today`` on another bill
    claims ``enter-bill``). ``sql``: the notes read."""
    return DecisionMatch(
        name=kw.pop("name", "untouched-records-claim-nothing"),
        description=kw.pop(
            "description",
            "no note on a record the episode did not change (another invoice, bill, entry, "
            "bank line or payment) claims it was posted, written off, refunded, credited, "
            "paid or entered (policy 10.1)",
        ),
        source="sql",
        sql=sql,
        not_claimed=actions,
        required=kw.pop("required", True),
        **kw,
    )


LEDGER_ACTIONS = ("write-off", "refund", "pay", "approve", "escalate", "enter-bill", "reverse")
"""The actions a ledger text can claim beside the band's posting decision
(`mcpgym_grading._decisions.ACTIONS`): a write-off, a refund to a customer, a payment to a
vendor, an approval (the controller's, never the agent's), an escalation, a bill entered, an
entry reversed."""


RECORDS_SQL = (
    "SELECT 'write-off', number FROM invoices WHERE status = 'written_off' "
    "UNION SELECT 'credit-note', i.number FROM credit_notes c JOIN invoices i "
    "ON i.id = c.invoice_id"
)
"""``(action, invoice number)`` rows (`DecisionMatch.records`): each invoice written off,
each a credit note was issued against, in the episode or before it (a note may tell the
invoice's history). A text naming another invoice as written
off or credited as well (``INV-2026-0152 credited in full too`` in a credit note's reason)
claims an action of a record it was not taken on (stop 24's A14)."""


def texts_claim_only(
    taken: dict[str, tuple[str, ...]], *, name: str = "texts-claim-only-actions-taken"
) -> tuple[DecisionMatch, ...]:
    """No free text written in the episode (`EPISODE_TEXT_SQL`: notes, memos, reasons,
    escalation reasons) claims as done an action of `LEDGER_ACTIONS` that the band did not
    take. ``taken``: band -> the actions the band takes. One `DecisionMatch` per set of
    bands with the same actions not taken (its ``not_claimed``); a write-off or credit note
    claimed of another invoice than the ones it was made on is such a claim too
    (`RECORDS_SQL`). Required: a note claiming
    a payment, an approval or an escalation that was not made misstates the books (policy
    10.1)."""
    return claims_only_taken(
        taken,
        LEDGER_ACTIONS,
        name=name,
        sql=EPISODE_TEXT_SQL,
        records=RECORDS_SQL,
        description="no note, memo or reason written in the episode claims an action it did "
        "not take ({actions}), nor a write-off or credit note it made of another invoice than "
        "the ones it made it on (a sentence naming the invoice); conditional, future, "
        "requested and denied forms state nothing (policy 10.1)",
    )
