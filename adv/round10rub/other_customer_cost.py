# ruff: noqa  (a probe script, not product code)
"""Cost of `texts-reveal-no-other-customer` (P1): grade the reference bundles of every
helpdesk family x band, seeds 0..N-1, with the family rubrics as they are ("with") and with
that one check taken out ("without"), interleaved in one process so the shared machine's
load falls on both alike (each bundle graded both ways in turn, which goes first
alternating). Prints the median and mean CPU time of the grading thread per
grade (`time.thread_time`, which other processes' load does not inflate) and the wall time, and the check's own CPU time (its evaluation timed alone).

Run: PYTHONPATH=. uv run python adv/round10rub/other_customer_cost.py [NSEEDS] [ROUNDS]
"""

import statistics
import sys
import time

from mcpgym_grading import ReferenceCache, Rubric, engine, grade_bundle
from mcpgym_helpdesk import environment as env
from mcpgym_server import replay

NAME = "texts-reveal-no-other-customer"
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
N = int(ARGS[0]) if ARGS else 2
ROUNDS = int(ARGS[1]) if len(ARGS) > 1 else 5
FAMS = sorted(env.families)
BANDS = ("easy", "medium", "hard", "expert")
cache = ReferenceCache(maxsize=1024)
bundles = [
    replay(env, f, b, s, env.variant(f, b, s).reference)
    for f in FAMS
    for b in BANDS
    for s in range(N)
]
with_ = {f: env.family(f).rubric for f in FAMS}
has = {f: any(c.name == NAME for c in r.checks) for f, r in with_.items()}
without = {
    f: Rubric(
        checks=tuple(c for c in r.checks if c.name != NAME),
        threshold=r.threshold,
        volatile_columns=r.volatile_columns,
    )
    for f, r in with_.items()
}
print(f"{len(bundles)} reference bundles; families with {NAME}: {sum(has.values())}/{len(FAMS)}")


check_ms: list[float] = []
_evaluate = engine._evaluate


def _timed(check, ctx):  # the check's own CPU time, whatever else the machine runs
    if check.name != NAME:
        return _evaluate(check, ctx)
    c0 = time.thread_time()
    try:
        return _evaluate(check, ctx)
    finally:
        check_ms.append((time.thread_time() - c0) * 1000)


engine._evaluate = _timed


def grade_one(b, rubrics) -> tuple[float, float]:
    object.__setattr__(env.family(b.meta.task), "rubric", rubrics[b.meta.task])
    c0, w0 = time.thread_time(), time.perf_counter()
    g = grade_bundle(b, env, reference_cache=cache, check_lock=False)
    cpu, wall = (time.thread_time() - c0) * 1000, (time.perf_counter() - w0) * 1000
    assert g.passed, (b.meta.variant_id, [c.name for c in g.checks if c.passed is False])
    return cpu, wall


CONFIGS = (("with", with_), ("without", without))
res: dict[str, tuple[list[float], list[float]]] = {"with": ([], []), "without": ([], [])}
try:
    for b in bundles:  # warm: reference end states, memos
        for _, rubrics in CONFIGS:
            grade_one(b, rubrics)
    check_ms.clear()
    for r in range(ROUNDS):
        for i, b in enumerate(bundles):  # each bundle graded both ways, in turn first
            for key, rubrics in CONFIGS if (i + r) % 2 == 0 else CONFIGS[::-1]:
                cpu, wall = grade_one(b, rubrics)
                res[key][0].append(cpu)
                res[key][1].append(wall)
finally:
    for f, r in with_.items():
        object.__setattr__(env.family(f), "rubric", r)
for key, (cpu, wall) in res.items():
    print(
        f"{key:8s} cpu ms/grade median {statistics.median(cpu):6.2f} mean {statistics.mean(cpu):6.2f}"
        f" | wall median {statistics.median(wall):6.2f} mean {statistics.mean(wall):6.2f}"
        f" ({len(cpu)} grades)"
    )
m_with, m_without = (statistics.mean(res[k][0]) for k in ("with", "without"))
print(
    f"added by {NAME}: {m_with - m_without:+.2f} ms cpu/grade ({(m_with / m_without - 1) * 100:+.1f}%)"
)
if check_ms:
    own = statistics.mean(check_ms)
    print(
        f"{NAME} alone: mean {own:.3f} ms cpu, median {statistics.median(check_ms):.3f} "
        f"({own / m_without * 100:.1f}% of a grade without it)"
    )
