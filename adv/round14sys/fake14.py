"""Round 14's fake OpenAI-compatible server (`n_*` scenarios): odd-but-real answer shapes
not tried before: content as a list of typed parts (Mistral's Magistral API, some proxies),
the legacy ``function_call`` field (pre-`tools` servers), a non-streamed JSON answer to a
streamed request, a last chunk carrying the whole ``message`` again, ``content_filter``.
Probe only (§8). Run: ``uv run python adv/round14sys/fake14.py PORT LOGDIR``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

A1 = '{"order_id": 1}'


def whole(message: dict[str, Any], finish: str) -> Any:
    """A non-streamed chat.completion (whatever the request asked)."""
    from starlette.responses import JSONResponse

    body = {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "fake",
        "choices": [
            {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }
    return JSONResponse(body)


def scenario(sc: str, t: int, n: int) -> Any:
    role = S.chunk({"role": "assistant", "content": ""})
    if sc == "n_parts_stream":  # content as typed parts, streamed
        parts = [{"type": "text", "text": S.FINAL}]
        return S.sse([role, S.chunk({"content": parts}), S.chunk({}, "stop"), S.usage(), S.DONE])
    if sc == "n_magistral_stream":  # thinking part, then text part (Mistral Magistral)
        think = [
            {
                "type": "thinking",
                "thinking": [{"type": "text", "text": "The customer asks about order 1."}],
            }
        ]
        text = [{"type": "text", "text": S.FINAL}]
        return S.sse(
            [
                role,
                S.chunk({"content": think}),
                S.chunk({"content": text}),
                S.chunk({}, "stop"),
                S.usage(),
                S.DONE,
            ]
        )
    if sc == "n_parts_json":  # non-streamed answer, content as parts
        return whole({"content": [{"type": "text", "text": S.FINAL}]}, "stop")
    if sc == "n_legacy_fc_stream":  # legacy function_call delta, finish function_call
        if t == 0:
            fc = {"name": "get_order", "arguments": A1}
            return S.sse(
                [
                    S.chunk({"role": "assistant", "content": None}),
                    S.chunk({"function_call": fc}),
                    S.chunk({}, "function_call"),
                    S.usage(),
                    S.DONE,
                ]
            )
        return S.text_stream(S.FINAL)
    if sc == "n_legacy_fc_json":
        if t == 0:
            return whole(
                {"content": None, "function_call": {"name": "get_order", "arguments": A1}},
                "function_call",
            )
        return whole({"content": S.FINAL}, "stop")
    if sc == "n_json_for_stream":  # stream asked, a whole JSON answer given (call, then text)
        if t == 0:
            call = {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_order", "arguments": A1},
            }
            return whole({"content": None, "tool_calls": [call]}, "tool_calls")
        return whole({"content": S.FINAL}, "stop")
    if (
        sc == "n_final_message_chunk"
    ):  # deltas, then a last chunk with delta {} and the whole message
        last = {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "fake",
            "choices": [
                {
                    "index": 0,
                    "delta": {},
                    "message": {"role": "assistant", "content": S.FINAL},
                    "finish_reason": "stop",
                }
            ],
        }
        return S.sse(
            [
                role,
                S.chunk({"content": S.FINAL}),
                f"data: {json.dumps(last)}\n\n",
                S.usage(),
                S.DONE,
            ]
        )
    if sc == "n_content_filter":  # Azure: the text stopped by the content filter
        return S.sse(
            [
                role,
                S.chunk({"content": "Your order shipped with"}),
                S.chunk({}, "content_filter"),
                S.usage(),
                S.DONE,
            ]
        )
    if sc == "n_fc_and_tools_none":  # finish function_call, no call at all, no text
        return S.sse(
            [
                S.chunk({"role": "assistant", "content": None}),
                S.chunk({}, "function_call"),
                S.usage(),
                S.DONE,
            ]
        )
    if sc in ("n_gzip_broken_stream", "n_gzip_broken_json"):  # a proxy's cut gzip body
        from starlette.responses import Response

        ctype = "text/event-stream" if sc.endswith("stream") else "application/json"
        return Response(
            b"\x1f\x8b\x08\x00garbage-not-deflate",
            media_type=ctype,
            headers={"content-encoding": "gzip"},
        )
    return None


def answer(sc: str, body: dict[str, Any], n: int) -> Any:
    return scenario(sc, S.turn_of(body), n) if sc.startswith("n_") else None


LOGDIR = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/r14/fake")
app = S.fake_app(answer, LOGDIR)

if __name__ == "__main__":
    S.run_fake(app, int(sys.argv[1]))
