"""Ledger rubrics find the rows an agent creates by what they are, never by a predicted id
(issue 9 §4; `mcpgym_ledger.families._identity`).

A row written in an episode takes the next id in the order the agent works, so an id the
generator predicts names a position: work done in another honest order must keep passing,
and a note left on the record that now holds the predicted id, the wrong one, must fail.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._identity import JOURNAL_LINKED, journal_links_sql
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=256)
FAMILIES = tuple(sorted(environment.families))
BANDS = ("easy", "medium", "hard", "expert")
MAY_1 = "2026-05-01"


def grade(v: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def failed(g: Grade) -> list[str]:
    return sorted(c.name for c in g.checks if c.applicable and not c.passed)


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(name, arguments)


def renote(calls: list[ToolCall], entity_id: int) -> list[ToolCall]:
    """``calls`` with every note sent to the journal entry ``entity_id``."""
    return [
        call("add_note", **{**c.arguments, "entity_id": entity_id}) if c.name == "add_note" else c
        for c in calls
    ]


# --- the rule, over every family ----------------------------------------------------------

_EQUALS_PARAM = re.compile(r"(?:(?<![<>!])=|\bIN\s*\((?:[^()]*,)?)\s*:(\w+)", re.IGNORECASE)
"""A named parameter compared for equality (``= :x``, ``IN (:x, ...)``); ``id >= :first``, a
bound that selects every row created in the episode whatever their order, is not."""


def _ids(v: TaskVariant, calls: list[ToolCall]) -> dict[str, set[int]]:
    db = replay(environment, v.family, v.band, v.seed, calls).open_final_db()
    try:
        names = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        ]
        out = {}
        for t in names:
            if "id" in [r[1] for r in db.execute(f'PRAGMA table_info("{t}")')]:
                out[t] = {r[0] for r in db.execute(f'SELECT id FROM "{t}"')}
        return out
    finally:
        db.close()


def _predicted(family: str, band: str, seed: int) -> set[tuple[str, str]]:
    """``(check, param)`` pairs where the check compares a param for equality and the param's
    value is the id of a row the reference run creates (in any table)."""
    v = environment.variant(family, band, seed)
    before, after = _ids(v, []), _ids(v, list(v.reference))
    created = {i for t, ids in after.items() for i in ids - before.get(t, set())}
    out = set()
    for check in environment.family(family).rubric.checks:  # type: ignore[attr-defined]
        if check.bands and band not in check.bands:
            continue
        for name in set(_EQUALS_PARAM.findall(check.model_dump_json())):
            value = v.params.get(name)
            if type(value) is int and value in created:
                out.add((check.name, name))
    return out


@pytest.mark.parametrize("family", FAMILIES)
def test_no_check_reads_a_created_row_by_a_predicted_id(family: str) -> None:
    # A param that names a created row does so at every seed (it is predicted by position);
    # an id of the setup that happens to equal a new row's id (customer 1, note 1) does not.
    for band in BANDS:
        hits = set.intersection(*(_predicted(family, band, seed) for seed in range(3)))
        assert not hits, (
            f"{family}@{band}: checks compare these params, ids of rows the agent creates, "
            f"for equality: {sorted(hits)}; find the row by what it is (`Records`)"
        )


# --- closed-period-posting: the two requests in either order --------------------------------


def _other_order(v: TaskVariant) -> tuple[list[ToolCall], int, int]:
    """The reference with its two postings swapped, and the ids the April and the May entry
    get then."""
    ref = list(v.reference)
    a, b = [i for i, c in enumerate(ref) if c.name == "post_journal_entry"]
    new = list(ref)
    new[a], new[b] = ref[b], ref[a]
    first = v.params["note_entity_id"] - (0 if ref[a].arguments["entry_date"] == MAY_1 else 1)
    april_first = new[a].arguments["entry_date"] == MAY_1
    return new, first + (0 if april_first else 1), first + (1 if april_first else 0)


@pytest.mark.parametrize("band", ["medium", "expert"])
@pytest.mark.parametrize("seed", [0, 1])
def test_closed_period_requests_posted_in_the_other_order(band: str, seed: int) -> None:
    v = environment.variant("closed-period-posting", band, seed)
    calls, april, may = _other_order(v)
    honest = grade(v, renote(calls, april))
    assert honest.passed and honest.score == 1.0, failed(honest)
    wrong = grade(v, renote(calls, may))  # the note on the May entry: the wrong record
    assert not wrong.passed
    assert {"note-left", "note-names-the-period"} <= set(failed(wrong))


@pytest.mark.parametrize("seed", [0, 1])
def test_the_invoice_period_note_is_read_on_the_invoice_only(seed: int) -> None:
    v = environment.variant("closed-period-posting", "hard", seed)
    invoice = v.params["invoice_id"]
    calls = []
    for c in v.reference:
        if c.name == "add_note":  # the period named on the journal entry sharing the id
            calls.append(call("add_note", entity="invoice", entity_id=invoice, body="Posted."))
            calls.append(call("add_note", **{**c.arguments, "entity": "journal_entry"}))
        else:
            calls.append(c)
    g = grade(v, calls)
    assert not g.passed and "note-names-the-period" in failed(g)


# --- the order of independent postings ------------------------------------------------------


@pytest.mark.parametrize("band", ["medium", "hard", "expert"])
@pytest.mark.parametrize("seed", [0, 1])
def test_reconcile_deposit_recorded_before_the_fee_passes(band: str, seed: int) -> None:
    v = environment.variant("reconcile-bank-lines", band, seed)
    ref = list(v.reference)
    post = next(i for i, c in enumerate(ref) if c.name == "post_journal_entry")
    fee_match = ref[post + 1]
    pay = next(i for i, c in enumerate(ref) if c.name == "record_customer_payment")
    fee_entry = fee_match.arguments["journal_entry_id"] + 1  # the deposit's entry came first
    calls = [
        *ref[:post],
        *ref[pay - 1 : pay + 1],  # get_invoice, record_customer_payment
        ref[post],
        call(
            "match_bank_line",
            bank_line_id=fee_match.arguments["bank_line_id"],
            journal_entry_id=fee_entry,
        ),
        *ref[pay + 1 :],
    ]
    g = grade(v, calls)
    assert g.passed and g.score == 1.0, failed(g)


def _reversal_first(v: TaskVariant) -> tuple[list[ToolCall], int, int]:
    """accrue-expense's reference with the reversal posted by hand before the accrual, and
    the ids the reversal and the accrual get."""
    ref = list(v.reference)
    post = next(i for i, c in enumerate(ref) if c.name == "post_journal_entry")
    rev = next(i for i, c in enumerate(ref) if c.name == "reverse_journal_entry")
    lines = [
        {
            "account_code": x["account_code"],
            "debit_cents": x.get("credit_cents", 0),
            "credit_cents": x.get("debit_cents", 0),
        }
        for x in ref[post].arguments["lines"]
    ]
    by_hand = call(
        "post_journal_entry",
        entry_date=ref[rev].arguments["reversal_date"],
        memo="Reverse the May accrual",
        lines=lines,
    )
    calls = [*ref[:post], by_hand, ref[post], *ref[post + 1 : rev], *ref[rev + 1 :]]
    first = ref[rev].arguments["entry_id"]
    return calls, first, first + 1


@pytest.mark.parametrize("band", ["easy", "expert"])
def test_an_accrual_reversed_by_hand_first_keeps_its_note(band: str) -> None:
    v = environment.variant("accrue-expense", band, 0)
    calls, reversal, accrual = _reversal_first(v)
    honest = grade(v, renote(calls, accrual))
    assert honest.passed and honest.score == 1.0, failed(honest)
    wrong = grade(v, renote(calls, reversal))  # the id the reference's accrual gets
    assert "note-left" in failed(wrong)


# --- journal_entry_id compared through the entry ---------------------------------------------


def _books(entries: list[tuple[str, list[tuple[int, int, int]]]]) -> sqlite3.Connection:
    """A copy of the snapshot with ``entries`` posted in the episode in this order (``(date,
    [(account id, debit, credit)])``) and one payment linked to the entry dated 06-20."""
    db = environment.snapshot.open_copy()
    ids = {}
    for day, lines in entries:
        cur = db.execute(
            "INSERT INTO journal_entries (entry_date, period_id, memo, source, created_at, "
            "created_by) VALUES (?, 6, 'x', 'manual', '2026-06-15T10:00:00Z', 'agent')",
            (day,),
        )
        ids[day] = cur.lastrowid
        for account, dr, cr in lines:
            db.execute(
                "INSERT INTO journal_lines (entry_id, account_id, debit_cents, credit_cents, "
                "memo) VALUES (?, ?, ?, ?, '')",
                (cur.lastrowid, account, dr, cr),
            )
    party = db.execute("SELECT id FROM parties WHERE kind = 'customer' LIMIT 1").fetchone()[0]
    db.execute(
        "INSERT INTO payments (direction, party_id, payment_date, amount_cents, reference, "
        "journal_entry_id, created_at) VALUES ('received', ?, '2026-06-20', 500, 'r', ?, "
        "'2026-06-15T10:00:00Z')",
        (party, ids["2026-06-20"]),
    )
    return db


def test_journal_links_name_an_entry_by_its_content_not_its_id() -> None:
    fee = ("2026-06-10", [(1, 0, 700), (2, 700, 0)])
    deposit = ("2026-06-20", [(1, 500, 0), (2, 0, 500)])
    other = ("2026-06-20", [(1, 500, 0), (3, 0, 500)])  # same date and amount, other account
    sql = journal_links_sql(JOURNAL_LINKED)

    def links(entries: list[Any]) -> list[Any]:
        db = _books(entries)
        try:
            return sorted((tuple(r) for r in db.execute(sql)), key=repr)
        finally:
            db.close()

    assert links([fee, deposit]) == links([deposit, fee])  # ids swapped, the same links
    assert links([fee, deposit]) != links([fee, other])
    assert any(
        r[0] == "payments" and str(r[2]).startswith("posted 2026-06-20")
        for r in links([fee, deposit])
    )
