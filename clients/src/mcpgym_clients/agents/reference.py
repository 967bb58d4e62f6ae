"""The `reference` agent: replays the variant's reference solution over MCP.

It is the instrument's self-test: on a correct environment every reference
episode scores 1.0. The reference calls come from the harness side
(`EpisodeContext.reference`, filled by the driver from the installed
environment), never from the MCP surface.
"""

from __future__ import annotations

from mcpgym_clients.errors import ConfigurationError, InfraError
from mcpgym_clients.protocol import (
    Agent,
    AgentResult,
    EpisodeContext,
    assistant_call_message,
    tool_message,
)


class ReferenceAgent(Agent):
    """Calls each reference `ToolCall` in order, then ``submit`` with the reference answer.

    Tool errors do not stop the replay (they are recorded in the transcript); the
    grade shows whether the end state is right.
    """

    name = "reference"
    uses_reference = True

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Replay the reference solution.

        Raises:
            ConfigurationError: the driver did not supply ``ctx.reference``.
        """
        if ctx.reference is None:
            raise ConfigurationError("the reference agent needs EpisodeContext.reference")
        transcript: list[dict[str, object]] = [{"role": "user", "content": ctx.instruction}]
        calls = [(c.name, dict(c.arguments)) for c in ctx.reference]
        if not any(name == ctx.submit_tool for name, _ in calls):
            submit_args = {} if ctx.reference_answer is None else {"answer": ctx.reference_answer}
            calls.append((ctx.submit_tool, submit_args))
        try:
            for i, (name, arguments) in enumerate(calls, start=1):
                call_id = f"ref-{i}"
                transcript.append(assistant_call_message(call_id, name, arguments))
                outcome = await ctx.call_tool(name, arguments)
                transcript.append(tool_message(call_id, outcome))
        except InfraError as exc:
            return AgentResult("infra_error", transcript, error=str(exc))
        return AgentResult("completed", transcript, answer=ctx.reference_answer)
