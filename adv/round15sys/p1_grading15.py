"""§1/§5 probe (round 15): the GRADING service restarted mid-campaign as a different service.

Usage: ``uv run python adv/round15sys/p1_grading15.py CHANGE CONCURRENCY``
Starts `mcpgym serve helpdesk` and `mcpgym grading serve` with one bundle key (adv/_sys.py),
runs ``mcpgym eval helpdesk --agent reference --tasks all --bands all --seeds 0`` (28 slots),
kill -9s the grading service at ~10 rows and restarts it at once on the same port, changed
by CHANGE:
- ``nokey``: without the bundle key (signatures no longer checked);
- ``otherkey``: with another bundle key (every bundle now refused);
- ``otherstore``: on another (empty) episode store;
- ``same``: unchanged (the control case).
Prints rc, rows, terminations, the grades' ``signature`` per row, runs, the last lines.
Expected: a run is one set of conditions: grades of one run all verified (or the campaign
stops saying why), never a finished run of verified and unchecked grades.
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
W = Path(f"/tmp/r15/p1g/{CHANGE}-{CONC}")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
(W / "eps2").mkdir(parents=True)
STORE = W / "runs.db"
EP, GP = 19100 + CONC * 10 + len(CHANGE), 19300 + CONC * 10 + len(CHANGE)
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok", bundle_key="k" * 32)

EVAL = S.MCPGYM + [
    "eval", "helpdesk", "--agent", "reference", "--tasks", "all", "--bands", "all",
    "--seeds", "0", "--concurrency", str(CONC), "--no-baseline",
    "--env-url", f"http://127.0.0.1:{EP}", "--grading-url", f"http://127.0.0.1:{GP}",
    "--store", str(STORE), "--infra-retries", "3", "--infra-retry-wait", "10",
]  # fmt: skip


def summary(tag: str, rc: object, log: Path) -> dict:
    cols = "termination, json_extract(grade, '$.signature'), run_id, error"
    r = S.rows(STORE, cols)
    terms: dict[str, int] = {}
    sigs: dict[str, int] = {}
    errs: list[str] = []
    for term, sig, _run, err in r:
        terms[term] = terms.get(term, 0) + 1
        sigs[str(sig)] = sigs.get(str(sig), 0) + 1
        if err:
            errs.append(err[:160])
    try:
        c = sqlite3.connect(f"file:{STORE}?mode=ro", uri=True)
        runs = [(a[:8], f) for a, f in c.execute("SELECT id, finished_at FROM runs")]
        c.close()
    except sqlite3.Error as exc:
        runs = [str(exc)]
    tail = log.read_text(errors="replace").splitlines()[-5:] if log.exists() else []
    return {"tag": tag, "rc": rc, "rows": len(r), "terms": terms, "signature": sigs,
            "errors": sorted(set(errs))[:3], "runs": runs, "tail": [x[:240] for x in tail]}  # fmt: skip


def main() -> None:
    env2 = dict(ENVV)
    store2 = W / "eps"
    if CHANGE == "nokey":
        env2.pop("MCPGYM_BUNDLE_KEY")
    if CHANGE == "otherkey":
        env2["MCPGYM_BUNDLE_KEY"] = "o" * 32
    if CHANGE == "otherstore":
        store2 = W / "eps2"
    serve = ["serve", "helpdesk", "--port", str(EP), "--store", str(W / "eps")]
    grade = ["grading", "serve", "--port", str(GP), "--store"]
    procs = {
        "env": S.start(serve, ENVV, W / "env.log"),
        "grading": S.start([*grade, str(W / "eps")], ENVV, W / "grading.log"),
    }
    try:
        S.wait_up(EP)
        S.wait_up(GP)
        log = W / "eval1.log"
        ev = subprocess.Popen(EVAL, env=ENVV, cwd=W, stdout=open(log, "w"),
                              stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        t0 = time.monotonic()
        while len(S.rows(STORE)) < 10 and ev.poll() is None and time.monotonic() - t0 < 300:
            time.sleep(0.1)
        S.killpg(procs["grading"], signal.SIGKILL)
        procs["grading"].wait()
        print(json.dumps({"killed_grading_at_rows": len(S.rows(STORE))}), flush=True)
        procs["grading"] = S.start([*grade, str(store2)], env2, W / "grading.log")
        S.wait_up(GP)
        try:
            rc = ev.wait(timeout=400)
        except subprocess.TimeoutExpired:
            S.killpg(ev, signal.SIGKILL)
            rc = "TIMEOUT"
        print(json.dumps(summary("eval1", rc, log)), flush=True)
    finally:
        S.stop_all(list(procs.values()))


if __name__ == "__main__":
    main()
