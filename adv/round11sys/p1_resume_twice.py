"""§1 probe (round 11): two campaigns resuming the same unfinished run at once.

Usage: ``uv run python adv/round11sys/p1_resume_twice.py [CONCURRENCY]`` (default 4).
A local `mcpgym eval helpdesk --agent reference --tasks all --bands all --seeds 0` (28
slots, its own child servers) is killed with SIGKILL once 8 rows are stored; then the same
command is started twice at the same moment. Expected: every slot accounted for once, one
run, finished; the work of the remaining slots done once (or the second campaign refused).
Prints per eval: rc, the "resuming" line, and the store's rows, slots, duplicates,
attempts, runs.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONC = int(sys.argv[1]) if len(sys.argv) > 1 else 4
W = Path(f"/tmp/r11/p1resume/{CONC}")
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


def q(sql: str) -> list:
    try:
        c = sqlite3.connect(W / "runs.db", timeout=10)
        r = c.execute(sql).fetchall()
        c.close()
        return r
    except sqlite3.Error:
        return []


def summary() -> dict:
    rows = q("SELECT task, band, seed, epoch, termination, attempts, episode_id FROM episodes")
    slots: dict = {}
    for t, b, s, e, term, att, eid in rows:
        slots.setdefault((t, b, s, e), []).append((term, att, eid))
    terms: dict = {}
    for v in slots.values():
        terms[v[-1][0]] = terms.get(v[-1][0], 0) + 1
    return {
        "rows": len(rows),
        "slots": len(slots),
        "dup": sum(len(v) > 1 for v in slots.values()),
        "terms": terms,
        "attempts>1": sum(1 for v in slots.values() if v[-1][1] > 1),
        "runs": q("SELECT id, finished_at FROM runs"),
    }


def main() -> None:
    ev = subprocess.Popen(
        EVAL,
        cwd=W,
        stdout=open(W / "eval1.log", "w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    t0 = time.monotonic()
    while (
        (q("SELECT count(*) FROM episodes") or [[0]])[0][0] < 8
        and ev.poll() is None
        and time.monotonic() - t0 < 400
    ):
        time.sleep(0.2)
    ev.send_signal(signal.SIGKILL)
    ev.wait()
    time.sleep(6)  # its children seal and exit (round 9: about 5 s)
    first = summary()
    print(json.dumps({"first_killed_at": first}), flush=True)
    # episodes served per resume: count the bundles each resume's servers wrote, via logs
    evs = [
        subprocess.Popen(
            EVAL, cwd=W, stdout=open(W / f"eval{i}.log", "w"), stderr=subprocess.STDOUT
        )
        for i in (2, 3)
    ]
    rcs = []
    for e in evs:
        try:
            rcs.append(e.wait(600))
        except subprocess.TimeoutExpired:
            e.kill()
            rcs.append("TIMEOUT")
    for i, rc in zip((2, 3), rcs, strict=True):
        log = (W / f"eval{i}.log").read_text(errors="replace").splitlines()
        res = [ln[:160] for ln in log if "resum" in ln.lower() or "run " in ln.lower()][:2]
        print(
            json.dumps({"eval": i, "rc": rc, "lines": res, "tail": [ln[:200] for ln in log[-3:]]}),
            flush=True,
        )
    print(json.dumps({"after": summary()}), flush=True)
    # how many episodes were served in all: rows of `episode_id` distinct over a new count
    print(json.dumps({"expected": "28 slots once, 1 run finished, remaining work done once"}))


if __name__ == "__main__":
    main()
