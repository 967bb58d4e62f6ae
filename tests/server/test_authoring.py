"""The scenario side of the author kit: row queries, id allocation, setup statements, picks."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass

import pytest

from mcpgym_server import (
    Generation,
    Scenario,
    ToolCall,
    fetch_one,
    fetch_rows,
    format_cents,
    max_id,
    pick,
    pick_where,
    reference_call,
)


@pytest.fixture
def db() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.executescript(
        "CREATE TABLE a (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, n INTEGER);"
        "INSERT INTO a (name, n) VALUES ('x', 1), ('y', 2), ('z', 3);"
        "DELETE FROM a WHERE id = 3;"
        "CREATE TABLE b (id INTEGER PRIMARY KEY, v TEXT);"
    )
    return con


@dataclass
class Row:
    id: int
    name: str
    n: int


def test_typed_rows_and_one(db: sqlite3.Connection) -> None:
    assert fetch_rows(db, "SELECT * FROM a ORDER BY id") == [
        {"id": 1, "name": "x", "n": 1},
        {"id": 2, "name": "y", "n": 2},
    ]
    typed = fetch_rows(db, "SELECT * FROM a WHERE n > ? ORDER BY id", (1,), row_type=Row)
    assert typed == [Row(2, "y", 2)]
    with pytest.raises(LookupError, match="no row"):
        fetch_one(db, "SELECT * FROM a WHERE n = 99")


def test_max_id_counts_the_autoincrement_counter(db: sqlite3.Connection) -> None:
    assert max_id(db, "a") == 3  # row 3 was deleted; AUTOINCREMENT never reuses it
    assert max_id(db, "b") == 0


def test_scenario_allocates_ids_and_applies(db: sqlite3.Connection) -> None:
    sc = Scenario(Generation(seed=1, band="easy", rng=random.Random(1), db=db))
    assert sc.peek_id("a") == 4
    first = sc.insert("a", {"name": "new", "n": 7})
    assert (first, sc.peek_id("a")) == (4, 5)
    sc.update("a", 1, {"n": 10, "name": "xx"})
    with pytest.raises(ValueError, match="no column"):
        sc.update("a", 1, {})
    for sql, params in sc.setup:
        db.execute(sql, params)
    assert fetch_rows(db, "SELECT id, name, n FROM a ORDER BY id") == [
        {"id": 1, "name": "xx", "n": 10},
        {"id": 2, "name": "y", "n": 2},
        {"id": 4, "name": "new", "n": 7},
    ]
    got = sc.pick_row("SELECT * FROM a WHERE n > 5 ORDER BY id", "a big row")
    assert got["n"] > 5
    with pytest.raises(LookupError, match="no candidate for nothing"):
        sc.pick_row("SELECT * FROM a WHERE n > 500", "nothing")


def test_picks_are_seeded_and_explain_failures() -> None:
    items = list(range(10))
    assert pick(random.Random(3), items, "x") == pick(random.Random(3), items, "x")
    with pytest.raises(LookupError, match="candidate for widgets"):
        pick(random.Random(3), [], "widgets")
    assert pick_where(random.Random(0), items, lambda i: i == 7, "seven") == 7
    assert pick_where(random.Random(0), items, lambda i: {"i": i} if i == 2 else None, "t") == {
        "i": 2
    }


def test_reference_call_and_money() -> None:
    assert reference_call("get", order_id=3) == ToolCall("get", {"order_id": 3})
    assert format_cents(123456) == "$1,234.56" and format_cents(-5) == "-$0.05"
