"""Bring your own harness: run a lab's own agent loop through mcpgym episodes.

Two forms, both loadable with ``mcpgym eval ENV --agent SPEC``:

- **function form**: an async function taking the episode and returning the final answer::

      async def my_loop(task: HarnessContext) -> str | AgentResult | None:
          outcome = await task.call_tool("get_ticket", {"ticket_id": 5227})
          ...
          return "final answer"          # or None (no answer), or an AgentResult

  `FunctionAgent` wraps it: it records every tool call in the transcript, returns
  ``completed`` with the answer, and turns an exception raised by the loop into a
  ``model_error`` episode (see `FunctionAgent`).
- **class form**: a subclass of `mcpgym_clients.Agent` implementing ``run(ctx) ->
  AgentResult`` (the protocol of `mcpgym_clients.protocol`).

The framework does the rest: it opens the episode, connects to its MCP endpoint, lists
the tools, ends the episode, asks the grading service for a grade and stores episode,
transcript, usage and grade in the run store.

``SPEC`` is ``package.module:attr`` or ``path/to/file.py:attr``; see
`mcpgym_clients.agent_spec.load_agent`.
"""

from __future__ import annotations

import inspect
import logging
import math
import traceback
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from mcpgym_clients.errors import InfraError
from mcpgym_clients.protocol import (
    Agent,
    AgentResult,
    EpisodeContext,
    ToolOutcome,
    assistant_call_message,
    tool_message,
)

logger = logging.getLogger("mcpgym.harness")

AgentLoop = Callable[["HarnessContext"], Awaitable["str | AgentResult | None"]]
"""The function form: ``async def loop(task: HarnessContext) -> str | AgentResult | None``."""


@dataclass(frozen=True)
class HarnessContext(EpisodeContext):
    """The `EpisodeContext` a function-form loop receives, plus two records it may add to.

    Attributes:
        transcript: the episode's transcript in Chat Completions message shape; starts with
            the instruction as a ``user`` message; each ``call_tool`` appends an assistant
            call message and its ``tool`` message. Append your model's own messages
            (``{"role": "assistant", "content": ...}``) to keep them in order with the calls.
        usage: token and request counts to store with the episode (``requests``,
            ``prompt_tokens``, ``completion_tokens``, ``total_tokens``); add your model's.
    """

    transcript: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)


def where(exc: BaseException) -> str:
    """``file.py:LINE in function`` of the innermost frame of ``exc``, or ``""``."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" (at {Path(last.filename).name}:{last.lineno} in {last.name})"


def _infra_cause(exc: BaseException) -> InfraError | None:
    """An `InfraError` that ``exc`` is, wraps or was raised while handling, if any."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        cur = todo.pop()
        if cur is None or id(cur) in seen:
            continue
        seen.add(id(cur))
        if isinstance(cur, InfraError):
            return cur
        if isinstance(cur, BaseExceptionGroup):
            todo.extend(cur.exceptions)
        todo.extend((cur.__cause__, cur.__context__))
    return None


def contained(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a lab's loop, is recorded as its failure instead of
    propagating.

    Every `Exception` is; so are `SystemExit` and `KeyboardInterrupt` raised by the loop's
    own code (mcpgym handles Ctrl-C with a signal handler, not by this exception), and a
    cancellation exception raised while no enclosing cancel scope was cancelled (a stray
    ``raise CancelledError()``). A real cancellation (the driver's time limit, the user
    stopping the campaign) always propagates, as anyio requires.
    """
    if isinstance(exc, anyio.get_cancelled_exc_class()):
        return anyio.current_effective_deadline() != -math.inf
    return isinstance(exc, (Exception, SystemExit, KeyboardInterrupt))


def failure_result(
    exc: BaseException, transcript: list[dict[str, Any]], usage: Mapping[str, float], who: str
) -> AgentResult:
    """The `AgentResult` for an exception that escaped an agent's loop.

    An `InfraError` anywhere in the exception's chain (the environment or grading server
    failed under the loop) gives ``infra_error``; anything else is the agent side's failure
    and gives ``model_error``: unscored and listed apart, with the grade still stored. The
    error text names the exception type, message and the innermost frame.

    Args:
        exc: the exception. transcript, usage: what was recorded so far (kept).
        who: how to name the loop in the message, e.g. ``"harness `my_loop`"``.
    """
    infra = _infra_cause(exc)
    if infra is not None:
        return AgentResult("infra_error", transcript, dict(usage), error=str(infra))
    logger.warning("%s raised", who, exc_info=exc)
    text = str(exc)
    detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return AgentResult(
        "model_error", transcript, dict(usage), error=f"{who} raised {detail}{where(exc)}"
    )


def as_result(
    value: object, transcript: list[dict[str, Any]], usage: Mapping[str, float], who: str
) -> AgentResult:
    """Normalise what a loop returned into an `AgentResult`.

    ``None`` -> ``completed`` without an answer; a ``str`` -> ``completed`` with that answer;
    an `AgentResult` is kept, its empty transcript and usage filled from the recorded ones;
    anything else -> ``model_error`` naming the type returned.
    """
    if value is None or isinstance(value, str):
        return AgentResult("completed", transcript, dict(usage), answer=value)
    if isinstance(value, AgentResult):
        if not value.transcript:
            value.transcript = transcript
        if not value.usage:
            value.usage = dict(usage)
        return value
    return AgentResult(
        "model_error",
        transcript,
        dict(usage),
        error=f"{who} returned {type(value).__name__}; return a str (the answer), None "
        "or an AgentResult",
    )


class FunctionAgent(Agent):
    """An `Agent` running an async function: the function form of a lab's own loop.

    The loop receives a `HarnessContext` (instruction, tools, ``call_tool``, plus
    ``transcript`` and ``usage`` records) and returns the final answer (``str``), ``None``
    or an `AgentResult`. The framework records every tool call in the transcript; the
    episode ends as ``completed`` (the driver passes the answer to ``submit`` if the loop
    did not submit), as ``infra_error`` when a server failed under it, and as
    ``model_error`` when the loop raised any other exception: such an episode is still
    ended and graded, but excluded from scores and listed apart, because an exception is
    a failure of the agent's software or model API, not an answer to the task (see
    `failure_result`). A loop past the driver's time limit ends as ``timeout``.

    Args:
        loop: ``async def loop(task: HarnessContext) -> str | AgentResult | None``.
        name: the agent name in the run store (default: the loop's ``__name__``).
        model: the model name recorded with the run, if any.
        settings: JSON-serialisable settings recorded with the run (temperature...).
        record_calls: append each tool call to ``task.transcript`` (turn off when the loop
            writes its own tool-call messages there).

    Raises:
        TypeError: ``loop`` is not an async function (or object with an async ``__call__``).
    """

    def __init__(
        self,
        loop: AgentLoop,
        *,
        name: str | None = None,
        model: str | None = None,
        settings: Mapping[str, Any] | None = None,
        record_calls: bool = True,
    ) -> None:
        if not is_async_callable(loop):
            raise TypeError(f"{loop!r} is not an async function; define the loop with `async def`")
        self.loop = loop
        self.name = name or getattr(loop, "__name__", type(loop).__name__)  # type: ignore[misc]
        self.model = model
        self._settings = dict(settings or {})
        self.record_calls = record_calls

    def settings(self) -> dict[str, Any]:
        """The settings given to the constructor."""
        return dict(self._settings)

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Run the loop on one episode; never raises (see the class docstring)."""
        transcript: list[dict[str, Any]] = [{"role": "user", "content": ctx.instruction}]
        usage: dict[str, int] = {}
        ctx.progress.transcript, ctx.progress.usage = transcript, usage  # type: ignore[assignment]
        calls = 0

        async def call_tool(name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
            nonlocal calls
            if not self.record_calls:
                return await ctx.call_tool(name, arguments)
            calls += 1
            call_id = f"call-{calls}"
            transcript.append(assistant_call_message(call_id, name, arguments))
            outcome = await ctx.call_tool(name, arguments)
            transcript.append(tool_message(call_id, outcome))
            return outcome

        task = HarnessContext(
            episode_id=ctx.episode_id,
            variant_id=ctx.variant_id,
            instruction=ctx.instruction,
            tools=ctx.tools,
            call_tool=call_tool,
            server_instructions=ctx.server_instructions,
            reference=ctx.reference,
            reference_answer=ctx.reference_answer,
            submit_tool=ctx.submit_tool,
            progress=ctx.progress,
            transcript=transcript,
            usage=usage,
        )
        who = f"harness `{self.name}`"
        try:
            value = await self.loop(task)
        except BaseException as exc:  # the lab's code: any failure is the agent's, recorded
            if not contained(exc):
                raise
            return failure_result(exc, transcript, usage, who)
        return as_result(value, transcript, usage, who)


class GuardedAgent(Agent):
    """Wraps a lab's class-form `Agent` so that its failures never stop a campaign.

    ``run`` delegates to the wrapped agent; an exception becomes ``model_error`` (or
    ``infra_error`` when caused by a server failure) exactly as in `FunctionAgent`, and a
    ``str`` or ``None`` returned instead of an `AgentResult` is accepted as the answer.
    ``aclose`` failures are logged, not raised. Name, model, ``uses_reference`` and
    settings are the wrapped agent's.

    Args:
        inner: the agent. spec: the ``--agent`` spec it came from (recorded in settings).
        digest: ``sha256:<hex>`` of the harness source it came from (recorded in settings).
    """

    def __init__(self, inner: Agent, spec: str | None = None, digest: str | None = None) -> None:
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]
        self.model = inner.model
        self.uses_reference = inner.uses_reference  # type: ignore[misc]
        self.spec = spec
        self.digest = digest

    def settings(self) -> dict[str, Any]:
        """The wrapped agent's settings, plus ``harness`` (the spec) and ``harness_digest``
        (of its source) when loaded from a spec."""
        extra: dict[str, Any] = {"harness": self.spec} if self.spec else {}
        if self.digest:
            extra["harness_digest"] = self.digest
        return {**self.inner.settings(), **extra}

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Run the wrapped agent; never raises (see the class docstring)."""
        who = f"agent `{self.name}`"
        try:
            value: object = await self.inner.run(ctx)
        except BaseException as exc:  # the lab's code: any failure is the agent's, recorded
            if not contained(exc):
                raise
            return failure_result(exc, [{"role": "user", "content": ctx.instruction}], {}, who)
        return as_result(value, [{"role": "user", "content": ctx.instruction}], {}, who)

    async def aclose(self) -> None:
        """Close the wrapped agent, logging (not raising) a failure."""
        try:
            await self.inner.aclose()
        except Exception:  # a failing clean-up must not lose the finished run
            logger.warning("agent `%s`: aclose failed", self.name, exc_info=True)


def is_async_callable(obj: object) -> bool:
    """Whether ``obj`` is an async function or an object with an async ``__call__``."""
    return inspect.iscoroutinefunction(obj) or (
        callable(obj)
        and not inspect.isclass(obj)
        and inspect.iscoroutinefunction(type(obj).__call__)  # type: ignore[operator]
    )
