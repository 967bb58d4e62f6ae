"""The ledger snapshot: deterministic, named by its sha256, internally consistent books."""

from __future__ import annotations

import hashlib
import importlib.util
import sqlite3
from pathlib import Path

import pytest

from mcpgym_ledger import environment
from mcpgym_ledger.env import SNAPSHOT_SHA256

DATA = Path(importlib.util.find_spec("mcpgym_ledger").origin).parent / "data"  # type: ignore[arg-type, union-attr]


@pytest.fixture(scope="module")
def db() -> sqlite3.Connection:
    return environment.snapshot.open_copy(readonly=True)


def _builder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("ledger_build", DATA / "build_snapshot.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_declared_digest_matches_file_and_build() -> None:
    data = (DATA / "snapshot.db").read_bytes()
    assert hashlib.sha256(data).hexdigest() == SNAPSHOT_SHA256
    rebuilt = _builder().build((DATA / "schema.sql").read_text(encoding="utf-8"))
    assert hashlib.sha256(rebuilt).hexdigest() == SNAPSHOT_SHA256


def test_trial_balance_balances_and_every_entry_balances(db: sqlite3.Connection) -> None:
    dr, cr = db.execute("SELECT SUM(debit_cents), SUM(credit_cents) FROM journal_lines").fetchone()
    assert dr == cr > 0
    off = db.execute(
        "SELECT entry_id FROM journal_lines GROUP BY entry_id "
        "HAVING SUM(debit_cents) <> SUM(credit_cents)"
    ).fetchall()
    assert off == []


def test_documents_in_every_state_with_entries(db: sqlite3.Connection) -> None:
    inv = {r[0] for r in db.execute("SELECT DISTINCT status FROM invoices")}
    assert {"draft", "posted", "part_paid", "paid", "void", "written_off"} <= inv
    bills = {r[0] for r in db.execute("SELECT DISTINCT status FROM bills")}
    assert {"draft", "posted", "part_paid", "paid", "void"} <= bills
    overdue = db.execute(
        "SELECT COUNT(*) FROM invoices WHERE status IN ('posted', 'part_paid') "
        "AND due_date < '2026-06-15'"
    ).fetchone()[0]
    assert overdue > 5
    for table in ("invoices", "bills"):
        missing = db.execute(
            f"SELECT COUNT(*) FROM {table} WHERE status <> 'draft' AND journal_entry_id IS NULL"
        ).fetchone()[0]
        assert missing == 0
    assert (
        db.execute("SELECT COUNT(*) FROM credit_notes WHERE journal_entry_id IS NULL").fetchone()[0]
        == 0
    )
    assert (
        db.execute("SELECT COUNT(*) FROM payments WHERE journal_entry_id IS NULL").fetchone()[0]
        == 0
    )


def test_receivables_agree_with_open_invoices(db: sqlite3.Connection) -> None:
    ar = db.execute(
        "SELECT SUM(debit_cents) - SUM(credit_cents) FROM journal_lines WHERE account_id = "
        "(SELECT id FROM accounts WHERE code = '1100')"
    ).fetchone()[0]
    open_ = db.execute(
        "SELECT SUM(total_cents - paid_cents - credited_cents - written_off_cents) FROM invoices "
        "WHERE status NOT IN ('draft', 'void')"
    ).fetchone()[0]
    assert ar == open_


def test_periods_and_bank_feed(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT name, status FROM periods ORDER BY name").fetchall()
    assert [r[1] for r in rows] == ["closed"] * 4 + ["open"] * 2
    unmatched = db.execute("SELECT COUNT(*) FROM bank_lines WHERE status = 'unmatched'").fetchone()[
        0
    ]
    assert unmatched >= 1
    bank = db.execute(
        "SELECT SUM(debit_cents) - SUM(credit_cents) FROM journal_lines WHERE account_id = 1"
    ).fetchone()[0]
    matched = db.execute(
        "SELECT SUM(amount_cents) FROM bank_lines WHERE status = 'matched'"
    ).fetchone()[0]
    opening = 185_000_00
    assert bank == opening + matched
