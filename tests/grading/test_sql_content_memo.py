"""Check queries over changed tables, kept by the database's content (`_sqlmemo.content_key`).

A query that reads a table the episode wrote is served again only on a database with the
same bytes (the same snapshot and page delta): a regrade, an episode that ended in the same
state. Another state, however close, runs it.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from mcpgym_grading import _sqlmemo
from mcpgym_grading._statepages import StateConnection, base_index, open_state
from mcpgym_grading._values import register_sql_functions
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_server.bundles import PageDelta

ORDERS = "SELECT COUNT(*), SUM(total_cents) FROM orders WHERE customer_id <> :c"
BUMP = "UPDATE orders SET total_cents = total_cents + {n} WHERE id = (SELECT MIN(id) FROM orders)"
REPLIES = "SELECT mcpgym_unquoted(body, '') FROM ticket_messages ORDER BY id DESC LIMIT 3"


def _state(*sql: str) -> StateConnection:
    snapshot = helpdesk.snapshot
    db = sqlite3.connect(":memory:")
    db.deserialize(snapshot.data)
    for s in sql:
        db.execute(s)
        db.commit()
    data = db.serialize()
    db.close()
    out = open_state(data, PageDelta.between(snapshot.data, data), snapshot, base_index(snapshot))
    register_sql_functions(out)
    return out


def _runs(db: sqlite3.Connection, sql: str, bound: dict[str, Any]) -> int:
    seen: list[str] = []
    db.set_trace_callback(seen.append)
    try:
        _sqlmemo.query(db, sql, bound)
    finally:
        db.set_trace_callback(None)
    return sum(1 for s in seen if not s.startswith("EXPLAIN"))


def test_a_query_over_a_changed_table_runs_once_per_content() -> None:
    _sqlmemo.clear()
    first, same = _state(BUMP.format(n=1)), _state(BUMP.format(n=1))
    assert "orders" not in first.same_as_base
    assert _runs(first, ORDERS, {"c": 1}) == 1
    assert _runs(same, ORDERS, {"c": 1}) == 0  # another connection, the same bytes
    assert _sqlmemo.query(same, ORDERS, {"c": 1}) == _sqlmemo.query(first, ORDERS, {"c": 1})
    assert _runs(same, ORDERS, {"c": 2}) == 1  # other parameters
    other = _state(BUMP.format(n=2))
    assert _runs(other, ORDERS, {"c": 1}) == 1  # another state, the same size
    assert _sqlmemo.query(other, ORDERS, {"c": 1}) != _sqlmemo.query(first, ORDERS, {"c": 1})


def test_a_state_is_named_by_every_page_its_delta_writes() -> None:
    a, b = _state(BUMP.format(n=1)), _state(BUMP.format(n=2))
    assert _sqlmemo.content_key(a) == _sqlmemo.content_key(_state(BUMP.format(n=1)))
    assert _sqlmemo.content_key(a) != _sqlmemo.content_key(b)
    assert _sqlmemo.content_key(a) != _sqlmemo.content_key(_state())  # the snapshot itself


def test_a_query_calling_a_grading_function_is_kept_by_content_only() -> None:
    _sqlmemo.clear()
    snapshot_state = _state()
    assert _runs(snapshot_state, REPLIES, {}) == 1
    assert _runs(_state(), REPLIES, {}) == 0  # the same (unchanged) bytes
    written = _state(
        "UPDATE ticket_messages SET body = body || '!' WHERE id = "
        "(SELECT MAX(id) FROM ticket_messages)"
    )
    assert _runs(written, REPLIES, {}) == 1
    assert _sqlmemo.query(written, REPLIES, {}) != _sqlmemo.query(snapshot_state, REPLIES, {})


def test_results_kept_are_capped_by_rows_in_all(monkeypatch: Any) -> None:
    _sqlmemo.clear()
    monkeypatch.setattr(_sqlmemo, "MAX_KEPT_ROWS", 3)
    db = _state(BUMP.format(n=1))
    many = "SELECT id FROM orders ORDER BY id LIMIT 2"
    assert _runs(db, many, {}) == 1
    assert _runs(db, many, {}) == 0
    assert _runs(db, "SELECT id FROM orders ORDER BY id LIMIT 3 OFFSET 5", {}) == 1
    assert _runs(db, many, {}) == 1  # dropped: 5 rows kept in all is past the cap
    _sqlmemo.clear()
