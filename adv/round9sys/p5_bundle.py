"""§5 probe: bundle tampering with a bundle key on both servers.

Usage: ``uv run python adv/round9sys/p5_bundle.py``
Starts `mcpgym serve` and `mcpgym grading serve` (same store, same bundle key), runs the
reference and the null agent on order-status easy seeds 0-1 through them (so each variant
has a passing bundle P and a failing one F), then for each tampering copies F to a fresh
victim, tampers, and POSTs /grades for the victim's id. A tampering is a HOLE when the grade
comes back 200 with passed true (or a score above F's).
"""

from __future__ import annotations

import gzip
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
W = Path("/tmp/r9/p5")
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
EP, GP = 19711, 19712
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
        # 2 every file of P copied over a fresh F
        Fx = new_F()
        for f in ("log.jsonl", "state.delta.gz", "meta.json", "signature"):
            shutil.copy(STORE / P / f, STORE / Fx / f)
        case("copy_all_P_over_fresh_F", Fx)
        # 3 swap files from P into fresh Fs
        for combo in (
            ("log.jsonl",),
            ("state.delta.gz",),
            ("meta.json",),
            ("signature",),
            ("log.jsonl", "state.delta.gz"),
            ("state.delta.gz", "signature"),
            ("meta.json", "signature"),
            ("log.jsonl", "state.delta.gz", "signature"),
            ("meta.json", "state.delta.gz", "signature"),
        ):
            Fx = new_F()
            for f in combo:
                shutil.copy(STORE / P / f, STORE / Fx / f)
            case("swap_" + "+".join(combo) + "_P_into_F", Fx)
        # 4 edit meta of fresh Fs
        for key, val in (
            ("termination", "submitted"),
            ("answer", "UPS 1Z"),
            ("unlocked", True),
            ("steps", 99),
            ("episode_id", P),
            ("final_sha256", json.loads((STORE / P / "meta.json").read_text())["final_sha256"]),
        ):
            Fx = new_F()
            m = json.loads((STORE / Fx / "meta.json").read_text())
            m[key] = val
            (STORE / Fx / "meta.json").write_text(json.dumps(m))
            case(f"edit_meta_{key}", Fx)
        # 4b meta re-serialised with other whitespace/key order (same content)
        Fx = new_F()
        m = json.loads((STORE / Fx / "meta.json").read_text())
        (STORE / Fx / "meta.json").write_text(json.dumps(dict(reversed(list(m.items()))), indent=3))
        case("meta_reserialised_same_content (should still verify; fail is fine)", Fx)
        # 5 truncate / empty / delete files of a copy of P (signature verified must not survive)
        for f in ("log.jsonl", "state.delta.gz", "signature", "meta.json"):
            for how in ("truncate", "empty", "delete"):
                vid = fresh_id()
                shutil.copytree(STORE / P, STORE / vid)
                m = json.loads((STORE / vid / "meta.json").read_text())
                m["episode_id"] = vid
                (STORE / vid / "meta.json").write_text(json.dumps(m))
                p = STORE / vid / f
                if how == "truncate":
                    p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2])
                elif how == "empty":
                    p.write_bytes(b"")
                else:
                    p.unlink()
                case(f"{how}_{f}_of_P_copy", vid)
        # 6 the log edited: P's calls appended to a fresh F's log
        Fx = new_F()
        lines = (STORE / Fx / "log.jsonl").read_text().splitlines()
        (STORE / Fx / "log.jsonl").write_text(
            "\n".join(lines + (STORE / P / "log.jsonl").read_text().splitlines()) + "\n"
        )
        case("log_append_P_calls", Fx)
        # 7 delta: P's delta content recompressed (different bytes) into a fresh F
        Fx = new_F()
        raw = gzip.decompress((STORE / P / "state.delta.gz").read_bytes())
        (STORE / Fx / "state.delta.gz").write_bytes(gzip.compress(raw, 1))
        case("delta_P_content_recompressed_into_F", Fx)
        Fx = new_F()
        (STORE / Fx / "state.delta.gz").write_bytes(gzip.compress(raw, 1))
        shutil.copy(STORE / P / "signature", STORE / Fx / "signature")
        case("delta_P_recompressed+sig_into_F", Fx)
        # 8 symlink: a fresh F's folder made a link to P's; and to a copy of P's files
        Fx = new_F()
        shutil.rmtree(STORE / Fx)
        os.symlink(STORE / P, STORE / Fx)
        case("symlink_F_to_P", Fx)
        Fx = new_F()
        for f in ("log.jsonl", "state.delta.gz", "signature"):
            (STORE / Fx / f).unlink()
            os.symlink(STORE / P / f, STORE / Fx / f)
        case("file_symlinks_F_to_P", Fx)
        # 8b a bundle of another variant (seed 1, passing) over a fresh F of seed 0
        Fx = new_F()
        for f in ("log.jsonl", "state.delta.gz", "meta.json", "signature"):
            shutil.copy(STORE / P1 / f, STORE / Fx / f)
        case("copy_all_P1(seed1)_over_fresh_F(seed0)", Fx)
        # 9 path tricks in the id
        for eid in (
            f"../eps/{P}",
            f"{P}/",
            f"{P}/../{F}",
            P.upper(),
            f"./{P}",
            P + "\x00",
            "ep_" + "0" * 32,
        ):
            st, body = grade(eid)
            results.append({"case": f"id {eid!r}", "status": st, "body": body[:160]})
            print(json.dumps(results[-1]), flush=True)
        # 10 a grade of P asked again after tampering with P (cached grade?)
        m = json.loads((STORE / P / "meta.json").read_text())
        m["answer"] = "tampered"
        (STORE / P / "meta.json").write_text(json.dumps(m))
        case("P_regraded_after_meta_edit (cached grade)", P)
    finally:
        for p in (env, gr):
            p.send_signal(signal.SIGTERM)
            p.wait(30)
    print("HOLES:", [r["case"] for r in results if r.get("hole")])


if __name__ == "__main__":
    main()
