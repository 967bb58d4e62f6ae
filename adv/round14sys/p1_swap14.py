"""§1 probe (round 14): the environment server restarted mid-campaign as a DIFFERENT server.

Usage: ``uv run python adv/round14sys/p1_swap14.py CHANGE CONCURRENCY [AGENT]``
Starts `mcpgym serve helpdesk` and `mcpgym grading serve` (adv/_sys.py), runs
``mcpgym eval helpdesk --tasks all --bands all --seeds 0`` (28 slots), kill -9s the env
server at ~10 rows and restarts it at once on the same port and store, changed by CHANGE:
- ``salt``: now with a seed salt (``MCPGYM_SEED_SALT``; it had none): other variants;
- ``lock``: helpdesk's version bumped (adv/round14sys/bumped.py; grading restarted the same
  way too): another lock (an upgrade between two halves of a run);
- ``token``: another control token (a rotated secret).
- ``same``: unchanged (the control case).
Then reruns the same command once. Prints per eval: rc, slots, terminations, locks and
variant ids seen per row, runs, the last lines. Expected: a run holds one lock and one set
of conditions: a server that comes back different stops the campaign with the reason (or
its episodes are refused), never rows of two locks/salts in one finished run.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

CHANGE, CONC = sys.argv[1], int(sys.argv[2])
AGENT = sys.argv[3] if len(sys.argv) > 3 else "reference"
W = Path(f"/tmp/r14/p1/{CHANGE}-{CONC}-{AGENT}")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
STORE = W / "runs.db"
EP, GP = 19400 + CONC * 10 + len(CHANGE), 19600 + CONC * 10 + len(CHANGE)
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok", bundle_key="k" * 32)
BUMPED = [sys.executable, str(Path(__file__).with_name("bumped.py"))]

EVAL = S.MCPGYM + [
    "eval",
    "helpdesk",
    "--agent",
    AGENT,
    "--tasks",
    "all",
    "--bands",
    "all",
    "--seeds",
    "0",
    "--concurrency",
    str(CONC),
    "--no-baseline",
    "--env-url",
    f"http://127.0.0.1:{EP}",
    "--grading-url",
    f"http://127.0.0.1:{GP}",
    "--store",
    str(STORE),
    "--infra-retries",
    "4",
    "--infra-retry-wait",
    "45",
]


def start(
    args: list[str], env: dict[str, str], name: str, bumped: bool = False
) -> subprocess.Popen[bytes]:
    cmd = (BUMPED if bumped else S.MCPGYM) + args
    return subprocess.Popen(
        cmd,
        env=env,
        stdout=open(W / f"{name}.log", "a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def summary(tag: str, rc: object, log: Path) -> dict:
    cols = "task, band, seed, epoch, scored, termination, json_extract(grade, '$.lock'), variant_id, run_id, error"
    r = S.rows(STORE, cols)
    terms: dict[str, int] = {}
    locks: dict[str, int] = {}
    variants = {}
    for t, b, s, _e, _sc, term, lock, vid, _run, _err in r:
        terms[term] = terms.get(term, 0) + 1
        locks[(lock or "")[:12]] = locks.get((lock or "")[:12], 0) + 1
        variants[f"{t}@{b}#{s}"] = vid
    runs: list = []
    try:
        c = sqlite3.connect(f"file:{STORE}?mode=ro", uri=True)
        runs = c.execute("SELECT id, lock, finished_at FROM runs").fetchall()
        runs = [(a[:8], (b or "")[:12], f) for a, b, f in runs]
        c.close()
    except sqlite3.Error as exc:
        runs = [str(exc)]
    salted = sum(1 for k, v in variants.items() if v and not v.endswith("#" + k.rsplit("#", 1)[1]))
    tail = log.read_text(errors="replace").splitlines()[-5:] if log.exists() else []
    return {
        "tag": tag,
        "rc": rc,
        "rows": len(r),
        "terms": terms,
        "row_locks": locks,
        "rows_with_salted_variant": salted,
        "runs": runs,
        "tail": [x[:240] for x in tail],
    }


def main() -> None:
    env2 = dict(ENVV)
    if CHANGE == "salt":
        env2["MCPGYM_SEED_SALT"] = "a-new-salt-" + "s" * 20
    if CHANGE == "token":
        env2["MCPGYM_CONTROL_TOKEN"] = "rotated-ctl-tok"
    serve = ["serve", "helpdesk", "--port", str(EP), "--store", str(W / "eps")]
    grade = ["grading", "serve", "--port", str(GP), "--store", str(W / "eps")]
    procs = {"env": start(serve, ENVV, "env"), "grading": start(grade, ENVV, "grading")}
    try:
        S.wait_up(EP)
        S.wait_up(GP)
        log = W / "eval1.log"
        ev = subprocess.Popen(
            EVAL,
            env=ENVV,
            cwd=W,
            stdout=open(log, "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        t0 = time.monotonic()
        while len(S.rows(STORE)) < 10 and ev.poll() is None and time.monotonic() - t0 < 300:
            time.sleep(0.1)
        S.killpg(procs["env"], signal.SIGKILL)
        procs["env"].wait()
        print(json.dumps({"killed_env_at_rows": len(S.rows(STORE))}), flush=True)
        bump = CHANGE == "lock"
        if bump:
            S.stop_all([procs["grading"]])
            procs["grading"] = start(grade, env2, "grading", bumped=True)
        # the bumped version has no lock file of its own: served --unlocked (development)
        procs["env"] = start(serve + (["--unlocked"] if bump else []), env2, "env", bumped=bump)
        S.wait_up(EP)
        try:
            rc = ev.wait(timeout=400)
        except subprocess.TimeoutExpired:
            S.killpg(ev, signal.SIGKILL)
            rc = "TIMEOUT"
        print(json.dumps(summary("eval1", rc, log)), flush=True)
        log2 = W / "eval2.log"
        try:
            p = subprocess.run(
                EVAL, env=env2, cwd=W, stdout=open(log2, "w"), stderr=subprocess.STDOUT, timeout=400
            )
            rc2: object = p.returncode
        except subprocess.TimeoutExpired:
            rc2 = "TIMEOUT"
        print(json.dumps(summary("eval2 (rerun, new env)", rc2, log2)), flush=True)
    finally:
        S.stop_all(list(procs.values()))


if __name__ == "__main__":
    main()
