"""§5 probe (round 11): bundle files renamed, added, doubled; a bundle key on both servers.

Usage: ``uv run python adv/round11sys/p5_bundle11.py``
Starts `mcpgym serve` and `mcpgym grading serve` (same store, same bundle key), runs the
reference and the null agent on order-status easy seeds 0-1 through them (so each variant
has a passing bundle P and a failing one F), then for each tampering copies F to a fresh
victim, tampers, and POSTs /grades for the victim's id. A tampering is a HOLE when the grade
comes back 200 with passed true (or a score above F's).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
W = Path("/tmp/r11/p5")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
STORE = W / "eps"
ENVV = dict(
    os.environ,
    MCPGYM_BUNDLE_KEY="p5-bundle-key-" + "x" * 20,
    MCPGYM_CONTROL_TOKEN="p5-ctl",
    MCPGYM_GRADING_TOKEN="p5-gr",
)
MC = [str(ROOT / ".venv/bin/mcpgym")]
EP, GP = 19731, 19732
GA = {"authorization": "Bearer p5-gr"}


def up(port: int) -> None:
    for _ in range(240):
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.25)
    raise SystemExit(f"{port} not up")


def run_agent(agent: str) -> list[tuple[str, str]]:
    db = W / f"{agent}.db"
    subprocess.run(
        MC
        + [
            "eval",
            "helpdesk",
            "--agent",
            agent,
            "--tasks",
            "order-status",
            "--bands",
            "easy",
            "--seeds",
            "0-1",
            "--no-baseline",
            "--store",
            str(db),
            "--env-url",
            f"http://127.0.0.1:{EP}",
            "--grading-url",
            f"http://127.0.0.1:{GP}",
        ],
        env=ENVV,
        cwd=W,
        capture_output=True,
        timeout=300,
    )
    c = sqlite3.connect(db)
    rows = c.execute("SELECT variant_id, episode_id FROM episodes ORDER BY seed").fetchall()
    c.close()
    return rows


def grade(eid: str) -> tuple[int, str]:
    r = httpx.post(
        f"http://127.0.0.1:{GP}/grades", headers=GA, json={"episode_id": eid}, timeout=60
    )
    return r.status_code, r.text


def fresh_id() -> str:
    return "ep_" + secrets.token_hex(16)


def main() -> None:
    env = subprocess.Popen(
        MC + ["serve", "helpdesk", "--port", str(EP), "--store", str(STORE)],
        env=ENVV,
        stdout=open(W / "env.log", "w"),
        stderr=subprocess.STDOUT,
    )
    gr = subprocess.Popen(
        MC + ["grading", "serve", "--port", str(GP), "--store", str(STORE)],
        env=ENVV,
        stdout=open(W / "gr.log", "w"),
        stderr=subprocess.STDOUT,
    )
    results = []
    try:
        up(EP)
        up(GP)
        ref = run_agent("reference")
        null = run_agent("null")
        (v0, P), (v1, P1) = ref
        (_, F), (_, F1) = null
        print("P", P, grade(P)[1][:120])
        print("F", F, grade(F)[1][:120])

        def victim_from(src: str) -> str:
            vid = fresh_id()
            shutil.copytree(STORE / src, STORE / vid)
            return vid

        def case(name: str, eid: str) -> None:
            st, body = grade(eid)
            try:
                j = json.loads(body)
            except ValueError:
                j = {}
            hole = st == 200 and (j.get("passed") or (j.get("score") or 0) > 0.5)
            results.append(
                {
                    "case": name,
                    "status": st,
                    "passed": j.get("passed"),
                    "score": j.get("score"),
                    "signature": j.get("signature"),
                    "hole": bool(hole),
                    "body": body[:200],
                }
            )
            print(json.dumps(results[-1]), flush=True)

        # 1 replay P's folder under a new id
        case("replay_P_new_id", victim_from(P))
        CA = {"authorization": "Bearer p5-ctl"}

        def new_F(seed: int = 0) -> str:
            """A failing sealed bundle of P's variant (seed 0) that was never graded."""
            e = httpx.post(
                f"http://127.0.0.1:{EP}/episodes",
                headers=CA,
                json={"task": "order-status", "band": "easy", "seed": seed},
            ).json()
            httpx.post(f"http://127.0.0.1:{EP}/episodes/{e['episode_id']}/end", headers=CA)
            return e["episode_id"]

        print("fresh F baseline", grade(new_F())[1][:160])

        def p_copy() -> str:
            vid = victim_from(P)
            m = json.loads((STORE / vid / "meta.json").read_text())
            m["episode_id"] = vid
            (STORE / vid / "meta.json").write_text(json.dumps(m))
            return vid

        # 1 each file of a P copy renamed (case, suffix, the format-1 name)
        for f, new in (
            ("log.jsonl", "Log.jsonl"),
            ("log.jsonl", "log.json"),
            ("meta.json", "meta.json.bak"),
            ("signature", "signature.old"),
            ("state.delta.gz", "final.db.gz"),
            ("state.delta.gz", "state.delta"),
            ("meta.json", "META.json"),
        ):
            vid = p_copy()
            (STORE / vid / f).rename(STORE / vid / new)
            case(f"P_copy_rename_{f}->{new}", vid)
        # 2 P's files renamed into a fresh F: F keeps its own, P's delta added as final.db.gz
        Fx = new_F()
        shutil.copy(STORE / P / "state.delta.gz", STORE / Fx / "final.db.gz")
        case("fresh_F_plus_P_delta_as_final.db.gz", Fx)
        Fx = new_F()
        (STORE / Fx / "state.delta.gz").unlink()
        shutil.copy(STORE / P / "state.delta.gz", STORE / Fx / "final.db.gz")
        case("fresh_F_delta_replaced_by_P_delta_named_final.db.gz", Fx)
        Fx = new_F()
        shutil.copy(STORE / P / "log.jsonl", STORE / Fx / "LOG.JSONL")
        shutil.copy(STORE / P / "meta.json", STORE / Fx / "meta.json.orig")
        case("fresh_F_plus_P_files_under_other_names", Fx)
        # 3 an extra file / folder in a verified P copy (should still verify or be refused)
        vid = p_copy()
        (STORE / vid / "extra.txt").write_text("x")
        case("P_copy_plus_extra_file", vid)
        vid = p_copy()
        (STORE / vid / "log.jsonl").unlink()
        (STORE / vid / "log.jsonl").mkdir()
        case("P_copy_log_is_a_folder", vid)
        # 4 a fresh F whose meta.json says format 1 (the whole database) over a delta
        Fx = new_F()
        m = json.loads((STORE / Fx / "meta.json").read_text())
        for k in ("format", "bundle_format", "version"):
            if k in m:
                m[k] = 1
        (STORE / Fx / "meta.json").write_text(json.dumps(m))
        case(
            f"fresh_F_meta_format_1 (keys {[k for k in ('format', 'bundle_format', 'version') if k in m]})",
            Fx,
        )
        # 5 the grading store itself: a grade asked for P while P's folder is renamed away
        tmp = STORE / (P + "-away")
        (STORE / P).rename(tmp)
        st, body = grade(P)
        results.append(
            {"case": "P_folder_renamed_away (cached?)", "status": st, "body": body[:200]}
        )
        print(json.dumps(results[-1]), flush=True)
        tmp.rename(STORE / P)
    finally:
        for p in (env, gr):
            p.send_signal(signal.SIGTERM)
            p.wait(30)
    print("HOLES:", [r["case"] for r in results if r.get("hole")])
    print("5xx:", [r["case"] for r in results if r.get("status", 0) >= 500])


if __name__ == "__main__":
    main()
