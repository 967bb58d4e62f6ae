"""Family `correct-misposted-entry`: a card payment was coded to the wrong expense account.

Policy 6.1: never edit a posted entry; reverse it and post the right one, both dated today
(6.2), never in a closed period (2.1).

Bands:
    easy: the request names the entry and the right account code.
    medium: the request describes the payment (vendor, amount, what it was for) and says the
        account is wrong; find the entry and take the right account from policy 3.2.
    hard: an entry of a closed period (April) with two expense lines, one of them wrong:
        reverse the whole entry today and post it again complete, the wrong line corrected.
    expert: a correction left half done: the entry was reversed and re-posted, but to another
        wrong account; reverse the wrong re-post (not the original again) and post it right.

The same work (the journal, `JOURNAL_SQL`): the reversal of the wrong entry (with the
reversal tool: `wrong-entry-reversed`) and the corrected lines, both dated today; the
corrected lines may be posted as one entry or several. No other entry of the books is
reversed, and nothing is posted and taken back.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from mcpgym_grading import Param, Rubric, SqlCheck, with_text_amounts
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import BANDS, TODAY, VOLATILE_COLUMNS, instruction, money
from mcpgym_ledger.families._identity import SNAPSHOT_TIME
from mcpgym_ledger.families._note_roles import (
    ENTRY_DATE_CUES,
    POSTING_DATE_CUES,
    REVERSAL_DATE_CUES,
    RIGHT_ACCOUNT_CUES,
    WRONG_ACCOUNT_CUES,
    note_roles,
)
from mcpgym_ledger.families._notes import (
    EPISODE_TEXT_SQL,
    note_decision,
    note_left,
    notes_values_in_role,
    tax_id_not_copied,
    texts_claim_only,
    texts_state_no_other_amount_guard,
    untouched_records_claim_nothing,
)
from mcpgym_ledger.families._posting_months import texts_state_posting_months
from mcpgym_server import Generation, Scenario, TaskFamily, VariantSpec, reference_call

NAME = "correct-misposted-entry"

CHARGES = (
    # vendor, what, right account, wrong account
    ("Beacon Courier", "same-day courier charges", "6300", "6200"),
    ("FixRight Maintenance", "forklift repair", "6600", "6000"),
    ("Cloudshelf Software", "software add-on licence", "6500", "6400"),
    ("Paperworks Office Supply", "printer toner", "6200", "6300"),
    ("Coastal Power & Light", "electricity top-up", "6100", "6600"),
    ("Lakeside Inn", "hotel for the trade show", "6900", "6100"),
    ("Ledgerline CPAs", "tax advice call", "6400", "6500"),
)
ACCOUNT_NAMES = {
    "6000": "Rent",
    "6100": "Utilities",
    "6200": "Office Supplies",
    "6300": "Freight and Delivery",
    "6400": "Professional Fees",
    "6500": "Software Subscriptions",
    "6600": "Repairs and Maintenance",
    "6900": "Travel",
}


def _cents(g: Generation) -> int:
    return g.rng.randrange(40, 1400) * 100 + g.rng.choice((0, 15, 40, 80, 95))


class _Books:
    """Setup rows for entries of the snapshot's past (created before the snapshot time)."""

    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.accounts = {r["code"]: r["id"] for r in sc.rows("SELECT id, code FROM accounts")}

    def entry(
        self, day: date, memo: str, lines: list[tuple[str, int, int]], reverses: int | None = None
    ) -> int:
        entry_id = self.sc.insert(
            "journal_entries",
            {
                "entry_date": day.isoformat(),
                "period_id": day.month,
                "memo": memo,
                "source": "reversal" if reverses else "manual",
                "source_id": reverses,
                "reverses_entry_id": reverses,
                "created_at": f"{day.isoformat()}T15:20:00Z",
                "created_by": "marco.ferri",
            },
        )
        for code, dr, cr in lines:
            self.sc.insert(
                "journal_lines",
                {
                    "entry_id": entry_id,
                    "account_id": self.accounts[code],
                    "debit_cents": dr,
                    "credit_cents": cr,
                    "memo": "",
                },
            )
        return entry_id

    def bank_line(self, day: date, text: str, cents: int, entry_id: int) -> int:
        return self.sc.insert(
            "bank_lines",
            {
                "bank_account_id": 1,
                "line_date": day.isoformat(),
                "description": text,
                "amount_cents": cents,
                "reference": f"CARD {self.sc.rng.randrange(1000, 9999)}",
                "status": "matched",
                "journal_entry_id": entry_id,
                "updated_at": f"{day.isoformat()}T18:00:00Z",
            },
        )


REVERSED_ENTRY_CUES = ("reversal of", "reverses", "reversing", "reversed", "wrong", "correct*")
"""The entry the episode reverses, in a memo."""
ORIGINAL_ENTRY_CUES = ("original", "re-post of", "repost of", "first")
"""Expert: the original entry, reversed before the episode."""
EARLIER_REVERSAL_CUES = ("earlier reversal", "reversed by", "previous reversal")
"""Expert: the earlier reversal of the original entry."""
POSTED_MEMOS_SQL = (
    f"SELECT memo FROM journal_entries WHERE created_at > '{SNAPSHOT_TIME}' ORDER BY id"
)
"""The memos of the entries the episode posted (the reversal's and the correction's)."""


def generate(g: Generation) -> VariantSpec:
    """Generate a `correct-misposted-entry` variant for ``(g.seed, g.band)`` (see above).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    books = _Books(sc)
    vendor, what, right, wrong = CHARGES[rng.randrange(len(CHARGES))]
    amount = _cents(g)
    if band == "hard":
        day = date(2026, 4, rng.randint(6, 28))
        others = [c for c in CHARGES if c[2] not in (right, wrong)]
        o_vendor, o_what, o_right, _o_wrong = others[rng.randrange(len(others))]
        o_amount = _cents(g)
        total = amount + o_amount
        memo = f"Card payments: {o_vendor} ({o_what}); {vendor} ({what})"
        orig = [(o_right, o_amount, 0), (wrong, amount, 0), ("1000", 0, total)]
        fixed = [(o_right, o_amount, 0), (right, amount, 0), ("1000", 0, total)]
    else:
        day = date(2026, 5, rng.randint(4, 28))
        total = amount
        memo = f"Card payment: {vendor} ({what})"
        orig = [(wrong, amount, 0), ("1000", 0, amount)]
        fixed = [(right, amount, 0), ("1000", 0, amount)]
    entry_id = books.entry(day, memo, orig)
    books.bank_line(day, f"CARD {vendor.upper()[:24]}", -total, entry_id)
    target = entry_id
    earlier = None
    if band == "expert":
        fix_day = date(2026, 6, rng.randint(1, 10))
        earlier = books.entry(
            fix_day,
            f"Reversal of entry {entry_id}",
            [(c, cr, dr) for c, dr, cr in orig],
            reverses=entry_id,
        )
        third = [c for c in ACCOUNT_NAMES if c not in (right, wrong)][rng.randrange(6)]
        redo = [(third, amount, 0), ("1000", 0, amount)]
        target = books.entry(fix_day, f"Corrected: {memo}", redo)
    else:
        redo = orig
    rname, wname = ACCOUNT_NAMES[right], ACCOUNT_NAMES[wrong]
    if band == "easy":
        body = (
            f"Journal entry {entry_id} ({memo}, {money(amount)}) was coded to {wrong} {wname}. "
            f"It should have gone to {right} {rname}. Correct it."
        )
    elif band == "medium":
        body = (
            f"The {money(amount)} card payment to {vendor} on {day.isoformat()} for {what} "
            f"was coded to {wname}, which is the wrong account for it. Correct the books."
        )
    elif band == "hard":
        body = (
            f"In journal entry {entry_id} ({day.isoformat()}), the {money(amount)} line for "
            f"{vendor}'s {what} was coded to {wname}; the other line is right. Correct it."
        )
    else:
        body = (
            f"The {money(amount)} card payment to {vendor} in May ({what}) still does not "
            f"show under the right expense account. Marco started a correction on it before "
            "he went on leave; finish the job."
        )

    reference = []
    if band in ("medium", "expert"):
        reference.append(reference_call("find_journal_entries", amount_cents=amount))
    reference.append(reference_call("get_journal_entry", entry_id=target))
    reference.append(
        reference_call(
            "reverse_journal_entry",
            entry_id=target,
            reversal_date=TODAY,
            memo=f"Reversal of entry {target}: {what} coded to the wrong account",
        )
    )
    reference.append(
        reference_call(
            "post_journal_entry",
            entry_date=TODAY,
            memo=f"Corrected: {memo}",
            lines=[
                {"account_code": c, "debit_cents": dr, "credit_cents": cr} for c, dr, cr in fixed
            ],
        )
    )
    reference.append(
        reference_call(
            "add_note",
            entity="journal_entry",
            entity_id=target,
            body=f"Reversed on {TODAY} and posted again with the {money(amount)} for {what} "
            f"on {right} {rname} (policy 6.1: corrected by reversal, not edited).",
        )
    )
    params: dict[str, Any] = {
        "entry_id": entry_id,
        "wrong_entry_id": target,
        "today": TODAY,
        "period": "2026-06",
        "amount_cents": amount,
        "repost": movements(fixed),
        "movements": movements([(c, cr, dr) for c, dr, cr in redo], fixed),
        # the dates and accounts a note states are the record's own, each in its role
        "note_roles": note_roles(
            (TODAY, (*REVERSAL_DATE_CUES, *POSTING_DATE_CUES)),
            (day.isoformat(), ENTRY_DATE_CUES),
            (right, RIGHT_ACCOUNT_CUES),
            *((c, WRONG_ACCOUNT_CUES) for c, _, _ in redo if c not in (right, "1000")),
            *((c, ("other line", "other")) for c, _, _ in fixed if c not in (right, "1000")),
            ("1000", ("cash", "bank", "card")),
        ),
        # the entry numbers the episode's memos state (the reversal's "Reversal of entry N"):
        # the entry reversed, and in expert the original and its earlier reversal, each in
        # its role (another number sends a reader of the books to another entry)
        "memo_roles": note_roles(
            (str(target), REVERSED_ENTRY_CUES),
            *(
                ((str(entry_id), ORIGINAL_ENTRY_CUES), (str(earlier), EARLIER_REVERSAL_CUES))
                if earlier is not None
                else ()
            ),
        ),
    }
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


EDIT_CLAIMED_SQL = (
    "SELECT 'entry ' || :wrong_entry_id || ' not reversed' WHERE NOT EXISTS (SELECT 1 FROM "
    "journal_entries WHERE reverses_entry_id = :wrong_entry_id "
    f"AND created_at > '{SNAPSHOT_TIME}') "
    "UNION ALL SELECT 'entry ' || id || ' edited in place' FROM journal_entries "
    f"WHERE edited_at > '{SNAPSHOT_TIME}' "
    "UNION ALL SELECT x FROM (SELECT mcpgym_edit_claimed(t.body) AS x "
    f"FROM ({EPISODE_TEXT_SQL}) t) WHERE x IS NOT NULL"
)
"""What `corrected-by-reversal-not-edited` finds (none expected): the wrong entry not
reversed in the episode, an entry edited in place in it, and each text's clauses claiming a
posted entry edited in place (`mcpgym_grading._edit_claims`). Round 17's L17: ``Edited entry
430 in place to the right account.`` passed every band (the decision reader has no edit
action; the books are right). The books' part is `wrong-entry-reversed`'s and
`nothing_else_changed`'s too: it says what the texts are read against, as closed-period-
posting's `texts-state-posted-in-open-period` does."""


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(),
        SqlCheck(
            name="wrong-entry-reversed",
            description="the entry that is wrong (the re-post of a half-done correction, not "
            "the original again) was reversed once, dated today (policy 6.1, 6.2)",
            sql="SELECT COUNT(*) = 1 AND MIN(entry_date) = :today FROM journal_entries "
            f"WHERE reverses_entry_id = :wrong_entry_id AND created_at > '{SNAPSHOT_TIME}'",
            expected=1,
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="corrected-entry-posted",
            description="a corrected entry dated today carries the payment with the right "
            "accounts (policy 3.2), debits minus credits per account in cents",
            sql="SELECT a.code, SUM(l.debit_cents) - SUM(l.credit_cents) AS net "
            "FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
            "JOIN accounts a ON a.id = l.account_id "
            f"WHERE e.created_at > '{SNAPSHOT_TIME}' AND e.source = 'manual' "
            "AND e.entry_date = :today GROUP BY a.code HAVING net <> 0",
            expected=Param("repost"),
            weight=3,
            required=True,
        ),
        books_moved(),
        note_left("journal_entry", "wrong_entry_id"),
        notes_values_in_role(
            Param("note_roles"),
            description="each date and account the notes state is one of the correction's "
            "(the reversal's date, the entry's, the right account, the wrong one) beside the "
            "words of its own role (policy 10.1)",
        ),
        tax_id_not_copied(),
        texts_state_posting_months(),
        SqlCheck(
            name="corrected-by-reversal-not-edited",
            description="the wrong entry was reversed in the episode, no posted entry was "
            "edited in place, and no note, memo or reason says one was (`edited entry 430 in "
            "place`, `the lines were amended`): the correction is a reversal and a re-post "
            "(policy 6.1; round 17's L17)",
            sql=EDIT_CLAIMED_SQL,
            expected=[],
            weight=1,
            required=True,
        ),
        untouched_records_claim_nothing(),
        # the entry is reversed in every band: a note saying it was not misstates the books
        note_decision(name="note-states-reversed", bands=BANDS, not_denied=("reverse",)),
        notes_values_in_role(
            Param("memo_roles"),
            sql=POSTED_MEMOS_SQL,
            name="memo-values-in-role",
            description="each entry number the memos written in the episode state is the "
            "entry of its role (the reversal's memo names the entry it reverses)",
        ),
        *texts_claim_only({b: ("reverse",) for b in ("easy", "medium", "hard", "expert")}),
        nothing_else_changed(),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Correct a mis-coded entry by reversal and re-posting (medium: find it; "
        "hard: two lines, closed period; expert: finish a half-done correction).",
        bands=BANDS,
        generator=with_text_amounts(generate),
        generator_version="2",
        rubric=RUBRIC,
    )
)
