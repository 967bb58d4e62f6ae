"""The author kit, scenario side: what every environment's generators need.

A generator reads the immutable snapshot (``Generation.db``), draws from ``Generation.rng``
and returns a `VariantSpec` whose ``setup`` is a list of SQL statements applied to the fresh
sandbox at reset. These helpers make that short and deterministic:

- `fetch_rows` / `fetch_one`: typed row queries on the snapshot (plain dicts, or any row
  type built from keyword arguments: a dataclass, a TypedDict, a pydantic model);
- `max_id`: the highest id a table has used (its AUTOINCREMENT counter included);
- `pick` / `pick_where`: a seeded choice, with a clear error when nothing qualifies;
- `Scenario`: collects setup statements (`Scenario.insert`, `Scenario.update`,
  `Scenario.execute`) and allocates ids (`Scenario.next_id`, `Scenario.peek_id`) the way
  the tools will (max(id) + 1, then consecutive), so a reference call can name the id of a
  row the reference itself creates;
- `reference_call`: one call of the reference solution.

Every query a generator runs should order its rows (``ORDER BY id``) so that choices are
stable across SQLite versions. `fetch_rows` and `fetch_one` on ``Generation.db`` run each
distinct query once per process (the snapshot cannot change; each call still gets rows
of its own to change), so a generator may run the same queries for every seed.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, overload

from mcpgym_server._snapshot import FrozenSnapshot
from mcpgym_server._tasks import Generation, SetupStep, ToolCall

__all__ = [
    "Scenario",
    "fetch_one",
    "fetch_rows",
    "format_cents",
    "max_id",
    "pick",
    "pick_where",
    "reference_call",
]

R = TypeVar("R")

Params = Sequence[Any] | Mapping[str, Any]
"""SQL parameters: positional (``?``) or named (``:name``)."""


@overload
def fetch_rows(db: sqlite3.Connection, sql: str, params: Params = ()) -> list[dict[str, Any]]: ...


@overload
def fetch_rows(
    db: sqlite3.Connection, sql: str, params: Params = (), *, row_type: Callable[..., R]
) -> list[R]: ...


def fetch_rows(
    db: sqlite3.Connection,
    sql: str,
    params: Params = (),
    *,
    row_type: Callable[..., Any] | None = None,
) -> list[Any]:
    """Run a read query; every row as a ``{column: value}`` dict, or ``row_type(**row)``.

    Args:
        db: the snapshot connection (``Generation.db``) or any SQLite connection.
        sql: the query (order its rows for stable choices).
        params: positional or named parameters.
        row_type: optional constructor taking the columns as keyword arguments (a dataclass,
            a TypedDict, a pydantic model); a column it does not accept is a TypeError.

    Raises:
        sqlite3.Error: the query fails.
    """
    if isinstance(db, FrozenSnapshot):  # the generation view: read-only, results remembered
        cols, found = db.rows(sql, params)
    else:
        cur = db.execute(sql, params)
        cols = [c[0] for c in cur.description or ()]
        found = cur.fetchall()
    out = [dict(zip(cols, r, strict=True)) for r in found]
    if row_type is None:
        return out
    return [row_type(**r) for r in out]


def fetch_one(db: sqlite3.Connection, sql: str, params: Params = ()) -> dict[str, Any]:
    """The first row of a read query, as a dict.

    Raises:
        LookupError: the query returned no row (the message shows the query and params).
    """
    found = fetch_rows(db, sql, params)
    if not found:
        raise LookupError(f"snapshot query returned no row: {sql} {params}")
    return found[0]


def max_id(db: sqlite3.Connection, table: str) -> int:
    """The highest id ``table`` has used: its max(id), or its AUTOINCREMENT counter if higher.

    ``table`` is an identifier written by the author, never user text. 0 for an empty table.
    """
    top = int(db.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()[0])
    has_seq = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    ).fetchone()
    if has_seq:
        seq = db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        if seq is not None:
            top = max(top, int(seq[0]))
    return top


def pick(rng: random.Random, candidates: Sequence[R], what: str) -> R:
    """``rng.choice`` with a clear error when the snapshot offers no candidate.

    Raises:
        LookupError: ``candidates`` is empty (the message names ``what``).
    """
    if not candidates:
        raise LookupError(f"the snapshot has no candidate for {what}")
    return candidates[rng.randrange(len(candidates))]


def pick_where(
    rng: random.Random, candidates: Sequence[Any], ok: Callable[[Any], Any], what: str
) -> Any:
    """Draw candidates in a seeded random order; return the first one ``ok`` accepts.

    ``ok(candidate)`` returns a falsy value to reject, ``True`` to accept the candidate as it
    is, or any other truthy value, which is returned in its place (so the test can hand back
    what it worked out: the candidate with its chosen line, say).

    Raises:
        LookupError: no candidate was accepted (the message names ``what``).
    """
    order = list(range(len(candidates)))
    rng.shuffle(order)
    for i in order:
        got = ok(candidates[i])
        if got:
            return candidates[i] if got is True else got
    raise LookupError(f"the snapshot has no candidate for {what}")


def reference_call(name: str, /, **arguments: Any) -> ToolCall:
    """One call of a reference solution: ``reference_call("get_invoice", invoice_id=7)``."""
    return ToolCall(name=name, arguments=arguments)


def format_cents(cents: int) -> str:
    """Integer cents as dollars: ``12345 -> "$123.45"``, ``-500 -> "-$5.00"``."""
    sign = "-" if cents < 0 else ""
    cents = abs(int(cents))
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


class Scenario:
    """Collects the setup statements of a variant and allocates ids for the rows it inserts.

    Ids follow the schema's rule (max(id) + 1 in the snapshot, then consecutive), the rule
    SQLite applies when a tool inserts a row without an id, so `peek_id` tells the generator
    the id the reference's own first insert will get.

    Args:
        g: the generator's input; ``db`` and ``rng`` are kept as attributes.

    Attributes:
        setup: the statements so far, ``(sql, params)`` pairs in order (pass it as
            ``VariantSpec.setup``).
    """

    def __init__(self, g: Generation) -> None:
        self.g = g
        self.db = g.db
        self.rng = g.rng
        self.setup: list[SetupStep] = []
        self._next: dict[str, int] = {}

    def next_id(self, table: str) -> int:
        """Allocate the next id of ``table`` (for a row this scenario inserts)."""
        if table not in self._next:
            self._next[table] = max_id(self.db, table) + 1
        value = self._next[table]
        self._next[table] += 1
        return value

    def peek_id(self, table: str) -> int:
        """The id the next row inserted into ``table`` will get (by setup or by a tool)."""
        return self._next.get(table, max_id(self.db, table) + 1)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Append one setup statement."""
        self.setup.append((sql, list(params)))

    def insert(self, table: str, values: Mapping[str, Any]) -> int:
        """Append an INSERT of one row with an explicit id (from `next_id`); return the id."""
        row_id = self.next_id(table)
        cols = ["id", *values]
        marks = ", ".join("?" for _ in cols)
        self.execute(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})",
            [row_id, *values.values()],
        )
        return row_id

    def update(self, table: str, row_id: int, values: Mapping[str, Any]) -> None:
        """Append an UPDATE setting ``values`` on the row ``id = row_id`` of ``table``.

        Raises:
            ValueError: ``values`` is empty.
        """
        if not values:
            raise ValueError(f"Scenario.update({table!r}, {row_id}): no column to set")
        sets = ", ".join(f"{c} = ?" for c in values)
        self.execute(f"UPDATE {table} SET {sets} WHERE id = ?", [*values.values(), row_id])

    def rows(self, sql: str, params: Params = ()) -> list[dict[str, Any]]:
        """`fetch_rows` on the snapshot (the setup so far is not applied: plan ids with
        `peek_id` and keep what you inserted in local variables)."""
        return fetch_rows(self.db, sql, params)

    def pick_row(
        self, sql: str, what: str, ok: Callable[[dict[str, Any]], Any] = bool, params: Params = ()
    ) -> Any:
        """Pick a row where ``sql`` (and ``ok``, see `pick_where`) holds, drawn with ``rng``.

        Raises:
            LookupError: no row qualifies (the message names ``what``).
        """
        return pick_where(self.rng, self.rows(sql, params), ok, what)
