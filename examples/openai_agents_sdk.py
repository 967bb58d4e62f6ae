"""Run the OpenAI Agents SDK on an mcpgym episode: its own loop, mcpgym's tools and grade.

The Agents SDK connects to the episode's MCP endpoint with `MCPServerStreamableHttp` and
runs its usual tool loop; mcpgym only provides the episode (``POST /episodes``), seals it
(the agent calls ``submit``, or this script ends it) and grades it. Start the servers::

    export MCPGYM_GRADING_TOKEN=$(python3 -c "import secrets; print(secrets.token_urlsafe(24))")
    export MCPGYM_CONTROL_TOKEN=$(python3 -c "import secrets; print(secrets.token_urlsafe(24))")
    uv run mcpgym serve helpdesk --port 8000 &
    uv run mcpgym grading serve --port 8001 &   # both read their tokens from the environment

then run a model (``pip install openai-agents``; in this repository it is a dev dependency)::

    export OPENAI_API_KEY=sk-...
    uv run python examples/openai_agents_sdk.py --task order-status --band easy --seed 7 \\
        --model gpt-4.1 --grading-url http://127.0.0.1:8001

(tokens stay off the command lines, where ``ps`` shows them: the script reads
``MCPGYM_GRADING_TOKEN`` and ``MCPGYM_CONTROL_TOKEN`` too).

Local model servers (vLLM, Ollama...) have no Responses API: pass the Agents SDK an
``OpenAIChatCompletionsModel(model=..., openai_client=AsyncOpenAI(base_url=...))`` as
``model``, and turn tracing off (``set_tracing_disabled(True)``, or
``RunConfig(tracing_disabled=True)``), which otherwise uploads traces to OpenAI with
``OPENAI_API_KEY``.

The repository's tests run `run_episode` with a scripted `agents.Model` instead of a real
one (tests/interop/test_openai_agents_sdk.py), so this file is exercised without a key.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from typing import Any

import httpx
from agents import Agent, Model, RunConfig, Runner
from agents.mcp import MCPServerStreamableHttp

CONTROL_TOKEN_ENV = "MCPGYM_CONTROL_TOKEN"
"""The environment server's control token: the harness's, sent on POST /episodes and /end only
(the agent's MCP connection to ``mcp_url`` needs none)."""

INSTRUCTIONS = (
    "You are a customer-support agent working through the store's back-office tools. "
    "Read the support policy (get_policy) before acting, do what the ticket asks within "
    "the policy, and call `submit` with a short summary when you are done."
)


def _control(token: str | None) -> dict[str, str]:
    token = token or os.environ.get(CONTROL_TOKEN_ENV)
    return {"authorization": f"Bearer {token}"} if token else {}


async def open_episode(
    env_url: str, task: str, band: str, seed: int, *, control_token: str | None = None
) -> dict[str, Any]:
    """``POST {env_url}/episodes``: ``{"episode_id", "mcp_url", "instruction", ...}``.

    ``control_token``: the server's control token (default: ``$MCPGYM_CONTROL_TOKEN``)."""
    async with httpx.AsyncClient(timeout=30, headers=_control(control_token)) as http:
        response = await http.post(
            f"{env_url.rstrip('/')}/episodes", json={"task": task, "band": band, "seed": seed}
        )
    response.raise_for_status()
    return response.json()


async def end_episode(
    env_url: str, episode_id: str, answer: str | None, *, control_token: str | None = None
) -> dict[str, Any]:
    """``POST /episodes/{id}/end``: seal the episode (a no-op if the agent submitted)."""
    body = {} if answer is None else {"answer": answer}
    async with httpx.AsyncClient(timeout=30, headers=_control(control_token)) as http:
        response = await http.post(f"{env_url.rstrip('/')}/episodes/{episode_id}/end", json=body)
    response.raise_for_status()
    return response.json()


async def grade(grading_url: str, token: str, episode_id: str) -> dict[str, Any]:
    """``POST {grading_url}/grades``: the grade (the token is the harness's, never the agent's)."""
    async with httpx.AsyncClient(timeout=60) as http:
        response = await http.post(
            f"{grading_url.rstrip('/')}/grades",
            json={"episode_id": episode_id},
            headers={"authorization": f"Bearer {token}"},
        )
    response.raise_for_status()
    return response.json()


async def run_episode(
    env_url: str,
    task: str,
    band: str,
    seed: int,
    model: str | Model = "gpt-4.1",
    *,
    max_turns: int = 30,
    run_config: RunConfig | None = None,
    control_token: str | None = None,
) -> tuple[str, str | None, dict[str, Any]]:
    """Open an episode, let an Agents SDK agent work on it, seal it.

    ``control_token``: the environment server's (default: ``$MCPGYM_CONTROL_TOKEN``).

    Returns:
        ``(episode_id, final_output, seal_metadata)``; grade the episode id with `grade`.
    """
    episode = await open_episode(env_url, task, band, seed, control_token=control_token)
    answer: str | None = None
    try:
        async with MCPServerStreamableHttp(
            params={"url": episode["mcp_url"], "timeout": 60},
            name="mcpgym-episode",
            cache_tools_list=True,  # an episode's tools never change
            client_session_timeout_seconds=60,
        ) as server:
            agent = Agent(
                name="support", instructions=INSTRUCTIONS, mcp_servers=[server], model=model
            )
            result = await Runner.run(
                agent, episode["instruction"], max_turns=max_turns, run_config=run_config
            )
        answer = None if result.final_output is None else str(result.final_output)[:20_000]
    finally:
        # Always seal the episode, also when the run failed (max turns, a model API
        # error, Ctrl-C): an open episode holds its sandbox until it times out.
        sealed = await end_episode(
            env_url, episode["episode_id"], answer, control_token=control_token
        )
    return episode["episode_id"], answer, sealed


async def main() -> None:
    """Command line: one episode with a real model, graded when a grading URL is given."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--env-url", default="http://127.0.0.1:8000")
    parser.add_argument("--task", default="order-status")
    parser.add_argument("--band", default="easy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="gpt-4.1")
    parser.add_argument("--grading-url")
    parser.add_argument(
        "--grading-token",
        default=os.environ.get("MCPGYM_GRADING_TOKEN"),
        help="default: $MCPGYM_GRADING_TOKEN",
    )
    args = parser.parse_args()
    episode_id, answer, sealed = await run_episode(
        args.env_url, args.task, args.band, args.seed, args.model
    )
    print(f"episode {episode_id}: {sealed.get('termination')}; final output: {answer!r}")
    if args.grading_url and args.grading_token:
        graded = await grade(args.grading_url, args.grading_token, episode_id)
        print(json.dumps({k: graded.get(k) for k in ("score", "passed", "status")}))


if __name__ == "__main__":
    asyncio.run(main())
