"""§5 probe (round 12): the log is capped, is the state? One agent writes large texts into
the environment's own state (ticket notes), each under the 4 MiB request cap.

Usage: ``uv run python adv/round12sys/p5_state12.py [N] [KB]`` (default 60 calls of 1,000 KB).
Starts `mcpgym serve helpdesk`, opens one episode, calls `add_ticket_note` N times with a
KB-kilobyte random (incompressible) body, ends it, and prints: answers, server RSS, the
bundle's files and sizes (state delta vs log), the termination. Expected (issue 9 §5): one
episode's footprint in the store and in memory is bounded, like its log.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 60
KB = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
W = Path("/tmp/r12/p5state")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19871
BASE = f"http://127.0.0.1:{PORT}"
ENVV = S.probe_env(control="c12", grading=None, bundle_key="z" * 32)
CA = {"authorization": "Bearer c12"}
call, rss_mb = S.tools_call, S.rss_mb


def main() -> None:
    with S.servers(PORT, None, W / "eps", ENVV, W) as procs:
        srv = procs["env"]
        c = httpx.Client(timeout=120)
        ep = c.post(BASE + "/episodes", headers=CA, json={"task": "order-status"}).json()
        url = ep["mcp_url"]
        r = call(c, url, 1, "list_tickets", {})
        text = r.text
        tid = None
        for tok in text.replace('"', " ").replace(",", " ").split():
            if tok.isdigit() and len(tok) >= 4:
                tid = int(tok)
                break
        print(r.text[:200])
        print(
            json.dumps({"list_tickets": r.status_code, "ticket": tid, "rss0": rss_mb(srv.pid)}),
            flush=True,
        )
        codes: dict[str, int] = {}
        t0 = time.monotonic()
        for i in range(N):
            body = base64.b64encode(os.urandom(KB * 768)).decode()
            r = call(c, url, 10 + i, "add_ticket_note", {"ticket_id": tid, "body": body})
            err = '"isError":true' in r.text.replace(" ", "")
            k = f"{r.status_code}{' tool-error' if err else ''}"
            codes[k] = codes.get(k, 0) + 1
            if i in (0, N - 1) or (err and codes[k] == 1):
                print(
                    json.dumps({"call": i, "status": r.status_code, "head": r.text[:240]}),
                    flush=True,
                )
        print(
            json.dumps(
                {
                    "codes": codes,
                    "wall_s": round(time.monotonic() - t0, 1),
                    "rss_mb": rss_mb(srv.pid),
                }
            ),
            flush=True,
        )
        st = c.get(BASE + f"/episodes/{ep['episode_id']}", headers=CA)
        print(json.dumps({"status_route": st.text[:300]}), flush=True)
        c.post(BASE + f"/episodes/{ep['episode_id']}/end", headers=CA)
        time.sleep(3)
        for d in (W / "eps").iterdir():
            if d.is_dir():
                meta = (
                    json.loads((d / "meta.json").read_text()) if (d / "meta.json").exists() else {}
                )
                print(
                    json.dumps(
                        {
                            "bundle": d.name,
                            "files": {p.name: p.stat().st_size for p in d.iterdir()},
                            "termination": meta.get("termination"),
                        }
                    ),
                    flush=True,
                )
        print(json.dumps({"rss_after_mb": rss_mb(srv.pid)}))


if __name__ == "__main__":
    main()
