"""Probe: two campaigns writing one run store at once.

Usage: ``uv run python adv/round18sys/p1_twocampaigns18.py SCENARIO``

- ``different``: ``mcpgym eval helpdesk --agent reference`` and ``mcpgym eval ledger --agent
  reference`` (each every family x band x seed 0, its baseline, ``--concurrency 8``, its
  own local servers) started together on one ``--store``: SQLite writers of two processes,
  each committing a row per episode;
- ``same``: the same command (helpdesk, reference, seeds 0, concurrency 8) twice at the same
  instant on a fresh store: which one runs, what does the other say, how many runs?
- ``same_kill``: as ``same``, then the one that runs is kill -9'd at 10 rows and the other
  command (refused or not) is run again at once: does it take the run over (the claim of a
  dead process is free)?

Prints each command's rc, seconds and last lines; then the runs (id, agent, env, baseline
of, finished) and their rows by (termination, scored), duplicates per slot, and any
``database is locked`` in the outputs. Asserts nothing. Work files in ``/tmp/r18/two-SC``.
"""

from __future__ import annotations

import collections
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

SC = sys.argv[1]
W = Path(f"/tmp/r18/two-{SC}")
subprocess.run(["rm", "-rf", str(W)], check=False)
W.mkdir(parents=True)
STORE = W / "runs.db"
ENV = dict(S.probe_env(), COLUMNS="200")


def cmd(env: str, tag: str) -> list[str]:
    """One eval command line."""
    return S.MCPGYM + [
        "eval", env, "--agent", "reference", "--tasks", "all", "--bands", "all", "--seeds", "0",
        "--concurrency", "8", "--store", str(STORE), "--episodes", str(W / f"eps-{tag}"),
    ]  # fmt: skip


def launch(args: list[str], tag: str) -> subprocess.Popen[bytes]:
    """Start it in a session of its own, output to ``W/tag.log``."""
    return subprocess.Popen(args, env=ENV, stdout=open(W / f"{tag}.log", "w"),  # noqa: SIM115
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip


def wait(p: subprocess.Popen[bytes], tag: str, t0: float) -> None:
    """Wait for it; print what it did."""
    try:
        rc: object = p.wait(900)
    except subprocess.TimeoutExpired:
        S.killpg(p, signal.SIGKILL)
        rc = "TIMEOUT"
    text = (W / f"{tag}.log").read_text(errors="replace")
    lines = [x for x in text.splitlines() if x.strip() and "score 1.000" not in x and "│" not in x]
    print(f"{tag}: rc {rc} after {time.monotonic() - t0:.1f} s"
          + ("  [database is locked in its output]" if "locked" in text else ""))
    for line in lines[-5:]:
        print("   |", line[:300])


def store_state() -> None:
    """The runs and their rows."""
    db = sqlite3.connect(f"file:{STORE}?mode=ro", uri=True, timeout=5)
    try:
        for rid, agent, env, base, fin in db.execute(
            "SELECT id, agent, env, baseline_of, finished_at FROM runs ORDER BY created_at"
        ):
            rows = db.execute(
                "SELECT task, band, seed, epoch, termination, scored FROM episodes WHERE run_id=?",
                (rid,),
            ).fetchall()
            slots = collections.Counter(r[:4] for r in rows)
            print(f"run {rid} {agent} {env} baseline_of={base and base[-6:]} finished={bool(fin)}: "
                  f"{len(rows)} rows {dict(collections.Counter((r[4], r[5]) for r in rows))} "
                  f"duplicates {sum(v > 1 for v in slots.values())}")
    finally:
        db.close()


def main() -> None:
    """Run the scenario."""
    t0 = time.monotonic()
    if SC == "different":
        a, b = launch(cmd("helpdesk", "h"), "helpdesk"), launch(cmd("ledger", "l"), "ledger")
        wait(a, "helpdesk", t0)
        wait(b, "ledger", t0)
    else:
        a, b = launch(cmd("helpdesk", "a"), "first"), launch(cmd("helpdesk", "b"), "second")
        if SC == "same_kill":
            while len(S.rows(STORE)) < 10 and (a.poll() is None or b.poll() is None):
                time.sleep(0.05)
            runner = a if a.poll() is None else b
            other = b if runner is a else a
            S.killpg(runner, signal.SIGKILL)
            print(f"kill -9 of {'first' if runner is a else 'second'} at {len(S.rows(STORE))} rows")
            wait(other, "second" if runner is a else "first", t0)
            c = launch(cmd("helpdesk", "c"), "again")
            wait(c, "again", t0)
        else:
            wait(a, "first", t0)
            wait(b, "second", t0)
    store_state()


if __name__ == "__main__":
    main()
