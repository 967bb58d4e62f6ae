"""Reads shared by the checks of one grade (issue 12 §2), never across grades.

`mcpgym_grading._checks._run_sql` answers a query the grade already ran from its
`CheckContext.sql_results`; `_clauses._cue_pattern` remembers each cue's pattern. A grade
must still read its own database (another grade's rows, of another episode, are never
served), every caller gets lists of its own, and a failing query fails each time.
"""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace
from typing import Any, cast

import pytest

from mcpgym_grading import _checks
from mcpgym_grading._clauses import _cue_pattern
from mcpgym_grading.errors import CheckEvaluationError

SQL = "SELECT body FROM messages WHERE ticket = :ticket ORDER BY id"


def _ctx(bodies: list[str], ticket: str = "T-1") -> _checks.CheckContext:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, ticket TEXT, body TEXT)")
    db.executemany(
        "INSERT INTO messages (ticket, body) VALUES (?, ?)", [(ticket, b) for b in bodies]
    )
    db.commit()
    db.execute("PRAGMA query_only = ON")
    variant = SimpleNamespace(params={"ticket": ticket})
    none = cast("Any", None)
    return _checks.CheckContext(none, none, cast("Any", variant), none, db, lambda: db)


def test_each_grade_reads_its_own_database() -> None:
    """The same SQL in two grades (two episodes' final databases) gives each its own rows."""
    a, b = _ctx(["refund sent"]), _ctx(["refund refused", "sorry"])
    assert _checks._sql_texts(a, SQL) == ["refund sent"]  # noqa: SLF001
    assert _checks._sql_texts(b, SQL) == ["refund refused", "sorry"]  # noqa: SLF001
    assert _checks._sql_texts(a, SQL) == ["refund sent"]  # noqa: SLF001
    assert _checks._run_sql(b, SQL) == (["body"], [("refund refused",), ("sorry",)])  # noqa: SLF001


def test_params_of_the_grade_bind_the_query() -> None:
    """Rows follow the grade's own variant params, not an earlier grade's."""
    a, b = _ctx(["for T-1"], ticket="T-1"), _ctx(["for T-2"], ticket="T-2")
    assert _checks._sql_texts(a, SQL) == ["for T-1"]  # noqa: SLF001
    assert _checks._sql_texts(b, SQL) == ["for T-2"]  # noqa: SLF001


def test_a_query_runs_once_per_grade_and_callers_get_their_own_lists() -> None:
    ctx = _ctx(["one", "two"])
    runs: list[str] = []
    ctx.final_db.set_trace_callback(runs.append)
    columns, rows = _checks._run_sql(ctx, SQL)  # noqa: SLF001
    columns.append("x")
    rows.clear()
    assert _checks._run_sql(ctx, SQL) == (["body"], [("one",), ("two",)])  # noqa: SLF001
    assert len([r for r in runs if r.startswith("SELECT body")]) == 1


def test_failures_are_not_remembered() -> None:
    """A failing query raises on every read; one with no columns is refused every time."""
    ctx = _ctx([])
    for _ in range(2):
        with pytest.raises(sqlite3.OperationalError):
            _checks._run_sql(ctx, "SELECT nope FROM missing")  # noqa: SLF001
        with pytest.raises(CheckEvaluationError, match="no columns"):
            _checks._run_sql(ctx, "PRAGMA query_only = ON")  # noqa: SLF001


def test_cue_patterns_are_per_cue() -> None:
    """Each cue keeps its own pattern (a prefix cue and its word differ)."""
    word, prefix, other = _cue_pattern("charge"), _cue_pattern("charg*"), _cue_pattern("refund")
    assert _cue_pattern("charge") is word
    assert word.search("charged") is None and prefix.search("charged") is not None
    assert other.search("a refund") is not None and word.search("a refund") is None
