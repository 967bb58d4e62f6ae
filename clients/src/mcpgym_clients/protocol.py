"""The agent protocol: what the episode driver hands an agent and what it gets back.

An agent is the loop that drives a model (or a script) through an episode's MCP
tools. The driver opens the episode, connects to its MCP endpoint and calls
`Agent.run` with an `EpisodeContext`; the agent calls tools through
`EpisodeContext.call_tool` and returns an `AgentResult`. The driver then ends
the episode if it is still open and asks the grading service for a grade.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from mcpgym_server import ToolCall

Termination = Literal[
    "completed", "max_turns", "max_tokens", "timeout", "model_error", "infra_error"
]
"""Why an agent stopped.

``completed``: it finished (called ``submit`` or gave a final answer); ``max_turns`` /
``max_tokens``: a budget ran out; ``timeout``: the driver's time limit; ``model_error``:
the model API failed; ``infra_error``: an environment or grading server failed.
"""


@dataclass(frozen=True)
class ToolDef:
    """An MCP tool definition as listed by the episode's server.

    Attributes:
        name: the tool name. description: model-facing description (may be empty).
        input_schema: JSON schema of the arguments object.
    """

    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True)
class ToolOutcome:
    """The result of one tool call as an agent sees it.

    Attributes:
        is_error: the call failed (tool error, bad arguments, unknown tool, sealed episode).
        text: the text content (JSON text for successful calls, the message for errors).
        structured: the structured content (a JSON object) or ``None``.
    """

    is_error: bool
    text: str
    structured: Mapping[str, Any] | None = None


@dataclass
class Progress:
    """What an agent has recorded so far in an episode, readable after it is cut off.

    The driver reads it when its hard cap (``--timeout``) cancels the agent, so that the
    episode keeps the partial transcript and usage. Agents update it in place (the
    built-in loops put their live transcript list and usage dict here).

    Attributes:
        transcript: messages so far (as in `AgentResult`). usage: counts so far.
    """

    transcript: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=dict)


CallTool = Callable[[str, Mapping[str, Any]], Awaitable[ToolOutcome]]
"""``call_tool(name, arguments) -> ToolOutcome``; raises `InfraError` on transport failure."""


@dataclass(frozen=True)
class EpisodeContext:
    """Everything an agent gets for one episode.

    Attributes:
        episode_id: the server's episode id. variant_id: e.g. ``helpdesk/refund@easy#7``.
        instruction: the task text given to the agent.
        tools: the MCP tools of the episode, including the framework's ``submit``.
        call_tool: coroutine function calling one tool over MCP (see `CallTool`).
        server_instructions: the MCP server's instructions, if it sent any.
        reference: the reference solution; filled by the driver (from
            `mcpgym_server.load_environment`, the harness side, never over MCP) only for
            agents with ``uses_reference = True``; ``None`` otherwise.
        reference_answer: the reference final answer passed to ``submit``, likewise.
        submit_tool: name of the tool that ends the episode.
        progress: the agent's partial transcript and usage (see `Progress`); agents
            should keep it current so that a cut-off episode keeps them.
    """

    episode_id: str
    variant_id: str
    instruction: str
    tools: list[ToolDef]
    call_tool: CallTool
    server_instructions: str | None = None
    reference: list[ToolCall] | None = None
    reference_answer: str | None = None
    submit_tool: str = "submit"
    progress: Progress = field(default_factory=Progress)


@dataclass
class AgentResult:
    """What an agent returns.

    Attributes:
        termination: why it stopped (see `Termination`).
        transcript: the conversation as message dicts in Chat Completions shape
            (``role`` system/user/assistant/tool; assistant ``tool_calls``; tool
            ``tool_call_id``), plus annotation keys prefixed ``mcpgym_``.
        usage: token and request counts (``requests``, ``prompt_tokens``,
            ``completion_tokens``, ``total_tokens``; ``cached_tokens``,
            ``reasoning_tokens`` and ``cost_usd`` (a float) when the vendor reports them;
            ``retries`` and ``retry_wait_ms`` for model loops); empty for scripted agents.
            A count the API did not report is left out (unknown), never recorded as 0.
        answer: the final answer, if any. If the episode is still open when the agent
            returns ``completed`` with an answer, the driver calls ``submit`` with it.
        error: a message for ``model_error`` / ``infra_error`` terminations.
    """

    termination: Termination
    transcript: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=dict)
    answer: str | None = None
    error: str | None = None


class Agent:
    """Base class of agents. Subclasses set `name` and implement `run`.

    One agent object serves many episodes, possibly concurrently: `run` must keep
    per-episode state in local variables, not on ``self``.

    Attributes:
        name: the agent's name as used on the command line (``reference``, ``openai``).
        uses_reference: the driver fills `EpisodeContext.reference` for this agent.
        model: the model name, recorded in the run store (``None`` for scripted agents).
    """

    name: ClassVar[str] = "agent"
    uses_reference: ClassVar[bool] = False
    model: str | None = None

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Drive one episode and return how it went.

        Implementations should catch `InfraError` from ``ctx.call_tool`` and return
        ``AgentResult(termination="infra_error", ...)`` with the partial transcript; the
        driver also catches it as a fallback.
        """
        raise NotImplementedError

    def settings(self) -> dict[str, Any]:
        """JSON-serialisable settings recorded with the run (model, temperature, ...)."""
        return {}

    async def aclose(self) -> None:
        """Release resources (HTTP clients). Called once after the campaign."""


def assistant_call_message(call_id: str, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A Chat Completions assistant message holding one function call (for transcripts)."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(dict(arguments))},
            }
        ],
    }


def tool_message(call_id: str, outcome: ToolOutcome) -> dict[str, Any]:
    """A Chat Completions ``role: tool`` message for an outcome (for transcripts)."""
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "content": outcome.text,
        "mcpgym_is_error": outcome.is_error,
    }
