"""Probe: ``mcpgym eval`` kill -9'd at random moments, again and again, then resumed to its end.

Usage: ``uv run python adv/round18sys/p1_killresume18.py [ROUNDS] [SEED] [WHO] [LO] [HI]``

The same command (helpdesk, reference agent, 2 families x 2 bands x seeds 0-2 = 12 slots and
12 baseline slots, local servers started by eval, ``--concurrency 4``) is started ``ROUNDS``
times (default 8); each is ``kill -9``'d after a random delay (LO to HI s (argv 4, 5; default 2 and 60), ``random.Random(SEED)``:
from the start-up, the planner's measured start, the run's creation, mid-episodes, to the
summary). ``WHO``: ``pid`` kills only the eval process (its child servers are orphaned: are
they left running?), ``group`` its whole process group (default). Then the command runs to its
end. Prints per round: the delay, what the output had reached, the rows by (run, termination,
scored), the runs in the store, processes left; then the final state: how many runs, one row per
slot?, finished?, attempts. Asserts nothing. Work files in ``/tmp/r18/killresume``.
"""

from __future__ import annotations

import collections
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r18/killresume")


def runs(store: Path) -> list[tuple[str, str | None, str | None]]:
    """(id, baseline_of, finished_at) of every run."""
    if not store.exists():
        return []
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5)
    try:
        return db.execute("SELECT id, baseline_of, finished_at FROM runs").fetchall()
    except sqlite3.Error as exc:
        return [("?", str(exc), None)]
    finally:
        db.close()


def stray(marker: str) -> list[str]:
    """Processes whose command line names the work directory (servers left behind)."""
    out = subprocess.run(["pgrep", "-af", marker], capture_output=True, text=True).stdout
    return [line[:140] for line in out.splitlines() if "pgrep" not in line]


def main() -> None:
    """Kill at random moments, then resume to the end."""
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 18)
    who = sys.argv[3] if len(sys.argv) > 3 else "group"
    lo = float(sys.argv[4]) if len(sys.argv) > 4 else 2.0
    hi = float(sys.argv[5]) if len(sys.argv) > 5 else 60.0
    shutil.rmtree(W, ignore_errors=True)
    W.mkdir(parents=True)
    store = W / "runs.db"
    args = ["eval", "helpdesk", "--agent", "reference", "--tasks", "cancel-order,order-status"]
    args += ["--bands", "easy,hard", "--seeds", "0-2", "--concurrency", "4"]
    args += ["--store", str(store), "--episodes", str(W / "episodes")]
    env = dict(os.environ, COLUMNS="200")
    for n in range(rounds + 1):
        log = W / f"eval{n}.log"
        delay = rng.uniform(lo, hi) if n < rounds else None
        t0 = time.monotonic()
        p = S.start(args, env, log)
        rc: int | None = None
        try:
            rc = p.wait(delay if delay is not None else 900)
        except subprocess.TimeoutExpired:
            if who == "pid":
                os.kill(p.pid, signal.SIGKILL)
            else:
                S.killpg(p, signal.SIGKILL)
            rc = p.wait()
        took = time.monotonic() - t0
        time.sleep(1.0)
        left = stray(str(W / "episodes"))
        lines = [x for x in log.read_text(errors="replace").splitlines() if x.strip()]
        last = lines[-1][:160] if lines else "(nothing)"
        counts = collections.Counter((r[7][-6:], r[5], r[4]) for r in S.rows(store))
        print(
            f"round {n}: {f'kill -9 after {delay:.1f} s' if delay else 'to its end'}: rc {rc} "
            f"({took:.1f} s); last line: {last}"
        )
        print(f"   rows: {dict(counts)}; runs: {[(i[-6:], b and b[-6:], bool(f)) for i, b, f in runs(store)]}")
        if left:
            print(f"   processes left: {len(left)}: {left[:2]}")
            for line in left:
                pid = int(line.split()[0])
                os.kill(pid, signal.SIGKILL)
        S.killpg(p, signal.SIGKILL)
    rows = S.rows(store, "task, band, seed, epoch, scored, termination, attempts, run_id")
    per_slot = collections.Counter((r[7], r[0], r[1], r[2], r[3]) for r in rows)
    print(f"final: {len(runs(store))} runs, {len(rows)} rows, duplicates: "
          f"{[k for k, v in per_slot.items() if v > 1]}, unscored: {sum(1 for r in rows if not r[4])}, "
          f"attempts: {dict(collections.Counter(r[6] for r in rows))}")
    print("   finished:", [(i[-6:], bool(f)) for i, _b, f in runs(store)])
    debris = [p.name for p in (W / "episodes").glob(".*")] if (W / "episodes").exists() else []
    print(f"   hidden entries in the episode store: {len(debris)} {debris[:4]}")
    bundles = [p for p in (W / "episodes").glob("ep_*")] if (W / "episodes").exists() else []
    print(f"   bundles: {len(bundles)}")


if __name__ == "__main__":
    main()
