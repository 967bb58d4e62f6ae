"""Issue 12: `texts-state-posting-months` before and after its by-hand reversals were
materialized once (`mcpgym_ledger.families._posting_months.POSTING_MONTHS_SQL`), on real end
states: the same rows, and the time of each.

Usage::

    nice uv run python adv/round20rub/posting_sql20.py [SEEDS] [REPEATS] [FAMILIES]

Every ledger family x band x seed ``0..SEEDS-1`` (default 3) runs the reference and the null
agent; every family x band at seed 0 runs the gate's control mutants
(`mcpgym_clients.instrument.controls.mutants`) and adversarial mutants
(`mcpgym_clients.instrument.adversarial.adversaries`), as `bench/grade_equal.py` builds them.
On each sealed end state both statements run (the "before" one is built from the file at
commit `BEFORE`) twice: with the real `mcpgym_posting_misdated` (the check's rows), and with
it replaced by a function that returns its arguments (so the months each text is read
against are compared too, not only the rows, which are empty on honest end states). Then each
runs ``REPEATS`` times (default 5), alternating, with the real function warm; prints counts
equal/different, the first differences, and the median milliseconds of each. Asserts nothing.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.controls import mutants
from mcpgym_grading._statepages import StateConnection
from mcpgym_grading._values import register_sql_functions
from mcpgym_ledger.families import _posting_months
from mcpgym_server import SUBMIT_TOOL, MemoryEpisodeStore, load_environment
from mcpgym_server.runtime import EpisodeManager

BEFORE = "d5801f1"
"""The commit (branch ``adv30l``) whose `POSTING_MONTHS_SQL` repeats the subquery six times."""
_PATH = "environments/ledger/src/mcpgym_ledger/families/_posting_months.py"


def _before_sql() -> str:
    root = Path(__file__).resolve().parents[2]
    src = subprocess.run(
        ["git", "-C", str(root), "show", f"{BEFORE}:{_PATH}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    mod = types.ModuleType("_posting_months_before")
    exec(compile(src, "_posting_months_before", "exec"), mod.__dict__)  # noqa: S102
    return mod.POSTING_MONTHS_SQL


def _echo(*args: Any) -> str:
    return json.dumps(args)


def _rows(db: Any, sql: str, echo: bool) -> list[tuple[Any, ...]]:
    if echo:
        for n in (5, 6):
            db.create_function("mcpgym_posting_misdated", n, _echo, deterministic=True)
    else:
        register_sql_functions(db)
    return db.execute(sql).fetchall()


def _ms(db: Any, sql: str) -> float:
    t0 = time.perf_counter()
    db.execute(sql).fetchall()
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    """Run the comparison (see the module docstring); prints the figures."""
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else None
    old_sql, new_sql = _before_sql(), _posting_months.POSTING_MONTHS_SQL
    print(f"statement: {len(old_sql)} chars before, {len(new_sql)} after")
    env = load_environment("ledger")
    store = MemoryEpisodeStore()
    manager = EpisodeManager(
        env, store, connection_factory=StateConnection, keep_final_db=True, max_open=16
    )
    runs: list[tuple[str, str, str, int, list[Any]]] = []
    for fam in sorted(only or env.families):
        for band in env.family(fam).bands:
            for seed in range(seeds):
                v = env.variant(fam, band, seed)
                ref = [(c.name, dict(c.arguments)) for c in v.reference]
                ref.append((SUBMIT_TOOL, {"answer": v.answer}))
                runs.append((f"{fam}/{band}/{seed}/reference", fam, band, seed, ref))
                runs.append((f"{fam}/{band}/{seed}/null", fam, band, seed, []))
            v = env.variant(fam, band, 0)
            for label, calls in mutants(env, v):
                runs.append((f"{fam}/{band}/0/mutant/{label}", fam, band, 0, list(calls)))
            for adv in adversaries(env, v):
                runs.append(
                    (f"{fam}/{band}/0/adversarial/{adv.label}", fam, band, 0, list(adv.calls))
                )
    equal = differ = echo_equal = echo_differ = nonempty = 0
    ms_old: list[float] = []
    ms_new: list[float] = []
    diffs: list[str] = []
    for label, fam, band, seed, calls in runs:
        ep = manager.open(fam, band, seed)
        answer = None
        for name, args in calls:
            if name == SUBMIT_TOOL:
                answer = args.get("answer") if isinstance(args.get("answer"), str) else None
                break
            if manager.is_open(ep.id):
                manager.call(ep.id, name, dict(args))
        manager.seal(ep.id, "ended", answer=answer)
        db = manager.take_final_db(ep.id)
        store.take(ep.id)
        assert db is not None
        try:
            a, b = _rows(db, old_sql, True), _rows(db, new_sql, True)
            echo_equal += a == b
            echo_differ += a != b
            if a != b:
                diffs.append(f"echo {label}: {a[:2]} vs {b[:2]}")
            a, b = _rows(db, old_sql, False), _rows(db, new_sql, False)
            equal += a == b
            differ += a != b
            nonempty += bool(a)
            if a != b:
                diffs.append(f"rows {label}: {a[:2]} vs {b[:2]}")
            for i in range(repeats):
                for sql, out in ((old_sql, ms_old), (new_sql, ms_new))[:: 1 if i % 2 else -1]:
                    out.append(_ms(db, sql))
        finally:
            db.close()
    print(f"{len(runs)} end states ({seeds} seeds; reference, null, mutants, adversaries)")
    print(f"rows: {equal} equal, {differ} differ ({nonempty} end states with rows)")
    print(f"arguments of every mcpgym_posting_misdated call: {echo_equal} equal, "
          f"{echo_differ} differ")  # fmt: skip
    for d in diffs[:20]:
        print("  ", d)
    mo, mn = statistics.median(ms_old), statistics.median(ms_new)
    print(
        f"ms per run ({len(ms_old)} each): before median {mo:.2f} mean "
        f"{statistics.mean(ms_old):.2f} | after median {mn:.2f} mean "
        f"{statistics.mean(ms_new):.2f} | before/after median {mo / mn:.1f}x, "
        f"total {sum(ms_old) / sum(ms_new):.1f}x"
    )


if __name__ == "__main__":
    main()
