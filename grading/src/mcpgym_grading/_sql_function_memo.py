"""The grading SQL functions' results, remembered per (function, arguments) across grades.

`mcpgym_grading._values.register_sql_functions` makes Python functions callable in a
check's SQL (``mcpgym_misstated(reply, value)``, ``mcpgym_stated_other(...)``...). Each
is a pure function of its arguments: it reads nothing but them and constant tables (no
clock, no environment, no connection), returns a text, a number or NULL, and is registered
``deterministic=True`` (SQLite may already call it once for equal arguments). Several
checks of a rubric call the same function on the same reply, and the grades of one
variant's episodes meet the same replies again (a regrade, a resumed campaign, agents that
answer alike), so a result is kept in `SQL_FUNCTION_MEMO` by the function's name, its
number of arguments and the arguments with their types (``1`` and ``1.0`` are different
keys, a float is keyed by its exact bits: ``-0.0`` is not ``0.0``).

Not kept: a call that raises (SQLite turns it into an error of the check; it raises again
the next time), and calls whose text and blob arguments pass `MAX_CHARS` characters in all.
At most `MAX_ENTRIES` results, least recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

MAX_ENTRIES = 4096
"""Results kept (a helpdesk reference grade makes ~13 distinct calls: ~1,800 over a
140-variant pass)."""

MAX_CHARS = 8192
"""Calls whose text and blob arguments hold more characters than this (in all) are not
kept, so the memo holds at most ~32 M characters of keys."""


class MemoInfo(NamedTuple):
    """`FunctionMemo.cache_info`: calls answered from the memo and computed, results kept."""

    hits: int
    misses: int
    currsize: int


def _typed(value: Any) -> tuple[type, Any]:
    if type(value) is float:
        return (float, value.hex())
    return (type(value), value)


class FunctionMemo:
    """Results of pure SQL functions by ``(name, nargs, typed arguments)``; `wrap` makes a
    function that answers from it. ``enabled = False`` calls the functions each time
    (benchmarks)."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self.enabled = True
        self._results: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    def wrap(self, name: str, nargs: int, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` (a pure function of its ``nargs`` SQL arguments, registered as ``name``)
        answering from the memo: the same result for the same arguments, or its exception."""

        def call(*args: Any) -> Any:
            if not self.enabled:
                return fn(*args)
            size = sum(len(a) for a in args if isinstance(a, str | bytes))
            if size > MAX_CHARS:
                return fn(*args)
            key = (name, nargs, *map(_typed, args))
            with self._lock:
                if key in self._results:
                    self._results.move_to_end(key)
                    self._hits += 1
                    return self._results[key]
                self._misses += 1
            result = fn(*args)  # outside the lock; an exception is not kept
            with self._lock:
                self._results[key] = result
                self._results.move_to_end(key)
                while len(self._results) > self.max_entries:
                    self._results.popitem(last=False)
            return result

        call.__wrapped__ = fn  # type: ignore[attr-defined]
        call.__name__ = getattr(fn, "__name__", name)
        return call

    def cache_clear(self) -> None:
        """Forget every result (tests, benchmarks)."""
        with self._lock:
            self._results.clear()
            self._hits = self._misses = 0

    def cache_info(self) -> MemoInfo:
        """Calls answered and computed since the last clear, and results kept."""
        with self._lock:
            return MemoInfo(self._hits, self._misses, len(self._results))


SQL_FUNCTION_MEMO = FunctionMemo()
"""The memo every connection's grading SQL functions share."""
