"""Probe: ``mcpgym eval helpdesk --backend ray`` while a process of Ray is killed under it.

Usage: ``uv run python adv/round18sys/p1_ray18.py WHAT [ROWS] [SEEDS]`` (``uv sync --frozen
--all-packages --extra ray`` first). ``WHAT``:

- ``gcs``: ``kill -9`` Ray's GCS (``gcs_server``) once ``ROWS`` episode rows are stored;
- ``raylet``: ``kill -9`` the raylet;
- ``actor``: ``kill -9`` the worker process of one environment actor (``ray::EnvironmentServer``);
- ``grader``: the same for a grading actor (``ray::GradingServer``);
- ``actors``: every environment actor at once, then again at the next ``ROWS`` rows;
- ``driver``: ``kill -9`` of the ``mcpgym eval`` process alone (not its group): are Ray's
  processes it started (GCS, raylet, workers, actors) left running? (listed 20 s after);
- ``none``: no kill (the control).

Then (not for ``none``) the same command again, to see whether it resumes the run and finishes.
Prints, for each ``mcpgym eval``: exit status, seconds from the kill to the exit, the last lines
of its output, and the run store's rows by (termination, scored). Asserts nothing. Work files in
``/tmp/r18/ray-WHAT``. Every process it starts runs in a session of its own; it stops them by
process group.
"""

from __future__ import annotations

import collections
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (its children, theirs, ...)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = S.child_pids(p)
        out += kids
        todo += kids
    return out


def cmdline(pid: int) -> str:
    """The command line of ``pid`` ('' once gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def ray_procs(root: int) -> dict[int, str]:
    """The descendants of ``root`` with their command lines (Ray's daemons and workers)."""
    return {p: cmdline(p)[:90] for p in descendants(root)}


def targets(root: int, what: str) -> list[int]:
    """The pids to kill for ``what``."""
    procs = ray_procs(root)
    match what:
        case "gcs":
            return [p for p, c in procs.items() if "gcs_server" in c][:1]
        case "raylet":
            return [p for p, c in procs.items() if "/raylet" in c.split(" ")[0]][:1]
        case "actor":
            return [p for p, c in procs.items() if c.startswith("ray::EnvironmentServer")][:1]
        case "actors":
            return [p for p, c in procs.items() if c.startswith("ray::EnvironmentServer")]
        case "grader":
            return [p for p, c in procs.items() if c.startswith("ray::GradingServer")][:1]
    return []


def run(what: str, rows_at: int, seeds: str, work: Path, n: int) -> None:
    """One ``mcpgym eval`` (the ``n``-th), killing ``what`` at ``rows_at`` rows when ``n`` is 0."""
    store, log = work / "runs.db", work / f"eval{n}.log"
    args = ["eval", "helpdesk", "--agent", "reference", "--tasks", "all", "--bands", "all"]
    args += ["--seeds", seeds, "--no-baseline", "--backend", "ray", "--ray-actors", "2"]
    args += ["--concurrency", "4", "--store", str(store), "--episodes", str(work / "episodes")]
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", COLUMNS="200")
    t0 = time.monotonic()
    p = S.start(args, env, log)
    killed_at: float | None = None
    kills = 0
    below: dict[int, str] = {}
    try:
        while p.poll() is None:
            time.sleep(0.5)
            if n == 0 and what != "none" and kills < (2 if what == "actors" else 1):
                stored = len(S.rows(store))
                if stored >= rows_at * (kills + 1):
                    below = ray_procs(p.pid)
                    pids = [p.pid] if what == "driver" else targets(p.pid, what)
                    print(f"[{time.monotonic() - t0:6.1f}s] rows {stored}: kill -9 {what} {pids}")
                    for pid in pids:
                        os.kill(pid, signal.SIGKILL)
                    killed_at = killed_at or time.monotonic()
                    kills += 1
            if time.monotonic() - t0 > 900:
                print("still running after 900 s: stopping it")
                S.stop_all([p])
        rc = p.wait()
    finally:
        left = ray_procs(p.pid)
        S.stop_all([p])
    since = f"{time.monotonic() - killed_at:.1f} s after the kill" if killed_at else ""
    if what == "driver" and below:
        time.sleep(20)
        alive = {q: c for q, c in below.items() if cmdline(q)}
        print(f"  of the {len(below)} processes below the driver, alive 20 s after it: "
              f"{len(alive)} {sorted(c[:40] for c in alive.values())[:8]}")
        for q in alive:
            with contextlib.suppress(OSError):
                os.kill(q, signal.SIGKILL)
    print(f"eval {n}: rc {rc} after {time.monotonic() - t0:.1f} s {since}")
    if left:
        print(f"  processes left below it at its exit: {len(left)}")
    text = log.read_text(errors="replace").splitlines()
    for line in text[-8:]:
        print("  |", line[:400])
    byrun: dict[str, collections.Counter[tuple[str, int]]] = {}
    for *_, scored, term, _attempts, rid in S.rows(store):
        byrun.setdefault(rid, collections.Counter())[(term, scored)] += 1
    for rid, counts in byrun.items():
        print(f"  run {rid}: {dict(counts)}")
    leftover = [p.name for p in (work / "episodes").glob(".*")] if (work / "episodes").exists() else []
    if leftover:
        print(f"  hidden debris in the episode store: {leftover[:5]} ({len(leftover)})")
    fin = subprocess.run(
        [*S.MCPGYM, "runs", "--store", str(store)], capture_output=True, text=True, env=env
    ).stdout.splitlines()
    for line in fin[:4]:
        print("  runs |", line[:200])


def main() -> None:
    """Kill, then rerun the same command."""
    what = sys.argv[1]
    rows_at = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    seeds = sys.argv[3] if len(sys.argv) > 3 else "0-3"
    work = Path(f"/tmp/r18/ray-{what}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    run(what, rows_at, seeds, work, 0)
    if what != "none":
        run(what, rows_at, seeds, work, 1)


if __name__ == "__main__":
    main()
