"""§1 probe, local path: `mcpgym eval` without --env-url starts its servers as children;
kill -9 one of them mid-campaign, then rerun the same command.

Usage: ``uv run python adv/round9sys/p1_local.py WHICH CONCURRENCY``
WHICH: first | second (the child started first / second: environment / grading) | parent
(kill -9 the eval itself: do its children go away?). Prints rc, rows per slot, finished.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WHICH, CONC = sys.argv[1], int(sys.argv[2])
W = Path(f"/tmp/r9/p1local/{WHICH}-{CONC}")
subprocess.run(["rm", "-rf", str(W)])
W.mkdir(parents=True)
EVAL = [
    str(ROOT / ".venv/bin/mcpgym"),
    "eval",
    "helpdesk",
    "--agent",
    "reference",
    "--tasks",
    "all",
    "--bands",
    "all",
    "--seeds",
    "0",
    "--concurrency",
    str(CONC),
    "--no-baseline",
    "--store",
    str(W / "runs.db"),
    "--infra-retry-wait",
    "0.5",
]


def nrows() -> int:
    try:
        c = sqlite3.connect(W / "runs.db", timeout=5)
        n = c.execute("SELECT count(*) FROM episodes").fetchone()[0]
        c.close()
        return n
    except sqlite3.Error:
        return 0


def children(pid: int) -> list[int]:
    out = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True
    ).stdout
    return sorted(int(x) for x in out.split())


def summary(tag: str, rc) -> dict:
    c = sqlite3.connect(W / "runs.db")
    r = c.execute("SELECT task, band, seed, epoch, scored, termination FROM episodes").fetchall()
    runs = c.execute("SELECT id, finished_at FROM runs").fetchall()
    c.close()
    slots: dict = {}
    for t, b, s, e, sc, term in r:
        slots.setdefault((t, b, s, e), []).append((sc, term))
    terms: dict = {}
    for v in slots.values():
        terms[v[-1][1]] = terms.get(v[-1][1], 0) + 1
    return {
        "tag": tag,
        "rc": rc,
        "rows": len(r),
        "slots": len(slots),
        "dup": sum(len(v) > 1 for v in slots.values()),
        "terms": terms,
        "runs": runs,
    }


def main() -> None:
    ev = subprocess.Popen(EVAL, cwd=W, stdout=open(W / "eval1.log", "w"), stderr=subprocess.STDOUT)
    t0 = time.monotonic()
    while nrows() < 10 and ev.poll() is None and time.monotonic() - t0 < 300:
        time.sleep(0.2)
    kids = children(ev.pid)
    info: dict = {"kids": kids, "at_rows": nrows()}
    if WHICH == "parent":
        ev.send_signal(signal.SIGKILL)
        ev.wait()
        time.sleep(5)
        info["kids_alive_5s_after"] = [k for k in kids if os.path.exists(f"/proc/{k}")]
        rc1 = ev.returncode
    else:
        victim = kids[0] if WHICH == "first" else kids[1]
        os.kill(victim, signal.SIGKILL)
        try:
            rc1 = ev.wait(400)
        except subprocess.TimeoutExpired:
            ev.kill()
            rc1 = "TIMEOUT"
    print(json.dumps({**info, **summary("first", rc1)}), flush=True)
    tail = (W / "eval1.log").read_text().splitlines()[-4:]
    print("  eval1 tail:", [t[:200] for t in tail], flush=True)
    p = subprocess.run(EVAL, cwd=W, capture_output=True, text=True, timeout=500)
    (W / "eval2.log").write_text(p.stdout + p.stderr)
    print(json.dumps(summary("rerun", p.returncode)), flush=True)


if __name__ == "__main__":
    main()
