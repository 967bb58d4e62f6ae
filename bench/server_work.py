"""Benchmark: the servers' own work per episode (sealing, grading), this code against a git ref.

Usage::

    uv run python bench/server_work.py [--before REF] [--rounds 3] [--seeds 3] [--dir DIR]

In a child process per way and round (the ways alternating, so that load hits both
alike), helpdesk reference episodes of every family x band x ``--seeds`` run in process on
an `EpisodeManager` with a signed store on disk (``--dir``, default the system temp
directory: the disk a campaign's store is on), and each is graded as the grading service
grades it (`_GradingService.compute`: the bundle read and verified, then `grade_bundle`,
reference end states cached). Every variant runs once to warm up, then ``--rounds`` times
more; the figures are medians per episode of the thread's CPU time:

- ``seal``: the ``submit`` call, which seals the episode (page delta, digests, gzip,
  signature, the bundle's files);
- ``grade``: reading, verifying and grading the bundle.

The reference agent submits the same answer for a variant every time, so from the second
episode of a variant on, its answer's text view is remembered (as in a campaign of the
reference agent, not in one of a model); ``--clear-caches`` empties the remembered views
before each grade, leaving only the reuse inside one grade.

*before* is the server and grading packages of ``--before`` (default ``main``), taken
with ``git archive`` and put first on ``PYTHONPATH``; *after* is this checkout. The grades
of the two ways are checked equal (their JSON without the episode id).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import hashlib, json, statistics, sys, tempfile, time
from pathlib import Path
from mcpgym_server import EpisodeManager, load_environment
from mcpgym_server.bundles import EpisodeStore
from mcpgym_grading._reference import ReferenceCache
from mcpgym_grading.service import _GradingService

store_dir, seeds, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
clear = sys.argv[4] == "1"
from mcpgym_grading import _text
caches = [getattr(_text, n) for n in ("_cached_view", "_value_forms") if hasattr(_text, n)]
env = load_environment("helpdesk")
root = Path(tempfile.mkdtemp(dir=store_dir))
key = "k" * 32
manager = EpisodeManager(env, EpisodeStore(root, sign_key=key))
service = _GradingService(
    EpisodeStore(root, create=False), "t", lambda name: env, None, ReferenceCache(), key
)
variants = [(f, b, s) for f, fam in env.families.items() for b in fam.bands for s in range(seeds)]
grades = hashlib.sha256()

def episode(v, record):
    ep = manager.open(*v)
    for call in ep.variant.reference:
        manager.call(ep.id, call.name, dict(call.arguments))
    t0 = time.thread_time()
    if manager.is_open(ep.id):
        answer = ep.variant.answer
        manager.call(ep.id, "submit", {} if answer is None else {"answer": answer})
    if clear:
        for cache in caches:
            cache.cache_clear()
    t1 = time.thread_time()
    grade = service.compute(ep.id)
    t2 = time.thread_time()
    if record:
        body = grade.model_dump(mode="json")
        body.pop("episode_id")
        grades.update(json.dumps(body, sort_keys=True).encode())
    return t1 - t0, t2 - t1

for v in variants:
    episode(v, False)
seal, grade = [], []
for r in range(rounds):
    for v in variants:
        a, b = episode(v, r == 0)
        seal.append(a)
        grade.append(b)
print(json.dumps({"seal": statistics.median(seal) * 1e3, "grade": statistics.median(grade) * 1e3,
                  "n": len(seal), "grades": grades.hexdigest()}))
"""


def _before_tree(ref: str, into: Path) -> Path:
    """The ``server/src`` and ``grading/src`` trees of ``ref`` under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "server/src", "grading/src"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _run(
    pythonpath: str | None, store_dir: str, seeds: int, rounds: int, clear: bool
) -> dict[str, float]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(
        [sys.executable, "-c", CHILD, store_dir, str(seeds), str(rounds), str(int(clear))],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    """Alternate the two ways' child processes and print medians and ratios."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", default="main", help="git ref of the before way")
    ap.add_argument("--rounds", type=int, default=3, help="child processes per way")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--dir", default=tempfile.gettempdir(), help="where the stores go")
    ap.add_argument(
        "--clear-caches",
        action="store_true",
        help="empty the remembered text views before each grade (no reuse across bundles)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = _before_tree(args.before, Path(tmp))
        before_path = f"{tree / 'server' / 'src'}{os.pathsep}{tree / 'grading' / 'src'}"
        runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for i in range(args.rounds):
            order = ["before", "after"] if i % 2 == 0 else ["after", "before"]
            for way in order:
                path = before_path if way == "before" else None
                got = _run(path, args.dir, args.seeds, 1, args.clear_caches)
                runs[way].append(got)
                print(f"round {i} {way}: seal {got['seal']:.3f} ms, grade {got['grade']:.3f} ms")
    digests = {r["grades"] for rs in runs.values() for r in rs}
    same = "same grades" if len(digests) == 1 else f"GRADES DIFFER ({len(digests)} digests)"
    load = os.getloadavg()[0]
    n = int(runs["after"][0]["n"])
    print(f"\n{n} episodes a process, medians of {args.rounds} processes a way, load {load:.1f}")
    print("| part | before | after | after / before |")
    print("|---|---|---|---|")
    for part in ("seal", "grade"):
        b = statistics.median(r[part] for r in runs["before"])
        a = statistics.median(r[part] for r in runs["after"])
        print(f"| {part} | {b:.3f} ms | {a:.3f} ms | {a / b:.2f} |")
    b = statistics.median(r["seal"] + r["grade"] for r in runs["before"])
    a = statistics.median(r["seal"] + r["grade"] for r in runs["after"])
    print(f"| seal + grade | {b:.3f} ms | {a:.3f} ms | {a / b:.2f} |")
    print(same)


if __name__ == "__main__":
    main()
