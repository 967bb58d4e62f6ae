"""§5/§3 probe (round 14): JSON-RPC shapes on one episode URL that earlier rounds did not send.

Usage: ``uv run python adv/round14sys/p5_wire14.py``
One `mcpgym serve helpdesk` (adv/_sys.py); one episode; each input below goes to its URL,
then the episode is ended and its bundle's log read. Prints per input: HTTP status, the
answer's first 160 characters, and whether the call ran (the log's steps) and under which
arguments. Expected: a call runs only as a request (never as a notification, unlogged), and
what the log records is what ran.
Inputs: `tools/call` as a notification (no id); with `"id": null`; duplicate keys in the
arguments (`{"order_id": 1, "order_id": 2}`) and in params (`"name"` twice); an id of 1.0 and
of true; `arguments` null; a method `tools/call ` with a trailing space.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r14/p5wire")
PORT = 19381
CTL = {"authorization": "Bearer ctl-tok"}
H = {**S.ACC, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call"}
M = json.dumps(S.META)


def raw(
    name: str, args_json: str, id_json: str | None, method: str = "tools/call", extra: str = ""
) -> str:
    idp = "" if id_json is None else f'"id": {id_json}, '
    return f'{{"jsonrpc": "2.0", {idp}"method": "{method}", "params": {{"name": "{name}"{extra}, "arguments": {args_json}, "_meta": {M}}}}}'


CASES = {
    "notification_no_id": (
        raw("add_ticket_note", '{"ticket_id": 1, "text": "N1"}', None),
        "add_ticket_note",
    ),
    "id_null": (
        raw("add_ticket_note", '{"ticket_id": 1, "text": "N2"}', "null"),
        "add_ticket_note",
    ),
    "dup_arg_keys": (raw("get_order", '{"order_id": 1, "order_id": 2}', "3"), "get_order"),
    "dup_name_keys": (
        raw("get_order", '{"order_id": 1}', "4", extra=', "name": "get_policy"'),
        "get_order",
    ),
    "id_float": (raw("get_order", '{"order_id": 1}', "1.0"), "get_order"),
    "id_true": (raw("get_order", '{"order_id": 1}', "true"), "get_order"),
    "arguments_null": (raw("get_policy", "null", "7"), "get_policy"),
    "method_trailing_space": (
        raw("get_order", '{"order_id": 1}', "8", method="tools/call "),
        "get_order",
    ),
}


def main() -> None:
    W.mkdir(parents=True, exist_ok=True)
    with S.servers(PORT, None, W / "eps", S.probe_env(), W), httpx.Client(timeout=30) as c:
        base = f"http://127.0.0.1:{PORT}"
        for case, (body, name) in CASES.items():
            ep = c.post(
                f"{base}/episodes",
                json={"task": "order-status", "band": "easy", "seed": 0},
                headers=CTL,
            ).json()
            r = c.post(ep["mcp_url"], content=body, headers={**H, "mcp-name": name})
            meta = c.post(f"{base}/episodes/{ep['episode_id']}/end", json={}, headers=CTL).json()
            logf = W / "eps" / ep["episode_id"] / "log.jsonl"
            lines = [json.loads(x) for x in logf.read_text().splitlines()] if logf.exists() else []
            ran = [(x.get("tool") or x.get("name"), x.get("arguments")) for x in lines]
            print(
                json.dumps(
                    {
                        "case": case,
                        "status": r.status_code,
                        "answer": r.text[:160],
                        "steps": meta.get("steps"),
                        "logged": str(ran)[:200],
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
