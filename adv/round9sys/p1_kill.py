"""§1 probe: faults of a real env/grading server process under a campaign.

Usage: ``uv run python adv/round9sys/p1_kill.py FAULT CONCURRENCY [SEEDS]``
FAULT: kill_env | stop_env | kill_grading | stop_grading | restart_env | kill_env_norestart
Starts `mcpgym serve` and `mcpgym grading serve` (loopback, bundle key, tokens), runs
`mcpgym eval helpdesk --agent reference --tasks all --bands all --seeds SEEDS` against them,
injects the fault once ~15 rows are stored, then (after the first eval exits) restarts
what was killed and reruns the same command. Prints: rc of both evals, rows per slot,
unscored, finished_at. Every process it starts is stopped by pid at the end.
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
FAULT, CONC = sys.argv[1], int(sys.argv[2])
SEEDS = sys.argv[3] if len(sys.argv) > 3 else "0-1"
W = Path(f"/tmp/r9/p1/{FAULT}-{CONC}")
subprocess.run(["rm", "-rf", str(W)])
W.mkdir(parents=True)
(W / "eps").mkdir()
EP, GP = 19100 + CONC * 10 + len(FAULT), 19400 + CONC * 10 + len(FAULT)
ENVV = dict(
    os.environ,
    MCPGYM_BUNDLE_KEY="k" * 32,
    MCPGYM_CONTROL_TOKEN="ctl-tok",
    MCPGYM_GRADING_TOKEN="gr-tok",
)
MC = ["uv", "run", "--project", str(ROOT), "mcpgym"]


def start_env() -> subprocess.Popen:
    return subprocess.Popen(
        MC + ["serve", "helpdesk", "--port", str(EP), "--store", str(W / "eps")],
        env=ENVV,
        stdout=open(W / "env.log", "a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def start_grading() -> subprocess.Popen:
    return subprocess.Popen(
        MC + ["grading", "serve", "--port", str(GP), "--store", str(W / "eps")],
        env=ENVV,
        stdout=open(W / "grading.log", "a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_up(port: int) -> None:
    import urllib.request

    for _ in range(120):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return
        except Exception:
            time.sleep(0.5)
    raise SystemExit(f"port {port} never came up")


def rows() -> list[tuple]:
    db = W / "runs.db"
    if not db.exists():
        return []
    try:
        c = sqlite3.connect(db, timeout=5)
        r = c.execute(
            "SELECT task, band, seed, epoch, scored, termination FROM episodes"
        ).fetchall()
        c.close()
        return r
    except sqlite3.Error:
        return []


EVAL = MC + [
    "eval",
    "helpdesk",
    "--agent",
    "reference",
    "--tasks",
    "all",
    "--bands",
    "all",
    "--seeds",
    SEEDS,
    "--concurrency",
    str(CONC),
    "--no-baseline",
    "--env-url",
    f"http://127.0.0.1:{EP}",
    "--grading-url",
    f"http://127.0.0.1:{GP}",
    "--store",
    str(W / "runs.db"),
    "--infra-retry-wait",
    "0.5",
]


def kill_group(p: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(p.pid, sig)
    except ProcessLookupError:
        pass


def summary(tag: str, rc) -> dict:
    r = rows()
    slots: dict[tuple, list] = {}
    for t, b, s, e, sc, term in r:
        slots.setdefault((t, b, s, e), []).append((sc, term))
    c = sqlite3.connect(W / "runs.db")
    runs = c.execute("SELECT id, finished_at FROM runs").fetchall()
    c.close()
    terms: dict[str, int] = {}
    for v in slots.values():
        terms[v[-1][1]] = terms.get(v[-1][1], 0) + 1
    return {
        "tag": tag,
        "rc": rc,
        "rows": len(r),
        "slots": len(slots),
        "dup_slots": sum(1 for v in slots.values() if len(v) > 1),
        "unscored_slots": sum(1 for v in slots.values() if not any(x[0] for x in v)),
        "terms": terms,
        "runs": runs,
    }


def main() -> None:
    env, gr = start_env(), start_grading()
    procs = [env, gr]
    try:
        wait_up(EP)
        wait_up(GP)
        ev = subprocess.Popen(
            EVAL,
            env=ENVV,
            cwd=W,
            stdout=open(W / "eval1.log", "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        procs.append(ev)
        t0 = time.monotonic()
        while len(rows()) < 15 and ev.poll() is None and time.monotonic() - t0 < 300:
            time.sleep(0.2)
        n_at = len(rows())
        if FAULT.startswith("kill_env"):
            kill_group(env, signal.SIGKILL)
        elif FAULT == "kill_grading":
            kill_group(gr, signal.SIGKILL)
        elif FAULT == "stop_env":
            kill_group(env, signal.SIGSTOP)
            time.sleep(20)
            kill_group(env, signal.SIGCONT)
        elif FAULT == "stop_grading":
            kill_group(gr, signal.SIGSTOP)
            time.sleep(40)
            kill_group(gr, signal.SIGCONT)
        elif FAULT == "restart_env":
            kill_group(env, signal.SIGKILL)
            time.sleep(1)
            env = start_env()
            procs.append(env)
        try:
            rc1 = ev.wait(timeout=400)
        except subprocess.TimeoutExpired:
            kill_group(ev, signal.SIGKILL)
            rc1 = "TIMEOUT"
        print(json.dumps({"fault_at_rows": n_at, **summary("first", rc1)}), flush=True)
        # restart what was killed and rerun the same command
        if FAULT in ("kill_env",):
            env = start_env()
            procs.append(env)
            wait_up(EP)
        if FAULT == "kill_grading":
            gr = start_grading()
            procs.append(gr)
            wait_up(GP)
        if FAULT == "kill_env_norestart":
            return
        ev2 = subprocess.run(EVAL, env=ENVV, cwd=W, capture_output=True, text=True, timeout=500)
        (W / "eval2.log").write_text(ev2.stdout + ev2.stderr)
        print(json.dumps(summary("rerun", ev2.returncode)), flush=True)
    finally:
        for p in procs:
            kill_group(p, signal.SIGCONT)
            kill_group(p, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                kill_group(p, signal.SIGKILL)


if __name__ == "__main__":
    main()
