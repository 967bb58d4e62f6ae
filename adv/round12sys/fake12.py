"""Round 12's fake OpenAI-compatible server: round 11's `fake11` (every scenario kept) plus
model-server outcomes not tried before (`m_*`): finish reasons other than stop/length/
tool_calls (`abort`, `error`), streamed calls without an `index`, a stream cut inside a
call, 429 with `Retry-After`, duplicated call ids, non-object arguments. Probe only (§8).
The server's pieces are `adv/_sys.py`'s (`fake_app`); other scenarios go to round 11's.

Run: ``uv run python adv/round12sys/fake12.py PORT LOGDIR`` (stops after 40 minutes).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

A1, A2 = '{"order_id": 1}', '{"order_id": 2}'


def scenario(sc: str, t: int, n: int) -> Any:
    role = S.chunk({"role": "assistant", "content": None})
    if sc == "m_abort_text":  # vLLM: the request was aborted server-side (finish "abort")
        return S.sse(
            [
                S.chunk({"role": "assistant", "content": ""}),
                S.chunk({"content": "Your order shipped with"}),
                S.chunk({}, "abort"),
                S.usage(),
                S.DONE,
            ]
        )
    if sc == "m_error_finish":  # finish_reason "error" (some proxies / llama.cpp forks)
        return S.sse(
            [
                S.chunk({"role": "assistant", "content": ""}),
                S.chunk({"content": "Your order"}),
                S.chunk({}, "error"),
                S.usage(),
                S.DONE,
            ]
        )
    if sc == "m_two_calls_no_index":  # each call whole in its own chunk, no `index` (Gemini compat)
        if t == 0:
            return S.sse(
                [
                    role,
                    S.chunk({"tool_calls": [S.tool_call(None, "c_a", "get_order", A1)]}),
                    S.chunk({"tool_calls": [S.tool_call(None, "c_b", "get_order", A2)]}),
                    S.chunk({}, "tool_calls"),
                    S.usage(),
                    S.DONE,
                ]
            )
        return S.text_stream(S.FINAL)
    if sc == "m_two_calls_same_index":  # both whole calls say index 0, distinct ids
        if t == 0:
            return S.sse(
                [
                    role,
                    S.chunk({"tool_calls": [S.tool_call(0, "c_a", "get_order", A1)]}),
                    S.chunk({"tool_calls": [S.tool_call(0, "c_b", "get_order", A2)]}),
                    S.chunk({}, "tool_calls"),
                    S.usage(),
                    S.DONE,
                ]
            )
        return S.text_stream(S.FINAL)
    if (
        sc == "m_cut_in_call"
    ):  # a call's arguments half sent, then the body ends (no finish, no DONE)
        return S.sse(
            [role, S.chunk({"tool_calls": [S.tool_call(0, "c1", "get_order", '{"order_')]})]
        )
    if sc == "m_cut_in_call_done":  # same, then [DONE] with no finish_reason
        return S.sse(
            [role, S.chunk({"tool_calls": [S.tool_call(0, "c1", "get_order", '{"order_')]}), S.DONE]
        )
    if sc == "m_cut_text_nodone":  # text, then the body ends (no finish, no DONE)
        return S.sse(
            [
                S.chunk({"role": "assistant", "content": ""}),
                S.chunk({"content": "Your order shipped with"}),
            ]
        )
    if sc == "m_length_in_call":  # finish length inside the call's arguments
        return S.sse(
            [
                role,
                S.chunk({"tool_calls": [S.tool_call(0, "c1", "get_order", '{"order_')]}),
                S.chunk({}, "length"),
                S.usage(completion=2048),
                S.DONE,
            ]
        )
    if sc == "m_dup_ids":  # two calls, one id, both turns reuse call_1
        if t == 0:
            return S.sse(
                [
                    role,
                    S.chunk(
                        {
                            "tool_calls": [
                                S.tool_call(0, "call_1", "get_order", A1),
                                S.tool_call(1, "call_1", "get_order", A2),
                            ]
                        }
                    ),
                    S.chunk({}, "tool_calls"),
                    S.usage(),
                    S.DONE,
                ]
            )
        if t == 1:
            return S.call_stream("get_order", {"order_id": 1})
        return S.text_stream(S.FINAL)
    if sc == "m_args_string":  # arguments double-encoded (a JSON string holding JSON)
        if t == 0:
            return S.sse(
                [
                    role,
                    S.chunk({"tool_calls": [S.tool_call(0, "c1", "get_order", json.dumps(A1))]}),
                    S.chunk({}, "tool_calls"),
                    S.usage(),
                    S.DONE,
                ]
            )
        return S.text_stream(S.FINAL)
    if sc == "m_429_ra_small":  # 429 Retry-After 1 on the first two requests, then fine
        if n <= 2:
            return S.err(429, "Rate limit reached", headers={"Retry-After": "1"})
        return S.text_stream(S.FINAL)
    if sc == "m_429_ra_huge":  # 429 with Retry-After one day, always
        return S.err(429, "Rate limit reached", headers={"Retry-After": "86400"})
    if sc == "m_429_ra_date":  # 429 with an HTTP-date Retry-After in the past, then fine
        if n <= 1:
            return S.err(
                429, "Rate limit", headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}
            )
        return S.text_stream(S.FINAL)
    if sc == "m_finish_calls_none":  # finish tool_calls but no call, text is the answer
        return S.sse(
            [
                S.chunk({"role": "assistant", "content": ""}),
                S.chunk({"content": S.FINAL}),
                S.chunk({}, "tool_calls"),
                S.usage(),
                S.DONE,
            ]
        )
    if sc == "m_name_split":  # the name streamed in two pieces, args in three
        if t == 0:
            return S.sse(
                [
                    role,
                    S.chunk({"tool_calls": [S.tool_call(0, "c1", "get_", "")]}),
                    S.chunk({"tool_calls": [S.tool_call(0, None, "order", '{"ord')]}),
                    S.chunk({"tool_calls": [S.tool_call(0, None, None, 'er_id": ')]}),
                    S.chunk({"tool_calls": [S.tool_call(0, None, None, "1}")]}),
                    S.chunk({}, "tool_calls"),
                    S.usage(),
                    S.DONE,
                ]
            )
        return S.text_stream(S.FINAL)
    return None


def answer(sc: str, body: dict[str, Any], n: int) -> Any:
    return scenario(sc, S.turn_of(body), n) if sc.startswith("m_") else None


def older(request: Any) -> Any:
    """Round 11's fake (and round 9's through it) for the scenarios before round 12."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round11sys"))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round9sys"))
    import fake11

    return fake11.chat(request)


LOGDIR = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/r12/fake")
app = S.fake_app(answer, LOGDIR, fallback=older)

if __name__ == "__main__":
    S.run_fake(app, int(sys.argv[1]))
