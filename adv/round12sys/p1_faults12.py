"""§1 probe (round 12): faults round 9/11 did not try, under a real campaign.

Usage: ``uv run python adv/round12sys/p1_faults12.py FAULT CONCURRENCY [SEEDS] [EVAL_OPTIONS]``
FAULT:
- ``stop_env_forever`` / ``stop_grading_forever``: SIGSTOP the server's process group once
  ~15 rows are stored and never SIGCONT it while the eval runs (a hung host, a frozen VM):
  does the eval end on its own, every slot one row, rc != 0?
- ``stop_env_for_N``: SIGSTOP the env server at ~15 rows, SIGCONT it N seconds later (a
  stall longer than ``--timeout``, e.g. ``stop_env_for_60 1 0-1 "--timeout 30"``): is the
  stalled episode scored as the agent's ``timeout``?
- ``kill_driver_twice``: kill -9 the `mcpgym eval` process group at ~10 rows, rerun, kill -9
  again at ~10 more rows, rerun to the end: one run, every slot once, finished, rc 0?
- ``full_runstore``: the run store (``--store``) on a 3 MiB tmpfs left with ~150 KB free.
- ``full_bundles``: the servers' episode store on a 3 MiB tmpfs left with ~150 KB free.
- ``ro_runstore``: the run store on a tmpfs remounted read-only once ~10 rows are stored
  (round 12: the kernel refuses the remount while the store is open, "mount point is busy",
  so this fault could not be injected this way).
Prints one JSON line per eval: rc, rows, slots, duplicate slots, unscored, terminations,
runs (id, finished_at), the eval's last lines. Every process it starts is stopped by pid.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

FAULT, CONC = sys.argv[1], int(sys.argv[2])
SEEDS = sys.argv[3] if len(sys.argv) > 3 else "0-1"
EXTRA = sys.argv[4].split() if len(sys.argv) > 4 else []  # more eval options, e.g. "--timeout 40"
W = Path(f"/tmp/r12/p1/{FAULT}-{CONC}")
FULL = Path(f"/tmp/r12/full-{FAULT}-{CONC}")
subprocess.run(["umount", str(FULL)], capture_output=True)
subprocess.run(["rm", "-rf", str(W)])
W.mkdir(parents=True)
EPS = W / "eps"
STORE = W / "runs.db"
if FAULT.startswith(("full_", "ro_")):
    FULL.mkdir(parents=True, exist_ok=True)
    size = "3m" if FAULT.startswith("full_") else "64m"
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(FULL)], check=True)
    if FAULT.startswith("full_"):
        (FULL / "filler").write_bytes(b"\0" * (3 * 1024 * 1024 - 150 * 1024))
    if FAULT in ("full_runstore", "ro_runstore"):
        STORE = FULL / "runs.db"
    else:
        EPS = FULL / "eps"
EPS.mkdir(parents=True, exist_ok=True)
EP, GP = 19700 + CONC * 10 + len(FAULT) % 10, 19900 + CONC * 10 + len(FAULT) % 10
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok", bundle_key="k" * 32)
MC = S.MCPGYM
killpg = S.killpg


def rows() -> list[tuple]:
    return S.rows(STORE)


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
    str(STORE),
    "--infra-retry-wait",
    "0.5",
    *EXTRA,
]


def summary(tag: str, rc, log: Path) -> dict:
    r = rows()
    slots: dict[tuple, list] = {}
    for t, b, s, e, sc, term, att, run in r:
        slots.setdefault((t, b, s, e), []).append((sc, term, att, run))
    runs = []
    try:
        c = sqlite3.connect(f"file:{STORE}?mode=ro", uri=True)
        runs = c.execute("SELECT id, finished_at FROM runs").fetchall()
        c.close()
    except sqlite3.Error as exc:
        runs = [str(exc)]
    terms: dict[str, int] = {}
    for v in slots.values():
        terms[v[-1][1]] = terms.get(v[-1][1], 0) + 1
    tail = log.read_text(errors="replace").splitlines()[-6:] if log.exists() else []
    return {
        "tag": tag,
        "rc": rc,
        "rows": len(r),
        "slots": len(slots),
        "dup_slots": sum(1 for v in slots.values() if len(v) > 1),
        "unscored_slots": sum(1 for v in slots.values() if not any(x[0] for x in v)),
        "max_attempts": max((x[2] or 0 for v in slots.values() for x in v), default=0),
        "terms": terms,
        "runs": runs,
        "tail": [ln[:220] for ln in tail],
    }


def run_eval(tag: str, kill_at: int | None = None, timeout: float = 300) -> dict:
    log = W / f"{tag}.log"
    ev = subprocess.Popen(
        EVAL,
        env=ENVV,
        cwd=W,
        stdout=open(log, "w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    PROCS.append(ev)
    t0 = time.monotonic()
    n0 = len(rows())
    if kill_at is not None:
        while len(rows()) < n0 + kill_at and ev.poll() is None and time.monotonic() - t0 < 300:
            time.sleep(0.1)
        killpg(ev, signal.SIGKILL)
        ev.wait()
        return summary(tag + f" (kill -9 at {len(rows())} rows)", ev.returncode, log)
    if FAULT.startswith("stop_") and tag == "eval1":
        while len(rows()) < 15 and ev.poll() is None and time.monotonic() - t0 < 300:
            time.sleep(0.2)
        if FAULT.startswith("stop_env_for_"):  # past the next episode's start: mid tool call
            time.sleep(float(os.environ.get("R12_STOP_DELAY", "0.35")))
        killpg(SERVERS["env" if "env" in FAULT else "grading"], signal.SIGSTOP)
        print(
            json.dumps({"stopped_at_rows": len(rows()), "t": round(time.monotonic() - t0, 1)}),
            flush=True,
        )
        if FAULT.startswith("stop_env_for_"):  # a stall, not a hang: SIGCONT after N seconds
            time.sleep(float(FAULT.rsplit("_", 1)[1]))
            killpg(SERVERS["env"], signal.SIGCONT)
            print(json.dumps({"continued_at_rows": len(rows())}), flush=True)
    if FAULT == "ro_runstore" and tag == "eval1":
        while len(rows()) < 10 and ev.poll() is None and time.monotonic() - t0 < 300:
            time.sleep(0.1)
        r = subprocess.run(["mount", "-o", "remount,ro", str(FULL)], capture_output=True, text=True)
        print(
            json.dumps(
                {"remount_ro_at_rows": len(rows()), "rc": r.returncode, "err": r.stderr[:200]}
            ),
            flush=True,
        )
    try:
        rc = ev.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        killpg(ev, signal.SIGKILL)
        rc = f"TIMEOUT after {timeout}s (killed)"
    out = summary(tag, rc, log)
    out["wall"] = round(time.monotonic() - t0, 1)
    return out


PROCS: list[subprocess.Popen] = []
SERVERS: dict[str, subprocess.Popen] = {}


def faults() -> None:
    """The fault's evals, against the servers `main` started."""
    if FAULT == "kill_driver_twice":
        print(json.dumps(run_eval("eval1", kill_at=10)), flush=True)
        print(json.dumps(run_eval("eval2", kill_at=10)), flush=True)
        print(json.dumps(run_eval("eval3")), flush=True)
        return
    print(json.dumps(run_eval("eval1")), flush=True)
    if FAULT.startswith("stop_env_for_"):
        c = sqlite3.connect(f"file:{STORE}?mode=ro", uri=True)
        q = "SELECT variant_id, termination, scored, score, error FROM episodes"
        for row in c.execute(q + " WHERE termination != 'completed'"):
            print(json.dumps({"row": row}), flush=True)
        c.close()
        return
    if FAULT.startswith("stop_"):
        for p in SERVERS.values():
            killpg(p, signal.SIGCONT)
    if FAULT.startswith("full_"):
        (FULL / "filler").unlink()
    if FAULT == "ro_runstore":
        subprocess.run(["mount", "-o", "remount,rw", str(FULL)], check=True)
    print(json.dumps(run_eval("rerun")), flush=True)
    if FAULT == "full_bundles":
        left = [p.name for p in EPS.iterdir() if p.name.startswith(".tmp")]
        print(json.dumps({"tmp_debris": left[:5], "n": len(left)}))


def main() -> None:
    try:
        with S.servers(EP, GP, EPS, ENVV, W) as procs:
            SERVERS.update(procs)
            try:
                faults()
            finally:
                S.stop_all(PROCS)  # the evals; the servers stop after them
    finally:
        if FAULT.startswith(("full_", "ro_")):
            subprocess.run(["umount", str(FULL)], capture_output=True)


if __name__ == "__main__":
    main()
