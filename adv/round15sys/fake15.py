"""Round 15's fake OpenAI-compatible server (`q_*` scenarios): turns with very many tool
calls, and calls to tools that are not listed. Probe only (§1/§5/§8).
Run: ``uv run python adv/round15sys/fake15.py PORT LOGDIR``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

ODD_NAMES = [
    "reveal_answer",  # not listed
    "submit ",  # trailing space
    "SUBMIT",
    "ｇｅｔ＿ｏｒｄｅｒ",  # fullwidth get_order
    "get_order\u200b",  # zero-width space
    "x" * 5000,  # very long
    "../episodes",  # path-like
    "tools/list",
]


def calls(pairs: list[tuple[str, dict[str, Any]]]) -> Any:
    head = S.chunk({"role": "assistant", "content": None})
    deltas = [S.tool_call(i, f"c{i}", n, json.dumps(a)) for i, (n, a) in enumerate(pairs)]
    return S.sse(
        [head, S.chunk({"tool_calls": deltas}), S.chunk({}, "tool_calls"), S.usage(), S.DONE]
    )


def scenario(sc: str, t: int) -> Any:
    many = sc.removeprefix("q_many").removesuffix("_stream")
    if sc.startswith("q_many") and t == 0:  # N calls in one turn
        return calls([("get_order", {"order_id": 1 + i % 3}) for i in range(int(many))])
    if sc == "q_odd_names" and t == 0:
        return calls([(n, {"order_id": 1}) for n in ODD_NAMES])
    if sc.startswith("q_"):
        return S.text_stream(S.FINAL)
    return None


def answer(sc: str, body: dict[str, Any], n: int) -> Any:
    return scenario(sc, S.turn_of(body)) if sc.startswith("q_") else None


LOGDIR = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/r15/fake")
app = S.fake_app(answer, LOGDIR)

if __name__ == "__main__":
    S.run_fake(app, int(sys.argv[1]))
