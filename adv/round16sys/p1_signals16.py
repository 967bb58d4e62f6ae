"""§1/§2 probe (round 16): signals and kills at new moments of a campaign.

Usage: ``uv run python adv/round16sys/p1_signals16.py SCENARIO``
Starts ``mcpgym serve helpdesk`` and ``mcpgym grading serve`` (adv/_sys.py) and runs
``mcpgym eval helpdesk --agent reference --tasks all --bands all --seeds 0 --concurrency 4
--no-baseline`` (28 slots), with SCENARIO:
- ``double``: SIGTERM to the eval at ~8 rows, a SIGINT 50 ms later (the stop's row writes
  under way), then another SIGINT 2.5 s later (past the repeat window: exit at once);
- ``term_kill``: SIGTERM at ~8 rows, kill -9 DELAY s later (argv[2], default 0.15: while
  the stop stores its rows); then the same command again;
- ``resume_kill``: SIGTERM at ~8 rows; the same command again (the resume), kill -9'd once
  it stored 4 rows more; then the same command a third time;
- ``resume_term``: SIGTERM at ~8 rows; the resume, SIGTERM'd at its very start (0.5 s: while
  it chooses and claims the run), then the same command again;
- ``grading_kill``: the grading service kill -9'd and restarted on the same port three
  times while the campaign grades (each kill 1.5 s after a new row: mid-grade, in its
  state rebuild);
- ``env_kill_resume``: SIGTERM at ~8 rows; during the resume the environment server is
  kill -9'd and restarted once.
Prints each command's rc, then the rows: count, one per slot?, terminations, scored, the
run's finished_at, the last error lines.
Expected: every run ends with one row per planned slot; the last command finishes the run
with every slot scored at 1.0; no duplicate rows, no second run.
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

SC = sys.argv[1]
W = Path(f"/tmp/r16/p1/{SC}{sys.argv[2] if len(sys.argv) > 2 else ''}")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
STORE = W / "runs.db"
EP, GP = 19700 + len(SC), 19750 + len(SC)
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok", bundle_key="k" * 32)
EVAL = S.MCPGYM + [
    "eval", "helpdesk", "--agent", "reference", "--tasks", "all", "--bands", "all",
    "--seeds", "0", "--concurrency", "4", "--no-baseline",
    "--env-url", f"http://127.0.0.1:{EP}", "--grading-url", f"http://127.0.0.1:{GP}",
    "--store", str(STORE), "--infra-retries", "3", "--infra-retry-wait", "2",
]  # fmt: skip


def launch(n: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(EVAL, env=ENVV, cwd=W, stdout=open(W / f"eval{n}.log", "w"),  # noqa: SIM115
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip


def until_rows(ev: subprocess.Popen[bytes], n: int, limit: float = 300) -> int:
    t0 = time.monotonic()
    while len(S.rows(STORE)) < n and ev.poll() is None and time.monotonic() - t0 < limit:
        time.sleep(0.05)
    return len(S.rows(STORE))


def finish(ev: subprocess.Popen[bytes], limit: float = 400) -> object:
    try:
        return ev.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        S.killpg(ev, signal.SIGKILL)
        return "TIMEOUT"


def summary(tag: str, rc: object, n: int) -> dict:
    r = S.rows(
        STORE, "task, band, seed, epoch, termination, scored, score, attempts, error, run_id"
    )
    slots = {(t, b, s, e) for t, b, s, e, *_ in r}
    terms: dict[str, int] = {}
    for row in r:
        terms[row[4]] = terms.get(row[4], 0) + 1
    try:
        c = sqlite3.connect(f"file:{STORE}?mode=ro", uri=True)
        runs = [(a[-6:], f is not None) for a, f in c.execute("SELECT id, finished_at FROM runs")]
        c.close()
    except sqlite3.Error as exc:
        runs = [str(exc)]
    errs = sorted({(row[8] or "")[:110] for row in r if row[8]})[:3]
    log = W / f"eval{n}.log"
    tail = (
        [x[:200] for x in log.read_text(errors="replace").splitlines()[-3:]] if log.exists() else []
    )
    return {"tag": tag, "rc": rc, "rows": len(r), "slots": len(slots), "terms": terms,
            "scored": sum(1 for x in r if x[5]), "below_1": sum(1 for x in r if x[5] and x[6] < 1),
            "runs": runs, "errors": errs, "tail": tail}  # fmt: skip


def show(d: dict) -> None:
    print(json.dumps(d), flush=True)


def main() -> None:
    serve = ["serve", "helpdesk", "--port", str(EP), "--store", str(W / "eps")]
    grade = ["grading", "serve", "--port", str(GP), "--store", str(W / "eps")]
    procs = {
        "env": S.start(serve, ENVV, W / "env.log"),
        "grading": S.start(grade, ENVV, W / "grading.log"),
    }
    try:
        S.wait_up(EP)
        S.wait_up(GP)
        ev = launch(1)
        if SC == "grading_kill":
            for _ in range(3):
                until_rows(ev, len(S.rows(STORE)) + 3)
                time.sleep(1.5)
                S.killpg(procs["grading"], signal.SIGKILL)
                procs["grading"].wait()
                procs["grading"] = S.start(grade, ENVV, W / "grading.log")
                S.wait_up(GP)
            show(summary("eval1", finish(ev), 1))
            ev = launch(2)
            show(summary("eval2", finish(ev), 2))
            return
        until_rows(ev, 8)
        S.killpg(ev, signal.SIGTERM)
        if SC == "term_kill":
            time.sleep(float(sys.argv[2]) if len(sys.argv) > 2 else 0.15)
            S.killpg(ev, signal.SIGKILL)
        if SC == "double":
            time.sleep(0.05)
            S.killpg(ev, signal.SIGINT)
            time.sleep(2.5)
            S.killpg(ev, signal.SIGINT)
        show(summary("eval1", finish(ev), 1))
        ev = launch(2)
        if SC == "resume_kill":
            base = len(S.rows(STORE))
            t0 = time.monotonic()
            # rows are replaced in place on a resume: wait for 4 more scored rows
            while ev.poll() is None and time.monotonic() - t0 < 300:
                scored = sum(1 for x in S.rows(STORE, "scored") if x[0])
                if scored >= min(base, 8) + 4:
                    break
                time.sleep(0.05)
            S.killpg(ev, signal.SIGKILL)
        elif SC == "resume_term":
            time.sleep(0.5)
            S.killpg(ev, signal.SIGTERM)
        elif SC == "env_kill_resume":
            until_rows(ev, 1)
            time.sleep(3)
            S.killpg(procs["env"], signal.SIGKILL)
            procs["env"].wait()
            procs["env"] = S.start(serve, ENVV, W / "env.log")
            S.wait_up(EP)
        show(summary("eval2", finish(ev), 2))
        ev = launch(3)
        show(summary("eval3", finish(ev), 3))
    finally:
        S.stop_all(list(procs.values()))


if __name__ == "__main__":
    main()
