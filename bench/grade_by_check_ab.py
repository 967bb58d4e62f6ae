"""Benchmark: `bench/grade_by_check.py` (first-seen helpdesk grades, thread CPU by check) for
another tree's grading code and this tree's, alternating, in one run: the ratio of the two.

Usage::

    mkdir -p /tmp/base && git archive main grading/src bench | tar -x -C /tmp/base
    uv run python bench/grade_by_check_ab.py --base /tmp/base --seeds 3 --rounds 2

Each round runs ``grade_by_check.py SEEDS`` twice in child processes, the order alternating
round by round: once with ``BASE/grading/src`` first on ``PYTHONPATH`` and ``BASE/bench``'s
own script (the base's text caches emptied by the base's own list), once with this tree's.
Prints each run's mean ms a grade and the load, the mean of the rounds per way, their ratio,
and the ratio for each check both ways list. Grades are not compared here
(`bench/grade_equal.py` does that).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

_TOTAL = re.compile(r"(\d+) grades, ([\d.]+) ms a grade; load ([\d.]+)")
_CHECK = re.compile(r"^\s+([\d.]+) ms\s+(\S+)$")


def _run(bench: Path, seeds: int, src: Path | None) -> tuple[float, float, dict[str, float]]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = (
            f"{src}{os.pathsep}{env['PYTHONPATH']}" if env.get("PYTHONPATH") else str(src)
        )
    out = subprocess.run(
        [sys.executable, str(bench / "grade_by_check.py"), str(seeds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total = _TOTAL.search(out)
    if total is None:
        raise SystemExit(f"no total in the output of {bench}:\n{out}")
    checks = {m.group(2): float(m.group(1)) for m in map(_CHECK.match, out.splitlines()) if m}
    return float(total.group(2)), float(total.group(3)), checks


def main() -> None:
    """Run both ways alternately and print the ratios."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--base", required=True, help="a tree holding grading/src and bench")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    base = Path(args.base)
    here = Path(__file__).resolve().parent
    ways = {
        "base": (base / "bench", base / "grading" / "src"),
        "this": (here, None),
    }
    got: dict[str, list[tuple[float, float, dict[str, float]]]] = {w: [] for w in ways}
    for r in range(args.rounds):
        order = list(ways) if r % 2 == 0 else list(reversed(ways))
        for way in order:
            bench, src = ways[way]
            got[way].append(_run(bench, args.seeds, src))
            ms, load, _ = got[way][-1]
            print(f"round {r} {way}: {ms:.2f} ms a grade, load {load:.1f}", flush=True)
    mean = {w: statistics.mean(ms for ms, _, _ in runs) for w, runs in got.items()}
    print(
        f"mean ms a grade: base {mean['base']:.2f}, this {mean['this']:.2f}, "
        f"this/base x{mean['this'] / mean['base']:.3f}"
    )
    checks = {
        w: {
            name: statistics.mean(run[2].get(name, 0.0) for run in runs)
            for name in set().union(*(run[2] for run in runs))
        }
        for w, runs in got.items()
    }
    both = sorted(set(checks["base"]) & set(checks["this"]), key=lambda n: -checks["base"][n])
    print("check (ms a grade, the 15 costliest of each run)   base    this   this/base")
    for name in both:
        b, t = checks["base"][name], checks["this"][name]
        print(f"  {name:44s} {b:6.3f}  {t:6.3f}  x{t / b:.3f}")


if __name__ == "__main__":
    main()
