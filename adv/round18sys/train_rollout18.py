"""One in-process training rollout against a real OpenAI-compatible model server (a probe).

    uv run python adv/round18sys/train_rollout18.py BASE_URL [TASK BAND SEED [return_tokens]]
    e.g. uv run python adv/round18sys/train_rollout18.py http://127.0.0.1:18829/v1 order-status easy 0

`Rollouts.in_process("helpdesk")` with `OpenAIPolicy(BASE_URL, "qwen", temperature=0)`: the
training path's own loop (`ModelAgent`) against the server, servers in this event loop.
Prints the rollout's termination, error, score, reward, tool calls and token records.
"""

from __future__ import annotations

import sys
import time

import anyio

from mcpgym_clients.train import OpenAIPolicy, Rollouts, training_rows


async def main() -> None:
    base = sys.argv[1]
    task, band, seed = (sys.argv[2:5] + ["order-status", "easy", "0"][len(sys.argv[2:5]) :])[:3]
    tokens = len(sys.argv) > 5 and sys.argv[5] == "return_tokens"
    rows = [
        r
        for split in ("train", "held_out")
        for r in training_rows(
            "helpdesk", split=split, tasks=[task], bands=[band], seeds=[int(seed)]
        )
    ]
    policy = OpenAIPolicy(
        base, "qwen", temperature=0.0, seed=0, timeout=900.0, return_tokens=tokens, max_turns=12
    )
    t0 = time.monotonic()
    async with Rollouts.in_process("helpdesk") as ro:
        r = await ro.rollout(rows[0], policy)
    print(f"row {rows[0].variant_id} return_tokens={tokens} in {time.monotonic() - t0:.1f} s")
    print("termination", r.termination, "| episode", r.episode_termination)
    print("error", r.error)
    print("score", r.score, "passed", r.passed, "reward", r.reward())
    print("checks", r.checks)
    for c in r.tool_calls:
        print("call", c.name, c.arguments, "error" if c.is_error else "ok")
    print("turns with tokens", len(r.turns))
    for m in r.messages:
        if m.get("role") == "assistant":
            print(
                "assistant",
                m.get("mcpgym_turn"),
                m.get("mcpgym_stop"),
                m.get("mcpgym_parsed_tool_calls"),
                repr((m.get("content") or "")[:160]),
            )


if __name__ == "__main__":
    anyio.run(main)
