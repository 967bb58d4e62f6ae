"""An episode driven one tool call at a time from outside (TRL's tool methods).

The trainer owns the model loop; mcpgym still runs the episode through
`EpisodeDriver.run_episode` (open, MCP session, end, grade) with an agent whose moves are
sent to it: each `SteeredEpisode.call` is executed by that agent over MCP, and
`SteeredEpisode.finish` makes it return, so that the driver ends and grades the episode
as ``mcpgym eval`` does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from mcpgym_clients.errors import InfraError
from mcpgym_clients.protocol import (
    Agent,
    AgentResult,
    EpisodeContext,
    ToolDef,
    ToolOutcome,
    assistant_call_message,
    tool_message,
)
from mcpgym_clients.train.results import Rollout
from mcpgym_clients.train.rollout import Rollouts
from mcpgym_clients.train.rows import TrainingRow

ENDED = "Error: this episode has ended; no more tool calls are accepted."
"""What a tool call after the episode ended returns (the text the model sees)."""


@dataclass
class _Move:
    name: str | None  # None: finish
    arguments: dict[str, Any] = field(default_factory=dict)
    answer: str | None = None
    outcome: ToolOutcome | None = None
    done: anyio.Event = field(default_factory=anyio.Event)


class _SteeredAgent(Agent):
    name = "steered"

    def __init__(self, moves: MemoryObjectReceiveStream[_Move], started: anyio.Event) -> None:
        self.moves = moves
        self.started = started
        self.ctx: EpisodeContext | None = None

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.ctx = ctx
        transcript: list[dict[str, Any]] = [{"role": "user", "content": ctx.instruction}]
        ctx.progress.transcript = transcript
        self.started.set()
        n = 0
        async with self.moves:
            async for move in self.moves:
                if move.name is None:
                    move.done.set()
                    return AgentResult("completed", transcript, answer=move.answer)
                n += 1
                call_id = f"call-{n}"
                transcript.append(assistant_call_message(call_id, move.name, move.arguments))
                try:
                    move.outcome = await ctx.call_tool(move.name, move.arguments)
                except InfraError as exc:
                    move.outcome = ToolOutcome(True, f"Error: {exc}")
                    move.done.set()
                    return AgentResult("infra_error", transcript, error=str(exc))
                transcript.append(tool_message(call_id, move.outcome))
                move.done.set()
        return AgentResult("completed", transcript)


class SteeredEpisode:
    """One episode whose tool calls come from outside (see the module docstring).

    Use: ``tg.start_soon(ep.run, rollouts)``, ``await ep.wait_started()``, then
    `call` any number of times and `finish` once. All methods run in the event loop that
    runs `run`.

    Args:
        row: the variant to open.
    """

    def __init__(self, row: TrainingRow) -> None:
        self.row = row
        self._send: MemoryObjectSendStream[_Move]
        self._send, receive = anyio.create_memory_object_stream[_Move](math.inf)
        self._started = anyio.Event()
        self._done = anyio.Event()
        self._agent = _SteeredAgent(receive, self._started)
        self.rollout: Rollout | None = None

    async def run(self, rollouts: Rollouts) -> None:
        """Run the episode to its end (returns once `finish` was called and it is graded)."""
        try:
            self.rollout = await rollouts.rollout(self.row, self._agent)
        finally:
            self._send.close()
            self._started.set()
            self._done.set()

    async def wait_started(self) -> None:
        """Wait until the episode is open (or failed to open)."""
        await self._started.wait()

    @property
    def context(self) -> EpisodeContext | None:
        """The open episode's context (``None`` until open, or if it failed to open)."""
        return self._agent.ctx

    @property
    def tools(self) -> list[ToolDef]:
        """The episode's MCP tools (empty if it failed to open)."""
        return list(self._agent.ctx.tools) if self._agent.ctx is not None else []

    @property
    def server_instructions(self) -> str | None:
        """The MCP server's instructions, if it sent any."""
        return self._agent.ctx.server_instructions if self._agent.ctx is not None else None

    async def call(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        """Call one tool in the episode and return what the model would see over MCP."""
        if self._done.is_set():
            return ToolOutcome(True, ENDED)
        move = _Move(name, dict(arguments))
        try:
            self._send.send_nowait(move)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return ToolOutcome(True, ENDED)
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as tg:

                async def watch() -> None:
                    await self._done.wait()
                    scope.cancel()

                tg.start_soon(watch)
                await move.done.wait()
                tg.cancel_scope.cancel()
        return move.outcome or ToolOutcome(True, ENDED)

    async def finish(self, answer: str | None = None) -> Rollout | None:
        """End the episode (the driver ends and grades it) and return its rollout."""
        if not self._done.is_set():
            try:
                self._send.send_nowait(_Move(None, answer=answer))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass
            await self._done.wait()
        return self.rollout
