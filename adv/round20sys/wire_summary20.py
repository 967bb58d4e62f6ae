"""Print a recorded wire (``adv/round18sys/wire_proxy.py`` JSON lines) one exchange at a time.

    uv run python adv/round20sys/wire_summary20.py WIRE.jsonl[.gz] [--full]

Per chat request: when it was sent, how long it took, the status, how many messages the
request held and how each call-only assistant message's ``content`` was sent (omitted,
``""``, ``null``), ``max_tokens``, then the response: the text joined from the SSE chunks
(or the unstreamed message), its finish reason and usage. A probe: it prints, asserts nothing.
"""

from __future__ import annotations

import gzip
import json
import sys
from typing import Any


def _lines(path: str) -> list[dict[str, Any]]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _content_form(message: dict[str, Any]) -> str:
    if "content" not in message:
        return "omitted"
    return "null" if message["content"] is None else repr(message["content"])[:20]


def _response(body: str) -> tuple[str, str | None, Any]:
    """(text, finish_reason, usage) from an SSE body or a JSON body."""
    text, finish, usage = "", None, None
    if body.lstrip().startswith("{"):
        data = json.loads(body)
        choice = (data.get("choices") or [{}])[0]
        msg = choice.get("message") or {}
        return (
            (msg.get("content") or "")
            + (f" [tool_calls {msg['tool_calls']}]" if msg.get("tool_calls") else ""),
            choice.get("finish_reason"),
            data.get("usage"),
        )
    for line in body.splitlines():
        if not line.startswith("data:") or line.strip() == "data: [DONE]":
            continue
        try:
            chunk = json.loads(line[5:])
        except ValueError:
            continue
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            if delta.get("tool_calls"):
                text += f" [tool_calls {delta['tool_calls']}]"
            finish = choice.get("finish_reason") or finish
        usage = chunk.get("usage") or usage
    return text, finish, usage


def main() -> None:
    path, full = sys.argv[1], "--full" in sys.argv
    for n, e in enumerate(_lines(path)):
        req = e.get("request")
        if e.get("path", "").endswith("/models"):
            continue
        if not isinstance(req, dict):
            print(f"#{n} {e.get('path')} status {e.get('status')}")
            continue
        msgs = req.get("messages") or []
        forms = [
            _content_form(m) for m in msgs if m.get("role") == "assistant" and m.get("tool_calls")
        ]
        roles = "".join((m.get("role") or "?")[0] for m in msgs)
        print(
            f"#{n} t0={e.get('t0', 0):.0f} {e.get('seconds', 0):.1f}s status={e.get('status')} "
            f"stream={req.get('stream')} max_tokens={req.get('max_tokens')} msgs={roles} "
            f"call-only forms={forms} closed={e.get('client_closed')}"
        )
        if full or len(msgs) > 2:
            for m in msgs[2:]:
                c = m.get("content")
                print(f"    > {m.get('role')}: {str(c)[:300]!r} calls={m.get('tool_calls')}")
        body = e.get("body") or ""
        text, finish, usage = (
            _response(body) if e.get("status") == 200 else (body[:600], None, None)
        )
        print(f"  < finish={finish} usage={usage}")
        print("    " + text[: 4000 if full else 900].replace("\n", "\n    "))


if __name__ == "__main__":
    main()
