"""The grading memos give the grades of the code without them, on every variant.

Nine memos make grading cheaper (`mcpgym_grading._sqlmemo`: a check query over tables equal
to the snapshot's, answered once per snapshot; `money_mentions` per text; the skeleton's
character likeness; a grade's query results, once per grade; the role readers' cue
patterns; a text view's answers; a view's search starts, `mcpgym_grading._view_index`; a
needle's run plan; the grading SQL functions' results, `mcpgym_grading._sql_function_memo`).
With every memo off (the plain functions, nothing remembered) and on, grades must be equal
on the demo matrix (reference and null agents on every family x band of both environments,
one seed each) and on the ship gate's control mutants.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from mcpgym_clients.instrument.controls import mutants
from mcpgym_grading import (
    ReferenceCache,
    _answer_check,
    _check_context,
    _checks,
    _clauses,
    _money,
    _roles,
    _skeleton,
    _sqlmemo,
    _value_roles,
    grade_bundle,
)
from mcpgym_grading._sql_function_memo import SQL_FUNCTION_MEMO
from mcpgym_grading._statepages import base_index, open_state
from mcpgym_grading._text import TextView
from mcpgym_grading._values import bind_sql
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import SUBMIT_TOOL, Environment, ToolCall, replay
from mcpgym_server.bundles import EpisodeBundle, PageDelta

ENVS = {"helpdesk": helpdesk, "ledger": ledger}
BANDS = ("easy", "medium", "hard")
MATRIX = [
    (e, f, b, i % 3)
    for e, env in ENVS.items()
    for i, (f, b) in enumerate((f, b) for f in sorted(env.families) for b in BANDS)
]
CACHE = ReferenceCache(maxsize=1024)


@contextlib.contextmanager
def _memos_off() -> Iterator[None]:
    """Every memo bypassed: what grading computed before them."""
    mp = pytest.MonkeyPatch()

    def plain_mentions(text: str, *, bare: bool = False, candidates: Any = ()) -> list[Any]:
        key = frozenset(candidates) if bare else frozenset()
        return list(_money._money_mentions.__wrapped__(text, bare, key))  # noqa: SLF001

    def run_sql_each_time(ctx: Any, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        columns, rows = _sqlmemo.query(ctx.final_db, sql, bind_sql(sql, ctx.params))
        if columns is None:
            raise CheckEvaluationError("the SQL statement returns no columns")
        return list(columns), rows

    def contains_each_time(self: TextView, value: str) -> bool:
        found = self._contains(value)  # noqa: SLF001
        return found or (self._source is not None and self._source._contains(value))  # noqa: SLF001

    mp.setattr(_sqlmemo, "_memo_key", lambda *_a: None)
    mp.setattr(_money, "_scanned", _money._scan)  # noqa: SLF001 (each text scanned each time)
    mp.setattr(SQL_FUNCTION_MEMO, "enabled", False)  # the SQL functions called each time
    mp.setattr(TextView, "_starts", lambda _self, _name, _toks: None)  # every start scanned
    mp.setattr(TextView, "_atom_starts", lambda _self: None)
    mp.setattr(_skeleton, "_plan", _skeleton._plan.__wrapped__)  # noqa: SLF001
    mp.setattr(TextView, "contains", contains_each_time)  # a view's answers not remembered
    for module in (_check_context, _checks, _answer_check):  # a grade's queries run each time
        mp.setattr(module, "_run_sql", run_sql_each_time)
    for module in (_roles, _value_roles):
        mp.setattr(module, "_cue_pattern", _clauses._cue_pattern.__wrapped__)  # noqa: SLF001
    for module in (
        "mcpgym_grading._money",
        "mcpgym_grading._answer_check",
        "mcpgym_grading._roles",
    ):
        mp.setattr(f"{module}.money_mentions", plain_mentions)
    mp.setattr(_skeleton, "_alike_plain", lambda s, w: _skeleton._alike_of(s, w, None))  # noqa: SLF001
    mp.setattr(
        _skeleton,
        "_alike_long",
        lambda s, w: _skeleton._alike_of(s, w, _skeleton.LONG_DIGIT_LIKE),  # noqa: SLF001
    )
    try:
        yield
    finally:
        mp.undo()


def _both(bundle: EpisodeBundle, env: Environment) -> None:
    with _memos_off():
        old = grade_bundle(bundle, env, reference_cache=CACHE)
    new = grade_bundle(bundle, env, reference_cache=CACHE)
    again = grade_bundle(bundle, env, reference_cache=CACHE)  # served from the memos
    assert new.model_dump() == old.model_dump()
    assert again.model_dump() == old.model_dump()


@pytest.mark.parametrize(
    ("env", "family", "band", "seed"), MATRIX, ids=[f"{e}/{f}@{b}#{s}" for e, f, b, s in MATRIX]
)
def test_reference_and_null_grades_agree(env: str, family: str, band: str, seed: int) -> None:
    environment = ENVS[env]
    v = environment.variant(family, band, seed)
    _both(replay(environment, family, band, seed, v.reference, answer=v.answer), environment)
    _both(replay(environment, family, band, seed, []), environment)


FAMILIES = [(e, f) for e, env in ENVS.items() for f in sorted(env.families)]


@pytest.mark.parametrize(("env", "family"), FAMILIES, ids=[f"{e}/{f}" for e, f in FAMILIES])
def test_mutant_grades_agree(env: str, family: str) -> None:
    """Every third control mutant of each family's medium band."""
    environment = ENVS[env]
    v = environment.variant(family, "medium", 0)
    for _label, calls in mutants(environment, v)[::3]:
        script = [ToolCall(name=n, arguments=a) for n, a in calls if n != SUBMIT_TOOL]
        answer = next((a.get("answer") for n, a in calls if n == SUBMIT_TOOL), None)
        _both(replay(environment, family, "medium", 0, script, answer=answer), environment)


# -- _sqlmemo itself -------------------------------------------------------------------------


def _state(sql: str | None = None) -> sqlite3.Connection:
    """A state connection on helpdesk's snapshot, after ``sql`` (a write) when given."""
    snapshot = helpdesk.snapshot
    db = sqlite3.connect(":memory:")
    db.deserialize(snapshot.data)
    if sql is not None:
        db.execute(sql)
        db.commit()
    data = db.serialize()
    db.close()
    delta = PageDelta.between(snapshot.data, data)
    return open_state(data, delta, snapshot, base_index(snapshot))


def _runs(db: sqlite3.Connection, sql: str, bound: dict[str, Any]) -> int:
    """How many times ``sql`` itself ran on ``db`` for one `_sqlmemo.query`."""
    seen: list[str] = []
    db.set_trace_callback(seen.append)
    try:
        _sqlmemo.query(db, sql, bound)
    finally:
        db.set_trace_callback(None)
    return sum(1 for s in seen if not s.startswith("EXPLAIN"))


ORDERS = "SELECT COUNT(*), SUM(total_cents) FROM orders WHERE customer_id <> :c"


def test_a_query_over_unchanged_tables_runs_once_per_snapshot() -> None:
    _sqlmemo.clear()
    first, second = _state(), _state("UPDATE tickets SET status = status")
    assert _runs(first, ORDERS, {"c": 1}) == 1
    assert _runs(second, ORDERS, {"c": 1}) == 0  # another database, the same tables
    assert _runs(second, ORDERS, {"c": 2}) == 1  # other parameters: run
    assert _runs(second, ORDERS, {"c": 2.0}) == 1  # another type is another binding
    assert _sqlmemo.query(second, ORDERS, {"c": 1}) == _sqlmemo.query(first, ORDERS, {"c": 1})


def test_a_query_over_a_changed_table_always_runs() -> None:
    _sqlmemo.clear()
    _runs(_state(), ORDERS, {"c": 1})
    changed = _state(
        "UPDATE orders SET total_cents = total_cents + 1 WHERE id = (SELECT MIN(id) FROM orders)"
    )
    assert "orders" not in changed.same_as_base  # type: ignore[attr-defined]
    assert _runs(changed, ORDERS, {"c": 1}) == 1
    fresh = _state()
    assert _sqlmemo.query(changed, ORDERS, {"c": 1}) != _sqlmemo.query(fresh, ORDERS, {"c": 1})


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT random() FROM orders LIMIT 1",
        "SELECT COUNT(*), datetime('now') FROM orders",
        "SELECT COUNT(*) FROM orders, json_each('[1, 2]')",
        "SELECT COUNT(*) FROM sqlite_master",
        "PRAGMA table_info(orders)",
    ],
)
def test_queries_that_may_read_more_than_snapshot_tables_always_run(sql: str) -> None:
    _sqlmemo.clear()
    db = _state()
    assert _runs(db, sql, {}) == 1
    assert _runs(db, sql, {}) == 1


def test_a_changed_schema_is_never_answered_from_the_memo() -> None:
    _sqlmemo.clear()
    _runs(_state(), ORDERS, {"c": 1})
    db = _state("CREATE INDEX extra_idx ON orders(total_cents)")
    assert not db.schema_is_base  # type: ignore[attr-defined]
    assert _runs(db, ORDERS, {"c": 1}) == 1


def test_money_mentions_are_the_callers_own() -> None:
    text = "Refunded $12.50 and $3.00."
    first = _money.money_mentions(text)
    first.clear()
    assert [m.cents for m in _money.money_mentions(text)] == [1250, 300]


def test_a_lexicons_tables_are_made_once() -> None:
    from mcpgym_grading._terms import Lexicon, LexiconItem, _split_glued, _tables

    lex = Lexicon(items={"billing": LexiconItem(names=("billing",))})
    assert _tables(lex) is _tables(lex)  # noqa: SLF001
    single, _phrases, units = _tables(lex)  # noqa: SLF001
    words = _split_glued("our billingteam and the billing teams", units, single)  # noqa: SLF001
    assert [w for w, _a, _b in words] == [
        "our",
        "billing",
        "team",
        "and",
        "the",
        "billing",
        "teams",
    ]
