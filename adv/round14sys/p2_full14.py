"""§2 probe (round 14): a graceful stop when one bundle does not fit on the disk.

Usage: ``uv run python adv/round14sys/p2_full14.py [BIG_CALLS] [SMALL] [NBIG]`` (root: mounts a tmpfs)
The env server's store is on an 8 MiB tmpfs left with ~1.2 MB free. Episode A (opened
first) gets BIG_CALLS (40) refused calls with 60 KB of random text each (its log, capped
at ~64 KB a value, does not compress: ~2.4 MB); SMALL (10) more episodes get one
`get_policy` call each (a few KB). SIGTERM. Prints: the exit status, the log's lines about
sealing, bundles found (A's and the small ones), `.tmp-*` debris; then frees the space,
restarts the server on the same store and prints the debris again.
Expected: every episode that fits is sealed (`shutdown`) even when one does not; the one
that does not is named in the log; the exit status says the stop lost something; no
debris stays after the restart.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

BIG = int(sys.argv[1]) if len(sys.argv) > 1 else 40
SMALL = int(sys.argv[2]) if len(sys.argv) > 2 else 10
NBIG = int(sys.argv[3]) if len(sys.argv) > 3 else 1  # big episodes: first, then every SMALL // NBIG
W = Path("/tmp/r14/p2full")
FULL = W / "full"
PORT = 19391
CTL = {"authorization": "Bearer ctl-tok"}


def bundles() -> dict[str, list[str]]:
    eps = FULL / "eps"
    out: dict[str, list[str]] = {"sealed": [], "debris": []}
    if eps.exists():
        for p in eps.rglob("*"):
            if p.is_dir() and p.name.startswith(".tmp"):
                out["debris"].append(p.name)
            elif p.name == "meta.json":
                out["sealed"].append(p.parent.name)
    return out


def main() -> None:
    subprocess.run(["umount", str(FULL)], capture_output=True)
    subprocess.run(["rm", "-rf", str(W)])
    FULL.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(FULL)], check=True)
    try:
        (FULL / "filler").write_bytes(b"\0" * (8 * 1024 * 1024 - 1200 * 1024))
        (FULL / "eps").mkdir()
        env = S.probe_env()
        args = ["serve", "helpdesk", "--port", str(PORT), "--store", str(FULL / "eps")]
        srv = S.start(args, env, W / "env.log")
        S.wait_up(PORT)
        base = f"http://127.0.0.1:{PORT}"
        ids: list[str] = []
        big_ids: list[str] = []
        small_ids: list[str] = []
        with httpx.Client(timeout=60) as c:
            for i in range(1 + SMALL):
                r = c.post(
                    f"{base}/episodes",
                    json={"task": "order-status", "band": "easy", "seed": i},
                    headers=CTL,
                )
                ids.append(r.json()["episode_id"])
            step = max(1, (1 + SMALL) // NBIG)
            big_ids = ids[::step][:NBIG]
            for big_id in big_ids:
                for k in range(BIG):
                    junk = base64.b64encode(os.urandom(45_000)).decode()
                    S.tools_call(
                        c,
                        f"{base}/episodes/{big_id}/mcp",
                        k + 1,
                        "get_order",
                        {"order_id": 1, "junk": junk},
                    )
            small_ids = [e for e in ids if e not in big_ids]
            for eid in small_ids:
                S.tools_call(c, f"{base}/episodes/{eid}/mcp", 1, "get_policy", {})
        t0 = time.monotonic()
        S.killpg(srv, signal.SIGTERM)
        try:
            rc: object = srv.wait(60)
        except subprocess.TimeoutExpired:
            S.killpg(srv, signal.SIGKILL)
            rc = "TIMEOUT (killed)"
        found = bundles()
        log = (W / "env.log").read_text(errors="replace").splitlines()
        lines = [
            ln[:240]
            for ln in log
            if any(w in ln.lower() for w in ("seal", "error", "space", "traceback", "shutdown"))
        ]
        print(
            json.dumps(
                {
                    "rc": rc,
                    "stop_s": round(time.monotonic() - t0, 1),
                    "opened": len(ids),
                    "big_sealed": sum(1 for e in big_ids if e in found["sealed"]),
                    "big": len(big_ids),
                    "small_sealed": sum(1 for e in small_ids if e in found["sealed"]),
                    "small": len(small_ids),
                    "debris": found["debris"],
                    "log": lines[-12:],
                }
            ),
            flush=True,
        )
        (FULL / "filler").unlink()
        srv2 = S.start(args, env, W / "env2.log")
        S.wait_up(PORT)
        print(
            json.dumps(
                {
                    "after_restart": bundles(),
                    "small_sealed_by_then": sum(1 for e in small_ids if e in bundles()["sealed"]),
                }
            ),
            flush=True,
        )
        S.stop_all([srv2])
    finally:
        subprocess.run(["umount", str(FULL)], capture_output=True)


if __name__ == "__main__":
    main()
