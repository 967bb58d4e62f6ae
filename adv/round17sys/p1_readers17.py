"""§1 probe (round 17): export, report, show and targets of a run while it is written.

Usage: ``uv run python adv/round17sys/p1_readers17.py [SEEDS [ROWS]]`` (default 0, 14)
Starts ``mcpgym serve helpdesk`` and ``mcpgym grading serve`` (adv/_sys.py), runs
``mcpgym eval helpdesk --agent reference --tasks all --bands all --seeds SEEDS --concurrency 2``
(28 slots + 28 baseline) and, while it runs, loops ``mcpgym export latest``, ``show latest
--json``, ``report latest`` and ``targets latest`` on the same store (each in turn), then
SIGTERMs the eval at ROWS rows and reads once more.
Prints each reader's rc, the rows it exported, whether ``show`` said the run is unfinished,
and any error line. Expected: every read succeeds (or refuses clearly), never a crash, a
half row, or a lock that stalls the campaign; an unfinished run is said to be one.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r17/readers")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
STORE = W / "runs.db"
SEEDS = sys.argv[1] if len(sys.argv) > 1 else "0"
EP, GP = 19821, 19822
LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else 14
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok")
EVAL = S.MCPGYM + [
    "eval", "helpdesk", "--agent", "reference", "--tasks", "all", "--bands", "all",
    "--seeds", SEEDS, "--concurrency", "2", "--env-url", f"http://127.0.0.1:{EP}",
    "--grading-url", f"http://127.0.0.1:{GP}", "--store", str(STORE), "--yes",
]  # fmt: skip


def read_once(i: int) -> None:
    for cmd in (["export", "latest", "--out", str(W / f"x{i}.jsonl"), "--include-unscored"],
                ["show", "latest", "--json", str(W / f"s{i}.json")],
                ["report", "latest", "--out", str(W / f"r{i}.html")],
                ["targets", "latest", "--out", str(W / f"t{i}.jsonl")]):  # fmt: skip
        t0 = time.monotonic()
        q = subprocess.run(S.MCPGYM + [cmd[0], "--store", str(STORE), *cmd[1:]], env=ENVV,
                           capture_output=True, text=True, timeout=120)  # fmt: skip
        dt = time.monotonic() - t0
        out = (q.stdout + q.stderr).strip().splitlines()
        extra = ""
        if cmd[0] == "export" and q.returncode == 0:
            lines = (W / f"x{i}.jsonl").read_text().splitlines()
            bad = sum(1 for ln in lines if not ln.startswith("{"))
            extra = f"{len(lines)} rows exported ({bad} not JSON)"
        if cmd[0] == "show" and q.returncode == 0:
            extra = "unfinished said" if any("unfinished" in ln for ln in out) else "no unfinished note"
            with open(W / f"s{i}.json") as fh:
                js = json.load(fh)
            extra += f"; json keys {sorted(js)[:6]}"
        err = [ln for ln in out if "rror" in ln or "raceback" in ln][:2]
        print(f"  read {i} {cmd[0]}: rc {q.returncode} {dt:.1f}s {extra} {err}")


with S.servers(EP, GP, W / "eps", ENVV, W):
    ev = subprocess.Popen(EVAL, env=ENVV, cwd=W, stdout=open(W / "eval.log", "w"),  # noqa: SIM115
                          stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    i = 0
    while ev.poll() is None and len(S.rows(STORE)) < LIMIT and i < 40:
        read_once(i)
        i += 1
        print(f"  rows now {len(S.rows(STORE))}")
    S.killpg(ev, signal.SIGTERM)
    rc = ev.wait(120)
    print(f"eval rc {rc}; rows {len(S.rows(STORE))}")
    read_once(99)
    print("eval tail:", (W / "eval.log").read_text().strip().splitlines()[-3:])
