"""Round 16's fake OpenAI-compatible server (`r_*` scenarios): model-server oddities of the
stream itself. Probe only (§8).
Run: ``uv run python adv/round16sys/fake16.py PORT LOGDIR``.

- ``r_keepalive``: a 200 stream that sends only SSE comments (``: ping``) every 0.5 s, forever;
- ``r_html200``: a 200 ``text/html`` page (a proxy's error page);
- ``r_choices_empty``: a 200 JSON completion with ``choices: []``;
- ``r_split``: the answer's SSE events cut into 3-byte pieces;
- ``r_usage_only``: a stream of only the usage event and ``[DONE]``;
- ``r_length_half``: a half-written tool call, ``finish_reason: length``;
- ``r_no_done``: the answer without ``[DONE]`` (the connection just closes);
- ``r_index5``: one tool call streamed at index 5 (no 0-4);
- ``r_500_once``: a 500 on the first request, then the answer;
- ``r_big_answer``: a 3 MB final answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402


def stream(pieces: list[str], delay: float = 0.0, forever: str | None = None) -> Any:
    import anyio
    from starlette.responses import StreamingResponse

    async def gen() -> Any:
        for p in pieces:
            yield p.encode()
            if delay:
                await anyio.sleep(delay)
        while forever is not None:
            yield forever.encode()
            await anyio.sleep(0.5)

    return StreamingResponse(gen(), media_type="text/event-stream")


def answer_events(text: str = S.FINAL) -> list[str]:
    head = S.chunk({"role": "assistant", "content": ""})
    return [head, S.chunk({"content": text}), S.chunk({}, "stop"), S.usage(), S.DONE]


def scenario(sc: str, body: dict[str, Any], n: int) -> Any:
    from starlette.responses import JSONResponse, Response

    t = S.turn_of(body)
    if sc == "r_keepalive":
        return stream([": ping\n\n"], forever=": ping\n\n")
    if sc == "r_html200":
        return Response("<html><body>502 Bad Gateway</body></html>", media_type="text/html")
    if sc == "r_choices_empty":
        return JSONResponse(
            {"id": "c", "object": "chat.completion", "created": 1, "model": "fake", "choices": []}
        )
    if sc == "r_split":
        whole = "".join(answer_events())
        return stream([whole[i : i + 3] for i in range(0, len(whole), 3)])
    if sc == "r_usage_only":
        return stream([S.usage(), S.DONE])
    if sc == "r_length_half":
        head = S.chunk({"role": "assistant", "content": None})
        half = S.tool_call(0, "call_1", "get_order", '{"order_id": ')
        return stream(
            [head, S.chunk({"tool_calls": [half]}), S.chunk({}, "length"), S.usage(), S.DONE]
        )
    if sc == "r_no_done":
        return stream(answer_events()[:-1])
    if sc == "r_index5":
        if t == 0:
            head = S.chunk({"role": "assistant", "content": None})
            call = S.tool_call(5, "call_5", "get_order", json.dumps({"order_id": 1}))
            return stream(
                [
                    head,
                    S.chunk({"tool_calls": [call]}),
                    S.chunk({}, "tool_calls"),
                    S.usage(),
                    S.DONE,
                ]
            )
        return stream(answer_events())
    if sc == "r_500_once":
        if n == 1:
            return S.err(500, "upstream overloaded")
        return stream(answer_events())
    if sc == "r_big_answer":
        return stream(answer_events(S.FINAL + " " + "x" * 3_000_000))
    return None


LOGDIR = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/r16/fake")
app = S.fake_app(scenario, LOGDIR)

if __name__ == "__main__":
    S.run_fake(app, int(sys.argv[1]))
