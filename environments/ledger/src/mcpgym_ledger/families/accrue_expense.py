"""Family `accrue-expense`: accrue May's unbilled expenses at month end (policy 9.1).

Debit the expense account, credit 2100 Accrued Expenses, dated 2026-05-31, and reverse the
accrual dated 2026-06-01.

Bands:
    easy: one expense, its amount and account code given.
    medium: one expense described (no account code): the account comes from policy 3.2.
    hard: two expenses, one of them worked out from hours and an hourly rate.
    expert: three expenses listed, but one of them has been billed since (its bill is in the
        books): accrue only the two that are still unbilled.

The same work (the journal, `JOURNAL_SQL`): the accrual's lines dated 2026-05-31 and their
reversal dated 2026-06-01, nothing else. The accrual may be one entry or one per expense, and
the reversal posted with `reverse_journal_entry` or by hand with the lines swapped; a wrong
entry posted and reversed before the right one is two entries the books should not hold.
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import AmountRole, Param, Rubric, SqlCheck, with_text_amounts
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import BANDS, VOLATILE_COLUMNS, instruction, money
from mcpgym_ledger.families._identity import SNAPSHOT_TIME, Records
from mcpgym_ledger.families._note_roles import (
    ACCRUAL_DATE_CUES,
    ACCRUED_TOTAL_CUES,
    CREDIT_ACCOUNT_CUES,
    DEBIT_ACCOUNT_CUES,
    REVERSAL_DATE_CUES,
    account_cues,
    id_roles,
    note_roles,
)
from mcpgym_ledger.families._notes import (
    note_decision,
    note_left,
    notes_values_in_role,
    tax_id_not_copied,
    texts_claim_only,
    texts_state_no_other_amount_guard,
)
from mcpgym_ledger.families._past_books import PastBooks
from mcpgym_ledger.families._posting_months import texts_state_posting_months
from mcpgym_server import Generation, Scenario, TaskFamily, VariantSpec, fetch_one, reference_call

NAME = "accrue-expense"

ACCRUAL_DATE = "2026-05-31"
REVERSAL_DATE = "2026-06-01"
ACCRUED_TO = "2100"
"""The account the accrual credits (2100 Accrued Expenses, policy 9.1)."""

ESTIMATES = (
    # vendor, what (for May), account
    ("Coastal Power & Light", "electricity used in May (meter estimate)", "6100"),
    ("FiberLink Internet", "May internet service", "6100"),
    ("Swift Freight Lines", "pallet deliveries made in the last week of May", "6300"),
    ("Beacon Courier", "courier runs in late May", "6300"),
    ("FixRight Maintenance", "the May repair of the loading dock door", "6600"),
    ("Paperworks Office Supply", "office supplies delivered on May 29", "6200"),
)
DELIVERED_ON = {"office supplies delivered on May 29": "2026-05-29"}
"""The dates in words an expense's own words carry (the memo repeats them: a date role of
their own, bound by ``delivered``, so the accrual's date roles do not read them)."""

HOURLY = (
    ("Ledgerline CPAs", "May bookkeeping review", "6400"),
    ("FixRight Maintenance", "forklift servicing in May", "6600"),
)


def _cents(g: Generation) -> int:
    return g.rng.randrange(150, 2400) * 100 + g.rng.choice((0, 0, 25, 50, 75))


def generate(g: Generation) -> VariantSpec:
    """Generate an `accrue-expense` variant for ``(g.seed, g.band)`` (see above).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    pool = list(ESTIMATES)
    rng.shuffle(pool)
    items: list[dict[str, Any]] = []
    billed: dict[str, Any] | None = None
    first = pool[0]
    items.append({"vendor": first[0], "what": first[1], "account": first[2], "cents": _cents(g)})
    if band in ("hard", "expert"):
        vendor, what, acct = HOURLY[rng.randrange(len(HOURLY))]
        hours = rng.randint(3, 18)
        rate = rng.choice((9500, 12000, 13500, 15000, 16500))
        items.append(
            {
                "vendor": vendor,
                "what": what,
                "account": acct,
                "cents": hours * rate,
                "hours": hours,
                "rate": rate,
            }
        )
    if band == "expert":
        vendor, what, acct = next(p for p in pool[1:] if p[0] != items[0]["vendor"])
        cents = _cents(g)
        party = fetch_one(g.db, "SELECT * FROM parties WHERE name = ?", (vendor,))
        ref = f"{vendor.split()[0][:4].upper()}-{rng.randrange(5000, 9999)}"
        past = PastBooks(sc)
        bill_id = past.bill(party, ref, "2026-06-03", what, acct, cents, "STD")
        billed = {"vendor": vendor, "what": what, "cents": cents, "bill_id": bill_id, "ref": ref}
    code_given = band == "easy"

    def describe(x: dict[str, Any]) -> str:
        if "hours" in x:
            text = f"{x['what']} by {x['vendor']}: {x['hours']} hours at {money(x['rate'])} an hour"
        else:
            text = f"{x['what']} from {x['vendor']}: {money(x['cents'])}"
        return text + (f" (account {x['account']})" if code_given else "")

    listed = [describe(x) for x in items]
    if billed is not None:
        listed.insert(
            rng.randrange(len(listed) + 1),
            f"{billed['what']} from {billed['vendor']}: {money(billed['cents'])}",
        )
    body = (
        "Month-end for May: these expenses were incurred in May and their bills had not come "
        "in when we made the list:\n"
        + "\n".join(f"- {x}" for x in listed)
        + "\nAccrue what still needs accruing, as the policy requires."
    )
    total = sum(x["cents"] for x in items)
    accrual = [(x["account"], x["cents"], 0) for x in items] + [(ACCRUED_TO, 0, total)]
    entry_id = sc.peek_id("journal_entries")
    reference = [reference_call("get_policy")]
    if billed is not None:
        reference.append(reference_call("find_documents", kind="bill", text="", status="posted"))
        reference.append(reference_call("get_bill", bill_id=billed["bill_id"]))
    reference.append(
        reference_call(
            "post_journal_entry",
            entry_date=ACCRUAL_DATE,
            memo="Accrue May expenses not yet billed: " + "; ".join(x["what"] for x in items),
            lines=[
                {"account_code": c, "debit_cents": dr, "credit_cents": cr} for c, dr, cr in accrual
            ],
        )
    )
    reference.append(
        reference_call(
            "reverse_journal_entry",
            entry_id=entry_id,
            reversal_date=REVERSAL_DATE,
            memo="Reverse the May accrual",
        )
    )
    note = (
        f"Accrued {money(total)} of May expenses on {ACCRUAL_DATE} ("
        + ", ".join(f"{x['account']}: {money(x['cents'])}" for x in items)
        + f") against 2100, reversed on {REVERSAL_DATE}."
    )
    if billed is not None:
        note += f" Not accrued: {billed['what']}, already billed as {billed['ref']}."
    reference.append(
        reference_call("add_note", entity="journal_entry", entity_id=entry_id, body=note)
    )
    params = {
        "accrual_entry_id": entry_id,
        "accrual_date": ACCRUAL_DATE,
        "reversal_date": REVERSAL_DATE,
        "period": "2026-05",
        "accrual": movements(accrual),
        "reversal": movements([(c, cr, dr) for c, dr, cr in accrual]),
        "accrued_cents": total,
        "movements": [],
        # the note's total, each line's amount and each expense account in its role (the
        # dates' and 2100's are the rubric's own)
        "note_roles": note_roles(
            (total, ACCRUED_TOTAL_CUES),
            *((x["cents"], account_cues(x["account"])) for x in items),
            *((x["account"], DEBIT_ACCOUNT_CUES) for x in items),
            *id_roles(billed["ref"] if billed else None),
            *(
                (DELIVERED_ON[x["what"]], ("delivered", "delivered on"))
                for x in [*items, *([billed] if billed else [])]
                if x["what"] in DELIVERED_ON
            ),
        ),
    }
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


def _dated(param: str) -> str:
    return (
        "SELECT a.code, SUM(l.debit_cents) - SUM(l.credit_cents) AS net FROM journal_lines l "
        "JOIN journal_entries e ON e.id = l.entry_id JOIN accounts a ON a.id = l.account_id "
        f"WHERE e.created_at > '{SNAPSHOT_TIME}' AND e.entry_date = :{param} "
        "GROUP BY a.code HAVING net <> 0"
    )


ACCRUAL_ENTRIES = Records(
    f"SELECT id FROM journal_entries WHERE created_at > '{SNAPSHOT_TIME}' "
    "AND entry_date = :accrual_date"
)
"""The accrual's entries, found by what they are: posted in the episode on the last day of
May (one, or one per expense); not the id the reference's entry gets, which a reversal
posted by hand first would take."""

RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(),
        SqlCheck(
            name="accrual-posted",
            description="entries dated the last day of May debit each unbilled expense's "
            "account by its amount and credit 2100 Accrued Expenses with the total (9.1); an "
            "expense billed since is not accrued",
            sql=_dated("accrual_date"),
            expected=Param("accrual"),
            weight=3,
            required=True,
        ),
        SqlCheck(
            name="accrual-reversed",
            description="the accrual is reversed by entries dated the first day of June (9.1)",
            sql=_dated("reversal_date"),
            expected=Param("reversal"),
            weight=2,
            required=True,
        ),
        books_moved(
            description="the accrual and its reversal net to nothing, nothing else was posted, "
            "none is dated in a closed period (policy 2.1) and no posted entry was edited (6.1)"
        ),
        note_left("journal_entry", ACCRUAL_ENTRIES),
        notes_values_in_role(
            AmountRole(amount=Param("accrual_date"), cues=ACCRUAL_DATE_CUES),
            AmountRole(amount=Param("reversal_date"), cues=REVERSAL_DATE_CUES),
            AmountRole(amount=ACCRUED_TO, cues=CREDIT_ACCOUNT_CUES),
            Param("note_roles"),
            description="the notes state the accrual's date beside its accrual words and the "
            "reversal's beside its reversal words, each expense account as the one debited "
            "and 2100 as the one credited, the total as the total and each line's amount "
            "beside its account (two of them exchanged misstate the entry; policy 10.1)",
        ),
        tax_id_not_copied(),
        texts_state_posting_months(),
        # the entry is reversed in every band: a note saying it was not misstates the books
        note_decision(name="note-states-reversed", bands=BANDS, not_denied=("reverse",)),
        *texts_claim_only({b: ("reverse",) for b in ("easy", "medium", "hard", "expert")}),
        nothing_else_changed(
            description="every other table equals the reference end state: no period was "
            "closed (2.3), no bill entered or paid"
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Accrue May's unbilled expenses and reverse the accrual in June (medium: "
        "derive the account; hard: hours x rate; expert: one was billed since).",
        bands=BANDS,
        generator=with_text_amounts(generate),
        generator_version="3",
        rubric=RUBRIC,
    )
)
