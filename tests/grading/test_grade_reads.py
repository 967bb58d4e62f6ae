"""Reads shared by the checks of one grade (issue 12 §2), never across grades.

`mcpgym_grading._checks._run_sql` answers a query the grade already ran from its
`CheckContext.sql_results`; `_clauses._cue_pattern` remembers each cue's pattern; a
`TextView` remembers its `contains` answers. A grade must still read its own database
(another grade's rows, of another episode, are never served), every caller gets lists of
its own, a failing query fails each time, and a view answers for its own text.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from types import SimpleNamespace
from typing import Any, cast

import pytest

from mcpgym_grading import _checks, _text
from mcpgym_grading._clauses import _cue_pattern
from mcpgym_grading._text import FOUND_KEPT, TextView
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


def test_view_answers_are_per_text_and_sign() -> None:
    """`TextView.contains` remembers its answers per view: another text, or the same text
    read unsigned, answers for itself (asked alternately, each value twice)."""
    signed = TextView.of("tracking -764342929901 sent", signed=True)
    unsigned = TextView.of("tracking -764342929901 sent", signed=False)
    other = TextView.of("tracking 111 sent", signed=True)
    for _ in range(2):
        assert signed.contains("764342929901") is False
        assert unsigned.contains("764342929901") is True
        assert other.contains("764342929901") is False
        assert other.contains("111") is True and signed.contains("111") is False


def test_view_answers_cover_the_markup_source() -> None:
    """A value only in a reply's markup source is found on every ask (the remembered
    answer is the whole view's, rendered text and source)."""
    view = TextView.of('<a href="https://x.test/track/ZX9">link</a> ok')
    assert [view.contains("ZX9") for _ in range(2)] == [True, True]
    assert replace(view)._found == {}  # noqa: SLF001 - a copy starts empty


def test_view_memo_is_bounded() -> None:
    view = TextView.of("plain words only")
    for i in range(FOUND_KEPT + 10):
        assert view.contains(f"w{i}") is False
    assert len(view._found) == FOUND_KEPT  # noqa: SLF001
    assert view.contains("words") is True


def test_views_kept_by_characters_each_its_own_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cycle of 300 texts (a campaign's replies, graded again) is served from the cache
    the second time, each text its own view; past `VIEW_CACHE_CHARS` the oldest go."""
    _text._cached_view.cache_clear()  # noqa: SLF001
    texts = [f"Refund {i} sent for order ORD-{i:05d}" for i in range(300)]
    for _ in range(2):
        for i, t in enumerate(texts):
            view = TextView.of(t)
            assert view.contains(f"ORD-{i:05d}") and not view.contains(f"ORD-{i + 1:05d}")
    info = _text._cached_view.cache_info()  # noqa: SLF001
    assert (info.misses, info.hits, info.currsize) == (300, 300, 300)
    assert info.chars == sum(map(len, texts))
    monkeypatch.setattr(_text, "VIEW_CACHE_CHARS", 10 * len(texts[0]))
    TextView.of("one more text")
    info = _text._cached_view.cache_info()  # noqa: SLF001
    assert info.currsize <= 10 and info.chars <= 10 * len(texts[0])
    assert TextView.of(texts[-1]).contains("ORD-00299")  # the newest kept
    assert _text._cached_view.cache_info().hits == info.hits + 1  # noqa: SLF001
