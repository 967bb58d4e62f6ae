"""A hostile agent for the report's tests: its transcripts and answers carry HTML and script."""

from __future__ import annotations

from mcpgym_clients.agents import ReferenceAgent
from mcpgym_clients.errors import InfraError
from mcpgym_clients.protocol import (
    AgentResult,
    EpisodeContext,
    assistant_call_message,
    tool_message,
)

PAYLOAD = (
    "</pre></details></section><script>window.__pwned = 1</script>"
    '<img id="injected-img" src="x" onerror="window.__pwned = 2">'
    '<a id="injected-link" href="#nowhere">click</a>"\'&amp;'
)
"""Model output that would close the report's elements and run script if it were not escaped."""


class HostileAgent(ReferenceAgent):
    """Replays the reference on even seeds; on odd seeds writes `PAYLOAD` everywhere a model
    can (message text, tool arguments, final answer) and does not do the task."""

    name = "hostile"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Reference replay (even seed) or an injection attempt that fails the task (odd seed)."""
        if int(ctx.variant_id.rsplit("#", 1)[1]) % 2 == 0:
            return await super().run(ctx)
        call = assistant_call_message("h-1", "get_ticket", {"ticket_id": PAYLOAD})
        call["content"] = PAYLOAD
        transcript: list[dict[str, object]] = [{"role": "user", "content": ctx.instruction}, call]
        try:
            transcript.append(
                tool_message("h-1", await ctx.call_tool("get_ticket", {"ticket_id": PAYLOAD}))
            )
        except InfraError as exc:
            return AgentResult("infra_error", transcript, error=str(exc))
        transcript.append({"role": "assistant", "content": PAYLOAD})
        return AgentResult("completed", transcript, answer=PAYLOAD)
