"""Family `closed-period-posting`: a posting asked for in a closed period goes to the open one.

Policy 2.1: post nothing dated in a closed period (January to April are closed). 2.2: date it
on the first day of the earliest open period (2026-05-01) and say in the note which period it
belongs to. 2.3: close a period only when asked.

Bands:
    easy: one manual entry, its lines given, asked to be dated in April: post it on May 1.
    medium: two entries, one asked for April (moved to May 1), one for May (kept as asked).
    hard: a draft sales invoice issued in April must be posted: post it on May 1, keeping its
        issue date.
    expert: as medium, and the requester asks to close May once both are in: post first
        (April's entry on May 1), then close May.

The note names the period (`note-names-the-period`, a `MentionMatch` with the period
reader, `mcpgym_grading._periods`): it names April 2026 as a month (``April``, ``Apr``,
``2026-04``, ``04/2026``, ``P4``...), and every period it names, in any form, is April or
May 2026. Dates count as their month: the date asked for (in April) and the posting date
(2026-05-01) are the reference's own and pass; a date in another month names that month,
unless it is bound to a document date that is no posting (``due in June``, ``invoice
date``) with no hedge before it (``or maybe due in March`` names March). A quarter, half or
year names every month it covers; one that holds April and only open periods (``Q2 2026``:
April, May, June) names no other, one holding a closed month (``H1``, ``FY2026``) does.
Month names in Spanish, French, German, Italian, Portuguese, Dutch and the Scandinavian
languages and months relative to another (``the month before April``) are read; a hedged
alternative that looks like a period but reads as none (``or maybe 13.``), or that points
from the period named to another (``or its predecessor``, ``(or earlier)``, ``give or take
a month``), counts as one; so does a document date that words after it say is the period
(``due March 2026, the correct month``). A month named to deny it ("not June") is named all
the same. The notes on every other entry the agent posts (the May entry, the invoice's
entry) are read for other periods too; April must be named on the April posting itself.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from mcpgym_grading import (
    AmountRole,
    MentionMatch,
    Param,
    PeriodReader,
    Rubric,
    SqlCheck,
    record_state,
    with_text_amounts,
)
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import (
    BANDS,
    FIRST_OPEN_DAY,
    PRODUCTS,
    RATES,
    VOLATILE_COLUMNS,
    instruction,
    money,
    tax_on,
)
from mcpgym_ledger.families._identity import SNAPSHOT_TIME, Records, on_records
from mcpgym_ledger.families._note_roles import ASKED_DATE_CUES, POSTING_DATE_CUES
from mcpgym_ledger.families._notes import (
    EPISODE_TEXT_SQL,
    note_left,
    notes_values_in_role,
    tax_id_not_copied,
    texts_claim_only,
    texts_state_no_other_amount_guard,
    untouched_records_claim_nothing,
)
from mcpgym_server import Generation, Scenario, TaskFamily, VariantSpec, pick, reference_call

NAME = "closed-period-posting"

ADJUSTMENTS = (
    # memo, debit account, credit account
    ("Reclassify courier costs booked to office supplies", "6300", "6200"),
    ("Recognise prepaid software used", "6500", "1300"),
    ("Reclassify a repair booked to rent", "6600", "6000"),
    ("Accrue travel expenses claimed late", "6900", "2100"),
    ("Record a stock count shrinkage", "5000", "1200"),
)


def _cents(g: Generation) -> int:
    return g.rng.randrange(80, 3000) * 100 + g.rng.choice((0, 20, 45, 60, 90))


def generate(g: Generation) -> VariantSpec:
    """Generate a `closed-period-posting` variant for ``(g.seed, g.band)`` (see above).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    april = date(2026, 4, rng.randint(2, 30)).isoformat()
    may = date(2026, 5, rng.randint(3, 31)).isoformat()
    entry_id = sc.peek_id("journal_entries")
    reference: list[Any] = [reference_call("list_periods")]
    dated: list[tuple[str, str, int]] = []
    moves: list[tuple[str, int, int]] = []
    note_entity, note_id = "journal_entry", entry_id
    invoice_id = None
    if band == "hard":
        cust = pick(
            rng,
            sc.rows("SELECT * FROM parties WHERE kind = 'customer' ORDER BY id"),
            f"{NAME}@{band}",
        )
        product, unit = PRODUCTS[rng.randrange(len(PRODUCTS))]
        qty = rng.choice((6, 10, 12, 24))
        net = qty * unit
        tax = tax_on(net, RATES[cust["default_tax_code"]])
        invoice_id = sc.peek_id("invoices")
        due = (date.fromisoformat(april) + timedelta(days=cust["terms_days"])).isoformat()
        sc.insert(
            "invoices",
            {
                "number": f"INV-2026-{invoice_id:04d}",
                "customer_id": cust["id"],
                "issue_date": april,
                "due_date": due,
                "status": "draft",
                "net_cents": net,
                "tax_cents": tax,
                "total_cents": net + tax,
                "memo": "",
                "updated_at": f"{april}T16:00:00Z",
            },
        )
        sc.insert(
            "invoice_lines",
            {
                "invoice_id": invoice_id,
                "description": product,
                "account_id": sc.rows("SELECT id FROM accounts WHERE code = '4000'")[0]["id"],
                "quantity": qty,
                "unit_cents": unit,
                "net_cents": net,
                "tax_code": cust["default_tax_code"],
                "tax_cents": tax,
            },
        )
        body = (
            f"Invoice INV-2026-{invoice_id:04d} to {cust['name']} ({qty} x {product}, issued "
            f"{april}) was never posted; it is still a draft. Post it."
        )
        reference.append(reference_call("get_invoice", invoice_id=invoice_id))
        reference.append(
            reference_call("post_invoice", invoice_id=invoice_id, posting_date=FIRST_OPEN_DAY)
        )
        lines = [("1100", net + tax, 0), ("4000", 0, net), ("2200", 0, tax)]
        dated = [(FIRST_OPEN_DAY, c, dr - cr) for c, dr, cr in lines]
        moves = lines
        note_entity, note_id = "invoice", invoice_id
    else:
        picks = list(ADJUSTMENTS)
        rng.shuffle(picks)
        asks = [(picks[0], april, FIRST_OPEN_DAY)]
        if band in ("medium", "expert"):
            asks.append((picks[1], may, may))
        rng.shuffle(asks)
        requests = []
        for (memo, dr_acct, cr_acct), asked, posted in asks:
            cents = _cents(g)
            requests.append(
                f"- dated {asked}: {memo}: debit {dr_acct} {money(cents)}, credit {cr_acct} "
                f"{money(cents)}"
            )
            if asked != posted:
                note_id = sc.peek_id("journal_entries") + len(moves) // 2
            reference.append(
                reference_call(
                    "post_journal_entry",
                    entry_date=posted,
                    memo=memo if asked == posted else f"{memo} (belongs to April 2026)",
                    lines=[
                        {"account_code": dr_acct, "debit_cents": cents},
                        {"account_code": cr_acct, "credit_cents": cents},
                    ],
                )
            )
            moves += [(dr_acct, cents, 0), (cr_acct, 0, cents)]
            dated += [(posted, dr_acct, cents), (posted, cr_acct, -cents)]
        one = len(asks) == 1
        body = (
            f"Please post {'this entry' if one else 'these entries'} for the controller:\n"
            + "\n".join(requests)
        )
        if band == "expert":
            body += "\nOnce they are in, close May: the controller has signed it off."
    note = (
        f"Asked for {april} (April 2026, a closed period): posted on {FIRST_OPEN_DAY}, the "
        "first day of the earliest open period (policy 2.2); it belongs to April."
    )
    reference.append(reference_call("add_note", entity=note_entity, entity_id=note_id, body=note))
    if band == "expert":
        reference.append(reference_call("close_period", period="2026-05"))
    rows: dict[tuple[str, str], int] = {}
    for day, code, cents in dated:
        rows[(day, code)] = rows.get((day, code), 0) + cents
    params = {
        "note_entity_id": note_id,
        "invoice_id": invoice_id,
        "issue_date": april,
        "period": "2026-05" if band != "expert" else "2026-06",
        "close_period_name": "2026-05" if band == "expert" else None,
        "dated": sorted([d, c, n] for (d, c), n in rows.items() if n),
        "movements": movements(moves),
    }
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


POSTED_ON_MAY_1 = Records(
    f"SELECT id FROM journal_entries WHERE created_at > '{SNAPSHOT_TIME}' "
    f"AND entry_date = '{FIRST_OPEN_DAY}'"
)
"""The entries that post what was asked for April (easy, medium, expert), found by what they
are: posted in the episode on 2026-05-01 (policy 2.2; what is asked for May is asked for a
later day, and `entries-dated-in-open-periods` holds each posting to its date). Not by the id
the reference's entry gets: the requests may be posted in either order."""

NOTES_TEXT = (
    "SELECT body FROM notes WHERE (entity = 'invoice' AND entity_id = :invoice_id) "
    f"OR (:invoice_id IS NULL AND {on_records('journal_entry', POSTED_ON_MAY_1)}) ORDER BY id"
)
"""The notes left on the posting: on the April entry (`POSTED_ON_MAY_1`), or on the invoice
in the hard band (only there: a journal entry that shares the invoice's id is another
record)."""

POSTED_IN_EPISODE = Records(f"SELECT id FROM journal_entries WHERE created_at > '{SNAPSHOT_TIME}'")
"""Every entry posted in the episode: the April request's, the May request's (medium,
expert), the hard band's invoice posting, and any other the agent posts."""

NOTES_ON_POSTINGS = (
    f"SELECT body FROM notes WHERE {on_records('journal_entry', POSTED_IN_EPISODE)} ORDER BY id"
)
"""The notes on every entry posted in the episode (`POSTED_IN_EPISODE`): read for other
periods beside `NOTES_TEXT` (a wrong period on the May entry names it all the same), but
April named there does not count: the April posting's own note must name it."""

BELONGS_TO = "2026-04"
"""The closed period every posting asked for a closed period belongs to (April 2026)."""

POSTED_IN = "2026-05"
"""The earliest open period, where it is posted (May 2026); the expert band also closes it."""

OPEN_PERIODS = ["2026-05", "2026-06"]
"""The open periods of the books (May and June 2026): a range holding April and only these
(``Q2 2026``) says where April's figures show, and names no other period."""


_DEBIT = '["dr", "debit*"]'
_CREDIT = '["cr", "credit*"]'
"""The words of a line's side: each account the episode's postings debit (credit), net, is
bound to the debit (credit) words in the texts (`mcpgym_grading._value_roles`)."""

POSTED_IN_OPEN_PERIOD_SQL = (
    f"SELECT 'nothing posted on {FIRST_OPEN_DAY}' WHERE NOT EXISTS (SELECT 1 FROM "
    f"journal_entries WHERE created_at > '{SNAPSHOT_TIME}' AND entry_date = '{FIRST_OPEN_DAY}') "
    "UNION ALL SELECT 'entry ' || id || ' dated ' || entry_date FROM journal_entries "
    f"WHERE created_at > '{SNAPSHOT_TIME}' AND substr(entry_date, 1, 7) = '{BELONGS_TO}' "
    f"UNION ALL SELECT x FROM (SELECT mcpgym_posted_in(t.body, '{BELONGS_TO}') AS x "
    f"FROM ({EPISODE_TEXT_SQL}) t) WHERE x IS NOT NULL "
    "UNION ALL SELECT x FROM (SELECT mcpgym_misstated(t.body, (SELECT json_group_array("
    f"json_array(code, json(CASE WHEN net > 0 THEN '{_DEBIT}' ELSE '{_CREDIT}' END))) FROM "
    "(SELECT a.code AS code, SUM(l.debit_cents) - SUM(l.credit_cents) AS net "
    "FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
    f"JOIN accounts a ON a.id = l.account_id WHERE e.created_at > '{SNAPSHOT_TIME}' "
    "GROUP BY a.code HAVING net <> 0))) AS x "
    f"FROM ({EPISODE_TEXT_SQL}) t) WHERE x IS NOT NULL"
)
"""What `texts-state-posted-in-open-period` finds (none expected): no entry on 2026-05-01, an
entry the episode dated in April, and each text's clauses putting the posting in April
(`mcpgym_grading._posted_in`: ``Posted in April 2026, as requested.``, ``booked into the
April period``, ``sits in April's books``; ``it belongs to April`` and ``not posted in
April`` put nothing there). Round 17's P17a: every note must name April (policy 2.2), so the
period reader cannot refuse a note saying the posting went into it. Round 17's D17: and each
account a text states beside the words of a debit or a credit (``Debit 1200, credit 5000``
of a debit to 5000) is on that side of the episode's postings (the sign of each account's
net: `entries-dated-in-open-periods` holds the postings to the request), or the text
misstates the entry."""


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(),
        SqlCheck(
            name="entries-dated-in-open-periods",
            description="what was asked for a closed period is posted on 2026-05-01 (2.2), "
            "what was asked for an open one on its date: debits minus credits per date and "
            "account, in cents",
            sql="SELECT e.entry_date, a.code, SUM(l.debit_cents) - SUM(l.credit_cents) AS net "
            "FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
            "JOIN accounts a ON a.id = l.account_id "
            f"WHERE e.created_at > '{SNAPSHOT_TIME}' GROUP BY e.entry_date, a.code "
            "HAVING net <> 0",
            expected=Param("dated"),
            weight=3,
            required=True,
        ),
        books_moved(),
        record_state(
            "invoices",
            "status = 'posted' AND issue_date = :issue_date",
            name="invoice-posted-keeping-its-date",
            description="the draft invoice is posted and keeps its issue date",
            key_param="invoice_id",
            bands=("hard",),
        ),
        record_state(
            "periods",
            "status = 'closed' AND NOT EXISTS (SELECT 1 FROM journal_entries e "
            "WHERE e.period_id = periods.id AND e.created_at > periods.closed_at)",
            name="may-closed-when-asked",
            description="May was closed, as asked, and only after the postings: nothing was "
            "posted into it once closed (2.1, 2.3)",
            key_param="close_period_name",
            key_column="name",
            bands=("expert",),
        ),
        note_left("journal_entry", POSTED_ON_MAY_1, bands=("easy", "medium", "expert")),
        note_left("invoice", "invoice_id", name="invoice-note-left", bands=("hard",)),
        MentionMatch(
            name="note-names-the-period",
            description="the note says the posting belongs to April (policy 2.2), and names "
            "no period but April and May, where it was posted, in any form: month names "
            "(in the common European languages too), months relative to another, numeric "
            "months and dates, fiscal periods, quarters, halves and years, each naming every "
            "month it covers (a list of months names none; a range holding April and only "
            "open periods, Q2, names no other); a hedged alternative that looks like a "
            "period counts as one; a month that is a due or invoice date is no period named "
            "unless hedged; the notes on every other entry posted name no other period either",
            source="sql",
            sql=NOTES_TEXT,
            others_sql=NOTES_ON_POSTINGS,
            reader=PeriodReader(document_dates="ignored"),
            expected=BELONGS_TO,
            allowed=[POSTED_IN],
            range_allowed=OPEN_PERIODS,
            weight=0.5,
            required=True,  # policy 2.2: a note that hedges the period, or names none, fails
        ),
        SqlCheck(
            name="texts-state-posted-in-open-period",
            description="what belongs to April is posted on 2026-05-01, nothing is dated in "
            "April, and no note, memo or reason says the posting went into April (`posted in "
            "April`, `booked into the April period`, `sits in April's books`): April is named "
            "as the period it belongs to, not the one it is in (policy 2.2; round 17's P17a); "
            "and no text puts an account on the other side of the entry (`Debit 1200, credit "
            "5000` of a debit to 5000; D17)",
            sql=POSTED_IN_OPEN_PERIOD_SQL,
            expected=[],
            weight=1,
            required=True,
        ),
        notes_values_in_role(
            AmountRole(amount=Param("issue_date"), cues=ASKED_DATE_CUES),
            AmountRole(amount=FIRST_OPEN_DAY, cues=POSTING_DATE_CUES),
            description="the notes state the date asked for (or the invoice's date) beside "
            "the words of the request and 2026-05-01 beside the words of the posting (the two "
            "exchanged say it was posted in the closed period; policy 2.2)",
        ),
        tax_id_not_copied(),
        untouched_records_claim_nothing(),
        *texts_claim_only({b: () for b in ("easy", "medium", "hard", "expert")}),
        nothing_else_changed(
            description="every other table equals the reference end state: no period closed "
            "unless asked (2.3), no document changed"
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Post what is asked for a closed period in the open one (medium: one of "
        "two; hard: a draft invoice of April; expert: then close May as asked).",
        bands=BANDS,
        generator=with_text_amounts(generate),
        generator_version="2",
        rubric=RUBRIC,
    )
)
