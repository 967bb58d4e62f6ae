"""§8 probe: the model loop against fake_openai.py, one eval per scenario.

Usage: ``uv run python adv/round9sys/p8_models.py [SCENARIO ...]`` (default: all).
Writes /tmp/r9/p8/results.jsonl and prints one line per scenario: rc, termination,
error head, whether the turn-1 request carried a tool result, the flag.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import fake_openai as F  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORK = Path("/tmp/r9/p8")
PORT = 18932
SHARED_ARGS: list[str] = []  # --env-url/--grading-url once servers are shared (see main)
ENVV = dict(__import__("os").environ, MCPGYM_CONTROL_TOKEN="p8-ctl", MCPGYM_GRADING_TOKEN="p8-gr")


def scenarios() -> list[str]:
    base = ["resend", "same500_all", "same500_t1", "same500_reqid", "flaky500"]
    base += list(F.OVERFLOW) + ["o_stream_error_event", "o_length_zero", "o_second"]
    base += [
        "stall_mid",
        "stall_head",
        "drip",
        "stream_error_midway",
        "done_no_finish",
        "finish_no_done_cut",
    ]
    base += [f"f_{k}" for k in F.FORMS] + list(F.UNREADABLE) + ["final_answer"]
    return base


def run(sc: str) -> dict:
    store = WORK / f"{sc}.db"
    store.unlink(missing_ok=True)
    seeds = "0-2" if sc.startswith(("o_", "same500")) else "0"
    cmd = [
        "uv",
        "run",
        "--project",
        str(ROOT),
        "mcpgym",
        "eval",
        "helpdesk",
        "--base-url",
        f"http://127.0.0.1:{PORT}/s/{sc}/v1",
        "--tasks",
        "order-status",
        "--bands",
        "easy",
        "--seeds",
        seeds,
        "--no-baseline",
        "--store",
        str(store),
        "--concurrency",
        "1",
        "--request-timeout",
        "2",
        "--infra-retries",
        "1",
        "--infra-retry-wait",
        "0",
        "--timeout",
        "90",
    ] + SHARED_ARGS
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=WORK, capture_output=True, text=True, timeout=240, env=ENVV)
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out = "TIMEOUT", str(e.stdout or "") + str(e.stderr or "")
    wall = time.monotonic() - t0
    rows = []
    if store.exists():
        db = sqlite3.connect(store)
        for term, eterm, err, tr, scored, attempts in db.execute(
            "SELECT termination, episode_termination, error, transcript, scored, attempts FROM episodes"
        ):
            msgs = json.loads(tr) if tr else []
            roles = "".join((m.get("role") or "?")[0] for m in msgs)
            flagged = any(m.get("mcpgym_unparsed_tool_call") for m in msgs)
            parsed = [
                m.get("mcpgym_parsed_tool_calls") for m in msgs if m.get("mcpgym_parsed_tool_calls")
            ]
            rows.append(
                {
                    "term": term,
                    "eterm": eterm,
                    "scored": scored,
                    "attempts": attempts,
                    "err": (err or "")[:160],
                    "roles": roles,
                    "flagged": flagged,
                    "parsed": str(parsed)[:80],
                }
            )
        db.close()
    log = Path("/tmp/r9/fake") / f"{sc}.jsonl"
    reqs = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    tool_in_t1 = any(any(m.get("role") == "tool" for m in r["messages"]) for r in reqs)
    told = any(
        any(m.get("role") == "user" and "could not" in str(m.get("content")) for m in r["messages"])
        for r in reqs
    )
    null_content = any(
        any(
            m.get("role") == "assistant" and "content" in m and m["content"] is None
            for m in r["messages"]
        )
        for r in reqs
    )
    tail = [ln for ln in out.splitlines() if "error" in ln.lower() or "stopping" in ln.lower()][-3:]
    return {
        "sc": sc,
        "rc": rc,
        "wall": round(wall, 1),
        "requests": len(reqs),
        "tool_result_sent": tool_in_t1,
        "told_once": told,
        "null_content_sent": null_content,
        "rows": rows,
        "tail": tail,
    }


def main() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    fake = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "fake_openai.py"), str(PORT), "/tmp/r9/fake"]
    )
    procs = [fake]
    (WORK / "eps").mkdir(exist_ok=True)
    mc = ["uv", "run", "--project", str(ROOT), "mcpgym"]
    procs.append(
        subprocess.Popen(
            mc + ["serve", "helpdesk", "--port", "18933", "--store", str(WORK / "eps")],
            env=ENVV,
            stdout=subprocess.DEVNULL,
            stderr=open(WORK / "serve.log", "w"),
        )
    )
    procs.append(
        subprocess.Popen(
            mc + ["grading", "serve", "--port", "18934", "--store", str(WORK / "eps")],
            env=ENVV,
            stdout=subprocess.DEVNULL,
            stderr=open(WORK / "grading.log", "w"),
        )
    )
    SHARED_ARGS.extend(
        ["--env-url", "http://127.0.0.1:18933", "--grading-url", "http://127.0.0.1:18934"]
    )
    time.sleep(25)
    try:
        todo = sys.argv[1:] or scenarios()
        with open(WORK / "results.jsonl", "a") as f:
            for sc in todo:
                (Path("/tmp/r9/fake") / f"{sc}.jsonl").unlink(missing_ok=True)
                r = run(sc)
                f.write(json.dumps(r) + "\n")
                f.flush()
                print(json.dumps(r), flush=True)
    finally:
        for p in procs:
            p.terminate()
            p.wait(10)


if __name__ == "__main__":
    main()
