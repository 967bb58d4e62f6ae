"""§2 probe (round 15): the stdio transport closed mid-call.

Usage: ``uv run python adv/round15sys/p2_stdio15.py``
For each way, starts ``mcpgym serve helpdesk --stdio --task order-status --seed 0``,
handshakes, makes one `get_policy` call (answered), then sends a second call and at once:
- ``stdin``: closes its standard input (EOF) without reading the answer;
- ``both``: closes its standard input and output (a client that died: a broken pipe);
- ``sigpipe_then_term``: closes its output, sends one more call, then SIGTERM;
- ``half_line``: sends half a JSON line (no newline), then EOF.
Prints the exit status, seconds to exit, the bundle's termination and the calls logged.
Expected: the process exits, every way leaves one sealed bundle whose log holds each call
the server ran; no debris.
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

W = Path("/tmp/r15/p2stdio")


def msg(i: int, method: str, params: dict | None = None) -> bytes:
    body: dict = {"jsonrpc": "2.0", "method": method}
    if i:
        body["id"] = i
    if params is not None:
        body["params"] = params
    return (json.dumps(body) + "\n").encode()


CALL = {"name": "get_policy", "arguments": {"topic": "returns"}}


def one(way: str) -> dict:
    store = W / way
    subprocess.run(["rm", "-rf", str(store)])
    store.mkdir(parents=True)
    args = ["serve", "helpdesk", "--stdio", "--task", "order-status", "--seed", "0"]
    p = subprocess.Popen(S.MCPGYM + [*args, "--store", str(store)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=open(store / "err.log", "w"),
                         env=S.probe_env(None, None), start_new_session=True)  # fmt: skip
    assert p.stdin and p.stdout
    p.stdin.write(msg(1, "initialize", S.INIT["params"]))
    p.stdin.flush()
    p.stdout.readline()
    p.stdin.write(msg(0, "notifications/initialized"))
    p.stdin.write(msg(2, "tools/call", CALL))
    p.stdin.flush()
    p.stdout.readline()
    t = time.monotonic()
    if way == "half_line":
        p.stdin.write(msg(3, "tools/call", CALL)[:40])
        p.stdin.close()
    else:
        p.stdin.write(msg(3, "tools/call", CALL))
        p.stdin.flush()
        if way in ("both", "sigpipe_then_term"):
            p.stdout.close()
        if way == "sigpipe_then_term":
            time.sleep(0.5)
            p.stdin.write(msg(4, "tools/call", CALL))
            p.stdin.flush()
            time.sleep(0.5)
            S.killpg(p, signal.SIGTERM)
        else:
            p.stdin.close()
    try:
        rc: object = p.wait(30)
    except subprocess.TimeoutExpired:
        rc = "still running after 30 s"
        S.killpg(p, signal.SIGKILL)
    took = round(time.monotonic() - t, 1)
    out: dict = {"way": way, "rc": rc, "exit_s": took}
    metas = list(store.glob("ep_*/meta.json"))
    out["bundles"] = len(metas)
    for m in metas:
        log = [json.loads(x) for x in (m.parent / "log.jsonl").read_text().splitlines() if x]
        out["termination"] = json.loads(m.read_text()).get("termination")
        out["calls_logged"] = len(log)
    out["debris"] = [x.name for x in store.iterdir() if x.name.startswith(".tmp")]
    out["err_tail"] = [x[:160] for x in (store / "err.log").read_text().splitlines()[-2:]]
    return out


def main() -> None:
    for way in sys.argv[1:] or ["stdin", "both", "sigpipe_then_term", "half_line"]:
        print(json.dumps(one(way)), flush=True)


if __name__ == "__main__":
    main()
