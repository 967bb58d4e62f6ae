"""The `null` agent: does nothing. Its grade is the floor every other agent is read against."""

from __future__ import annotations

from mcpgym_clients.protocol import Agent, AgentResult, EpisodeContext


class NullAgent(Agent):
    """Calls no tool and gives no answer; the driver then ends the episode."""

    name = "null"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Return at once with termination ``completed`` and no answer."""
        return AgentResult("completed", [{"role": "user", "content": ctx.instruction}])
