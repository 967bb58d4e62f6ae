"""§5 probe (round 16): a failing episode's bundle tampered with, then graded.

Usage: ``uv run python adv/round16sys/p5_tamper16.py``
Starts both servers with one bundle key (adv/_sys.py), runs ``mcpgym eval helpdesk
--tasks order-status --bands easy --seeds 0`` with the reference agent (a passing bundle P)
and with ``null`` (a failing bundle F), then for each tampering (a copy of F's folder as a
new episode id would be refused as a mismatch, so each is done on F itself and undone
after) asks a fresh grading service (same key, same store) for F's grade. Prints per
tampering: status, score/passed or the refusal.
Expected: every tampering that changes what is graded is refused; F never passes.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r16/p5")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
EPS = W / "eps"
EP, GP = 19811, 19812
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok", bundle_key="k" * 32)


def run_eval(agent: str) -> str:
    cmd = S.MCPGYM + ["eval", "helpdesk", "--agent", agent, "--tasks", "order-status",
                      "--bands", "easy", "--seeds", "0", "--no-baseline", "--new-run",
                      "--env-url", f"http://127.0.0.1:{EP}", "--grading-url", f"http://127.0.0.1:{GP}",
                      "--store", str(W / "runs.db")]  # fmt: skip
    subprocess.run(cmd, env=ENVV, cwd=W, capture_output=True, timeout=300)
    c = sqlite3.connect(W / "runs.db")
    (eid,) = c.execute(
        "SELECT episode_id FROM episodes WHERE agent = ? ORDER BY id DESC LIMIT 1", [agent]
    ).fetchone()
    c.close()
    return str(eid)


def grade(eid: str) -> str:
    grading = S.start(
        ["grading", "serve", "--port", str(GP + 10), "--store", str(EPS)], ENVV, W / "g2.log"
    )
    try:
        S.wait_up(GP + 10)
        r = httpx.post(f"http://127.0.0.1:{GP + 10}/grades", json={"episode_id": eid},
                       headers={"authorization": "Bearer gr-tok"}, timeout=120)  # fmt: skip
        d = r.json()
        if r.status_code == 200:
            return f"200 score={d.get('score')} passed={d.get('passed')} signature={d.get('signature')}"
        return f"{r.status_code} {str(d.get('error'))[:150]}"
    finally:
        S.stop_all([grading])


def main() -> None:
    with S.servers(EP, GP, EPS, ENVV, W):
        p, f = run_eval("reference"), run_eval("null")
    P, F = EPS / p, EPS / f
    print("P", p, sorted(x.name for x in P.iterdir()), "\nF", f, flush=True)
    saved = W / "F.saved"
    shutil.copytree(F, saved)

    def restore() -> None:
        if F.is_symlink() or F.is_file():
            F.unlink()
        else:
            shutil.rmtree(F)
        shutil.copytree(saved, F)

    state = "state.delta.gz"
    cases = {
        "untouched": lambda: None,
        "P state into F": lambda: shutil.copy(P / state, F / state),
        "P state+meta into F": lambda: (shutil.copy(P / state, F / state), shutil.copy(P / "meta.json", F / "meta.json")),
        "P whole folder into F": lambda: (shutil.rmtree(F), shutil.copytree(P, F)),
        "F symlink to P": lambda: (shutil.rmtree(F), F.symlink_to(P)),
        "P final.db.gz beside F state": lambda: (F / "final.db.gz").write_bytes(gzip.compress(gzip.decompress((P / state).read_bytes()))),
        "no signature": lambda: (F / "signature").unlink(),
        "log + blank line": lambda: (F / "log.jsonl").write_bytes((F / "log.jsonl").read_bytes() + b"\n"),
        "log emptied": lambda: (F / "log.jsonl").write_bytes(b""),
        "meta reindented": lambda: (F / "meta.json").write_text(json.dumps(json.loads((F / "meta.json").read_text()))),
        "meta extra field": lambda: (F / "meta.json").write_text(json.dumps({**json.loads((F / "meta.json").read_text()), "passed": True})),
        "meta termination": lambda: (F / "meta.json").write_text(json.dumps({**json.loads((F / "meta.json").read_text()), "termination": "submitted"})),
        "state + 2nd gzip member": lambda: (F / state).write_bytes((F / state).read_bytes() + (P / state).read_bytes()),
        "signature of P": lambda: shutil.copy(P / "signature", F / "signature"),
    }  # fmt: skip
    for name, tamper in cases.items():
        restore()
        try:
            tamper()
        except Exception as exc:  # noqa: BLE001 - a probe
            print(f"{name:32s} tamper failed: {exc}")
            continue
        print(f"{name:32s} {grade(f)}", flush=True)
    restore()
    for bad in ["../eps/" + f, f + "/..", f.upper(), f + "\x00", "ep_" + "0" * 32]:
        print(f"episode_id {bad!r:48s} {grade(bad)}", flush=True)


if __name__ == "__main__":
    main()
