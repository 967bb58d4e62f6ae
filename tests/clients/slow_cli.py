"""``python -m tests.clients.slow_cli TMP ARGS...``: the ``mcpgym`` CLI with a slow fake agent.

The toy environment (built under ``TMP``) stands in for an installed one, and every
agent is `SlowAgent`: it finishes seed 0 at once and never finishes any other seed,
so a test can interrupt a campaign that has visibly made progress.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio

from mcpgym_clients import Agent, AgentResult, EpisodeContext, cli, evaluation
from mcpgym_clients.commands import evaluate
from tests.toyenv import make_toy_env, target_value


class SlowAgent(Agent):
    """Solves seed 0 of the toy task; waits forever on any other seed."""

    name = "slow"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Solve ``#0`` variants, hang on the others."""
        if not ctx.variant_id.endswith("#0"):
            await anyio.sleep_forever()
        band = ctx.variant_id.split("@")[1].split("#")[0]
        await ctx.call_tool("put", {"key": "target", "value": target_value(band, 0)})
        return AgentResult("completed", answer="done")


def main() -> None:
    """Run the CLI on ``sys.argv[2:]`` with the toy environment and `SlowAgent`."""
    env = make_toy_env(Path(sys.argv[1]), lock=True)

    def build_agent(name: str, **_: Any) -> Agent:
        return SlowAgent()

    evaluation.load_environment = lambda name: env  # type: ignore[assignment]
    evaluate.available_environments = lambda: ["toy"]  # type: ignore[assignment]
    evaluate.build_agent = build_agent  # type: ignore[assignment]
    cli.app(sys.argv[2:], prog_name="mcpgym")


if __name__ == "__main__":
    main()
