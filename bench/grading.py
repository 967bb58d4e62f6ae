"""Benchmark: sealing, bundle size and grading by page delta, against the whole-file path.

Usage::

    uv run python bench/grading.py [--scales 1,10,100] [--seeds 2] [--store-dir DIR]

For each scale a child process loads helpdesk; above 1x its snapshot is inflated (rows
copied into ``audit_log``, a table every no-collateral check compares) to that multiple
of the 1.07 MB file. Reference and null episodes (every family x band at 1x, fewer above)
run on two episode managers side by side in the same process:

- ``before``: today's code path before page deltas, kept callable for this comparison:
  sealing gzips the whole database (format 1, ``bench/_servers.legacy_sealing``); grading
  reads it back (gunzip + sha256), recomputes the lock per bundle (`compute_lock`) and
  compares every table (``grade_bundle(..., skip_unchanged_tables=False)``);
- ``rebuilt``: grading the same page-delta bundles as ``after``, the way it was before the
  final state was opened in place: the final database rebuilt as bytes from the snapshot,
  its whole-file sha256 checked against ``final_sha256``, copied into SQLite
  (``deserialize``), and the reference end state rebuilt and copied per grade;
- ``after``: page-delta bundles (format 2); grading opens the final state in place on the
  snapshot (copy-on-write mapping, `mcpgym_grading._cow`) and checks the pages the delta
  wrote against ``final_pages_sha256``; reference end states are opened the same way and
  kept open between grades; the lock is computed once per environment, and only changed
  tables and leaf pages are read.

Both managers write to ``--store-dir`` (default: a folder in /dev/shm when it exists, so
that the figures are the CPU cost, not this machine's file creation). Prints medians per
bundle: sealing ms, bundle KB, read + grade ms (CPU time of the thread, which this shared
machine's load does not inflate; wall time printed too), and the ratio after / before; the aims
(issue 12 §1): grading <= 5 ms, sealing <= 2 ms, bundles <= 20 KB at 1x. Grades of the
two paths are checked equal.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _inflate(env: object, scale: int) -> None:
    """Replace the loaded snapshot's bytes by a copy grown ``scale`` times (audit_log rows)."""
    import sqlite3

    snapshot = env.snapshot  # type: ignore[attr-defined]
    data = snapshot.data
    db = sqlite3.connect(":memory:")
    db.deserialize(data)
    target = len(data) * scale
    cols = "at, actor, action, entity, entity_id, detail"
    while len(db.serialize()) < target:
        db.execute(
            f"INSERT INTO audit_log ({cols}) SELECT at, actor, action, entity, entity_id, "
            "detail FROM audit_log ORDER BY id LIMIT 20000"
        )
    big = db.serialize()
    import hashlib

    from mcpgym_server import _snapshot as snapshot_mod

    snapshot.__dict__["data"] = big
    snapshot.__dict__["sha256"] = hashlib.sha256(big).hexdigest()
    snapshot.declared_sha256 = None
    snapshot_mod._LOADED[snapshot.sha256] = snapshot  # noqa: SLF001


def _dir_kb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.iterdir()) / 1024


def child(scale: int, seeds: int, store_root: Path) -> dict[str, object]:
    """Run one scale in this process; returns the per-bundle figures."""
    sys.path.insert(0, str(HERE))
    from _servers import legacy_sealing  # type: ignore[import-not-found]

    from mcpgym_grading import ReferenceCache, grade_bundle
    from mcpgym_server import EpisodeManager, EpisodeStore, compute_lock, load_environment

    env = load_environment("helpdesk")
    if scale > 1:
        _inflate(env, scale)
    size = len(env.snapshot.data)
    stores = {k: EpisodeStore(store_root / f"{scale}-{k}") for k in ("before", "after")}
    managers = {k: EpisodeManager(env, s, max_open=10) for k, s in stores.items()}
    legacy_sealing(managers["before"])
    bands = ("easy", "medium", "hard") if scale == 1 else ("medium",)
    jobs = [
        (fam, band, seed, agent)
        for fam in sorted(env.families)
        for band in bands
        for seed in range(seeds if scale == 1 else 1)
        for agent in (("reference", "null") if scale < 100 else ("reference",))
    ]
    seal: dict[str, list[float]] = {"before": [], "after": []}
    seal_wall: dict[str, list[float]] = {"before": [], "after": []}
    kb: dict[str, list[float]] = {"before": [], "after": []}
    ids: list[dict[str, str]] = []
    for fam, band, seed, agent in jobs:
        v = env.variant(fam, band, seed)
        calls = v.reference if agent == "reference" else ()
        pair = {}
        for key in ("before", "after") if len(ids) % 2 else ("after", "before"):
            m = managers[key]
            ep = m.open(fam, band, seed)
            for c in calls:
                if m.is_open(ep.id):
                    m.call(ep.id, c.name, dict(c.arguments))
            t0, c0 = time.perf_counter(), time.thread_time()
            m.seal(ep.id, "ended", answer=v.answer if agent == "reference" else None)
            seal[key].append((time.thread_time() - c0) * 1000)
            seal_wall[key].append((time.perf_counter() - t0) * 1000)
            kb[key].append(_dir_kb(stores[key].path(ep.id)))
            pair[key] = ep.id
        ids.append(pair)
    from mcpgym_grading import _cow

    caches = {
        "before": ReferenceCache(),
        "rebuilt": ReferenceCache(max_open_bytes=0),
        "after": ReferenceCache(),
    }

    def grade(key: str, eid: str) -> object:
        if key == "before":
            compute_lock(env)  # recomputed per bundle before the cache
            bundle = stores[key].read(eid)
            return grade_bundle(
                bundle, env, reference_cache=caches[key], skip_unchanged_tables=False
            )
        if key == "rebuilt":
            _cow._usable = False  # noqa: SLF001 - the path before in-place opening
            try:
                return grade_bundle(stores["after"].read(eid), env, reference_cache=caches[key])
            finally:
                _cow._usable = None  # noqa: SLF001
        return grade_bundle(stores[key].read(eid), env, reference_cache=caches[key])

    ways = ("before", "rebuilt", "after")
    for pair in ids:  # warm the reference caches (built once per variant in every path)
        pair["rebuilt"] = pair["after"]
        for key in ways:
            grade(key, pair[key])
    ms: dict[str, list[float]] = {k: [] for k in ways}
    ms_wall: dict[str, list[float]] = {k: [] for k in ways}
    for i, pair in enumerate(ids):
        grades = {}
        for key in ways[i % 3 :] + ways[: i % 3]:  # the order rotating
            t0, c0 = time.perf_counter(), time.thread_time()
            grades[key] = grade(key, pair[key])
            ms[key].append((time.thread_time() - c0) * 1000)
            ms_wall[key].append((time.perf_counter() - t0) * 1000)
        a = grades["before"].model_dump()  # type: ignore[attr-defined]
        a.pop("episode_id")
        for key in ("rebuilt", "after"):
            b = grades[key].model_dump()  # type: ignore[attr-defined]
            b.pop("episode_id")
            assert a == b, (pair, a, b)
    med = statistics.median
    return {
        "scale": scale,
        "snapshot_mb": size / 1e6,
        "bundles": len(ids),
        **{f"seal_{k}": med(v) for k, v in seal.items()},
        **{f"kb_{k}": med(v) for k, v in kb.items()},
        **{f"grade_{k}": med(v) for k, v in ms.items()},
        **{f"seal_wall_{k}": med(v) for k, v in seal_wall.items()},
        **{f"grade_wall_{k}": med(v) for k, v in ms_wall.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", default="1,10,100")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--store-dir", default=None)
    parser.add_argument("--child", type=int, default=None)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child, args.seeds, Path(args.store_dir))))
        return
    shm = Path("/dev/shm")
    root = Path(
        args.store_dir
        or tempfile.mkdtemp(prefix="mcpgym-bench-", dir=shm if shm.is_dir() else None)
    )
    rows = []
    try:
        for scale in (int(s) for s in args.scales.split(",")):
            cmd = [sys.executable, __file__, "--child", str(scale), "--seeds", str(args.seeds)]
            proc = subprocess.run(
                [*cmd, "--store-dir", str(root)], check=True, capture_output=True, text=True
            )
            rows.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    finally:
        if args.store_dir is None:
            shutil.rmtree(root, ignore_errors=True)
    print(f"store: {root}; medians per bundle of the thread's CPU time (wall time below);")
    print("before = the whole-file path, measured in the same run, interleaved")
    print("read+grade: rebuilt = page-delta bundles rebuilt, re-hashed and copied per grade")
    head = (
        "scale",
        "snapshot",
        "n",
        "seal ms",
        "",
        "ratio",
        "bundle KB",
        "",
        "ratio",
        "read+grade ms",
        "",
        "ratio",
    )
    print("{:<6}{:>9}{:>5} {:>8}{:>8}{:>7} {:>10}{:>8}{:>7} {:>14}{:>8}{:>7}".format(*head))
    print(
        "{:<6}{:>9}{:>5} {:>8}{:>8}{:>7} {:>10}{:>8}{:>7} {:>14}{:>8}{:>7}".format(
            "", "MB", "", "before", "after", "", "before", "after", "", "before", "after", ""
        )
    )
    for r in rows:
        print(
            f"{r['scale']:<6}{r['snapshot_mb']:>9.1f}{r['bundles']:>5} "
            f"{r['seal_before']:>8.2f}{r['seal_after']:>8.2f}"
            f"{r['seal_after'] / r['seal_before']:>7.3f} "
            f"{r['kb_before']:>10.1f}{r['kb_after']:>8.1f}{r['kb_after'] / r['kb_before']:>7.3f} "
            f"{r['grade_before']:>14.2f}{r['grade_after']:>8.2f}"
            f"{r['grade_after'] / r['grade_before']:>7.3f}"
            f"   rebuilt {r['grade_rebuilt']:.2f} (after/rebuilt "
            f"{r['grade_after'] / r['grade_rebuilt']:.3f})"
        )
    for r in rows:
        print(
            f"wall ms at {r['scale']}x: seal {r['seal_wall_before']:.2f} -> "
            f"{r['seal_wall_after']:.2f}, read+grade {r['grade_wall_before']:.2f} -> "
            f"{r['grade_wall_after']:.2f} (rebuilt {r['grade_wall_rebuilt']:.2f})"
        )
    one = next((r for r in rows if r["scale"] == 1), None)
    if one is not None:
        for what, key, aim in (
            ("grading", "grade_after", 5.0),
            ("sealing", "seal_after", 2.0),
            ("bundle", "kb_after", 20.0),
        ):
            ok = "ok" if one[key] <= aim else "MISSED"
            print(f"aim at 1x: {what} {one[key]:.2f} <= {aim} {ok}")


if __name__ == "__main__":
    main()
