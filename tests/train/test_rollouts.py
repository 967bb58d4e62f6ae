"""Rollouts as a library: rewards from the grader, in process and over HTTP, one code path."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mcpgym_clients import FunctionAgent, HarnessContext, InfraError, NullAgent, ReferenceAgent
from mcpgym_clients.train import (
    ChatPolicy,
    OpenAIPolicy,
    Rollouts,
    TrainingRow,
    split_of,
    training_rows,
)
from mcpgym_server import Environment, compute_lock
from tests.toyenv import target_value

pytestmark = pytest.mark.anyio


@contextlib.asynccontextmanager
async def session(kind: str, env: Environment, tmp: Path) -> AsyncIterator[Rollouts]:
    if kind == "in_process":
        async with Rollouts.in_process(env) as ro:
            yield ro
    elif kind == "direct":
        async with Rollouts.direct(env) as ro:
            yield ro
    else:
        async with Rollouts.served(env, tmp / "store") as ro:
            yield ro


BACKENDS = ["in_process", "http", "direct"]


@pytest.mark.parametrize("kind", BACKENDS)
async def test_reference_policy_scores_one_and_null_policy_fails(
    kind: str, toy_env: Environment, toy_row: TrainingRow, tmp_path: Path
) -> None:
    async with session(kind, toy_env, tmp_path) as ro:
        group = await ro.rollout_group(toy_row, ReferenceAgent(), n=4)
        null = await ro.rollout(toy_row, NullAgent())
    assert group.rewards == [1.0, 1.0, 1.0, 1.0] and group.dropped == 0
    first = group.rollouts[0]
    assert first.passed is True and first.checks == {"target-set": True}
    assert [c.name for c in first.tool_calls] == ["put", "submit"]
    assert first.tool_calls[0].arguments == {"key": "target", "value": target_value("easy", 0)}
    assert first.lock == compute_lock(toy_env) == first.grade["lock"]
    assert len({r.episode_id for r in group.rollouts}) == 4  # one episode per rollout
    assert null.scored and null.reward() == 0.0 and null.passed is False
    assert null.check_rewards() == {"target-set": 0.0}


@pytest.mark.parametrize("kind", BACKENDS)
async def test_the_same_rollout_twice_gives_the_same_reward(
    kind: str, toy_env: Environment, toy_row: TrainingRow, tmp_path: Path
) -> None:
    async def half_right(task: HarnessContext) -> str:
        await task.call_tool("put", {"key": "target", "value": "wrong"})
        await task.call_tool("put", {"key": "other", "value": "1"})
        return "done"

    async with session(kind, toy_env, tmp_path) as ro:
        a = await ro.rollout(toy_row, half_right)
        b = await ro.rollout(toy_row, half_right)
    assert a.episode_id != b.episode_id
    assert a.reward() == b.reward() == 0.0
    assert a.grade and b.grade and a.grade["checks"] == b.grade["checks"]


async def test_an_infra_error_mid_group_is_dropped_and_counted_not_zero(
    toy_env: Environment, toy_row: TrainingRow
) -> None:
    calls = 0

    async def flaky(task: HarnessContext) -> str:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise InfraError("mcp", "connection reset mid-episode")
        await task.call_tool("put", {"key": "target", "value": target_value("easy", 0)})
        return "done"

    async with Rollouts.in_process(toy_env, concurrency=1) as ro:
        group = await ro.rollout_group(toy_row, FunctionAgent(flaky), n=4)
    assert [r.termination for r in group.rollouts].count("infra_error") == 1
    assert group.dropped == 1
    assert group.rewards == [1.0, 1.0, 1.0]  # three scored, the failed one left out, never 0
    failed = next(r for r in group.rollouts if not r.scored)
    assert failed.reward() is None and failed.check_rewards() == {}


def test_held_out_rows_never_overlap_training_rows(toy_env: Environment) -> None:
    train = training_rows(toy_env, seeds=range(200))
    held = training_rows(toy_env, split="held_out", seeds=range(200))
    assert train and held
    assert not {r.variant_id for r in train} & {r.variant_id for r in held}
    assert len(train) + len(held) == 2 * 200  # two bands, every variant in one split
    assert all(split_of(r.variant_id) == "held_out" for r in held)
    more = training_rows(toy_env, split="held_out", seeds=range(200), held_out=0.3)
    assert {r.variant_id for r in held} <= {r.variant_id for r in more}  # only moves one way
    row = train[0]
    assert row.instruction == toy_env.variant(row.task, row.band, row.seed).instruction


def vllm_answer(message: dict[str, Any], prompt_ids: list[int], ids: list[int]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "prompt_token_ids": prompt_ids,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                "token_ids": ids,
                "logprobs": {"content": [{"token": f"t{i}", "logprob": -0.5} for i in ids]},
            }
        ],
        "usage": {
            "prompt_tokens": len(prompt_ids),
            "completion_tokens": len(ids),
            "total_tokens": len(prompt_ids) + len(ids),
        },
    }


async def test_openai_policy_asks_for_token_ids_and_keeps_them_per_turn(
    toy_env: Environment, toy_row: TrainingRow
) -> None:
    bodies: list[dict[str, Any]] = []
    value = target_value("easy", 0)
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "put", "arguments": json.dumps({"key": "target", "value": value})},
    }
    answers = [
        vllm_answer({"role": "assistant", "tool_calls": [call]}, [1, 2, 3], [7, 8]),
        vllm_answer({"role": "assistant", "content": "done"}, [1, 2, 3, 7, 8, 9], [10]),
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=answers[len(bodies) - 1])

    policy = OpenAIPolicy(
        "http://vllm.test/v1",
        "tiny",
        transport=httpx.MockTransport(handler),
        parse_text_tool_calls=False,
    )
    async with Rollouts.in_process(toy_env) as ro:
        r = await ro.rollout(toy_row, policy)
    assert all(b["return_token_ids"] is True and b["logprobs"] is True for b in bodies)
    assert r.reward() == 1.0
    tokens = [(t.prompt_token_ids, t.generation_token_ids, t.generation_log_probs) for t in r.turns]
    assert tokens == [
        ([1, 2, 3], [7, 8], [-0.5, -0.5]),
        ([1, 2, 3, 7, 8, 9], [10], [-0.5]),
    ]
    assert r.messages[r.turns[0].message_index]["tool_calls"][0]["function"]["name"] == "put"
    # the conversation sent back to the model never carries the token record
    assert all("mcpgym_tokens" not in m for m in bodies[1]["messages"])


async def test_a_chat_function_is_a_policy(toy_env: Environment, toy_row: TrainingRow) -> None:
    seen: list[list[str]] = []

    async def policy(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        seen.append([t["function"]["name"] for t in tools])
        if messages[-1]["role"] == "tool":
            return {"content": "done", "generation_token_ids": [4]}
        args = {"key": "target", "value": target_value("easy", 0)}
        return {
            "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "put", "arguments": args}}
            ]
        }

    async with Rollouts.in_process(toy_env) as ro:
        r = await ro.rollout(toy_row, ChatPolicy(policy))
    assert r.reward() == 1.0 and sorted(seen[0]) == ["dump", "get", "put", "submit"]
    assert [t.generation_token_ids for t in r.turns] == [[4]]


def test_the_public_surface_is_curated() -> None:
    import types

    import mcpgym_clients.train as train

    public = {
        n
        for n in dir(train)
        if not n.startswith("_") and not isinstance(getattr(train, n), types.ModuleType)
    }
    assert sorted(train.__all__) == sorted(public)
