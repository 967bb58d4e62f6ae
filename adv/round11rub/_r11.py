# ruff: noqa  (a probe script, not product code)
"""Round 11 (ledger rubrics) probe harness: round 10's `_r.py` (replay a mutated reference and
grade it in process), plus edits of any tool argument."""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round10rub")
from _r import N, edit, env, final_rows, grade, report, run  # noqa: E402,F401
from mcpgym_server import ToolCall  # noqa: E402,F401

L = env("ledger")
B = ("easy", "medium", "hard", "expert")


def arg(tool: str, key: str, fn):
    """Mutate: fn(v, value) replaces argument `key` of every `tool` call of the reference."""
    return lambda v: edit(v, tool, lambda a: {**a, key: fn(v, a[key])} if key in a else a)


def note(fn):
    return arg("add_note", "body", fn)


def then(*muts):
    """Apply several mutations in turn (each takes a variant and returns calls)."""

    def go(v):
        calls = list(v.reference)
        for m in muts:
            calls = m(_V(v, calls))
            if calls is None:
                return None
        return calls

    return go


class _V:
    """A variant whose reference is replaced (to chain edits)."""

    def __init__(self, v, calls):
        self._v, self.reference = v, calls

    def __getattr__(self, k):
        return getattr(self._v, k)
