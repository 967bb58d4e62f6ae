"""Rollouts without HTTP or MCP: the agent's tool calls go straight to the episode's sandbox.

`DirectEpisodes.run_episode` is `EpisodeDriver.run_episode` with the transports taken out.
What the environment does is the same code: `EpisodeManager.open` (variant, sandbox,
setup), `EpisodeManager.call` (argument validation, unknown-tool and sealed-episode
refusals, the savepoint, the tool-call log, step accounting, ``max_steps`` and the log
budget), sealing (the bundle's metadata, page delta and digests, byte for byte what the
MCP path seals) and `grade_bundle` (the same rubric, checks and reference end state). What
the agent sees is what the MCP path gives it: the same tool definitions, instructions and
`ToolOutcome` (JSON text and structured content of a result, the message of an error).
What it leaves out: the HTTP requests and the MCP client and server (about three quarters of
an in-process rollout's CPU over ASGI), the bundle's gzip, signature and files (the bundle
stays in memory and is dropped once graded), and rebuilding the final database for the
grader: the sealed sandbox itself is graded (`EpisodeManager.keep_final_db`).

Differences a caller can see: grades say ``"signature": "unchecked"`` (nothing is signed:
the bundle never leaves this process), there is no seed salt, and no outside MCP client can
reach these episodes (use `Rollouts.in_process` for that). The work runs inline on the
event loop (tool calls take microseconds; sealing and grading a helpdesk episode ~1-2 ms).
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Mapping
from typing import Any, cast

import anyio
import anyio.lowlevel

from mcpgym_clients.adapters.retry import watched
from mcpgym_clients.containment import run_isolated
from mcpgym_clients.driver import _harness_failure, _now_iso
from mcpgym_clients.errors import ConfigurationError, InfraError, ServerRequestError
from mcpgym_clients.harness import failure_result
from mcpgym_clients.protocol import Agent, AgentResult, EpisodeContext, ToolDef, ToolOutcome
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.results import checked_result
from mcpgym_grading import ReferenceCache, StateConnection, grade_bundle
from mcpgym_server import (
    SUBMIT_TOOL,
    CapacityError,
    Environment,
    EpisodeBundle,
    EpisodeSealedError,
    LogEntry,
    MCPGymError,
    MemoryEpisodeStore,
    NotFoundError,
    UnknownEpisodeError,
)
from mcpgym_server.runtime import (
    MAX_ARGUMENT_DEPTH,
    EpisodeManager,
    episode_instructions,
    is_plain_json,
    tool_definitions,
)

YIELD_EVERY_S = 0.005
"""Longest the tool calls of direct rollouts hold the event loop without yielding, seconds."""


def outcome_of(entry: LogEntry) -> ToolOutcome:
    """The `ToolOutcome` an MCP client gets for a logged step (the MCP bridge's
    ``step_to_wire`` read back by the driver): an ``ok`` step's result as JSON text and
    structured content (a non-object result wrapped as ``{"result": ...}``), any other step's
    error message (or its status) as an error."""
    if entry.status == "ok":
        result = entry.result
        structured = result if isinstance(result, dict) else {"result": result}
        return ToolOutcome(False, json.dumps(result, ensure_ascii=False), structured)
    return ToolOutcome(True, entry.error or entry.status)


class DirectEpisodes:
    """Runs episodes of one environment in this process, without HTTP or MCP.

    Has the `EpisodeDriver.run_episode` signature, so `Rollouts` runs on it unchanged
    (`Rollouts.direct`).

    Args:
        env: the environment.
        episode_timeout: the hard cap per episode, seconds (``None``: none); past it the
            agent is cancelled as the driver does (``timeout``, or ``infra_error`` inside a
            model request).
        reference_cache: where reference end states are kept (default: a new one).
        max_open: most episodes open at once (default: from the memory available).
        keep_bundles: keep each graded episode's bundle in `bundles` (by episode id; they
            are dropped once graded otherwise).
    """

    def __init__(
        self,
        env: Environment,
        *,
        episode_timeout: float | None = 600.0,
        reference_cache: ReferenceCache | None = None,
        max_open: int | None = None,
        keep_bundles: bool = False,
    ) -> None:
        self.env = env
        self.bundles: dict[str, EpisodeBundle] | None = {} if keep_bundles else None
        self.episode_timeout = episode_timeout
        self.store = MemoryEpisodeStore()
        self.manager = EpisodeManager(
            env,
            self.store,
            idle_ttl=math.inf,
            max_open=max_open,
            connection_factory=StateConnection,
            keep_final_db=True,
            hash_final=keep_bundles,  # nobody reads a dropped bundle's digests
        )
        self.lock = self.manager.lock
        self.reference_cache = reference_cache or ReferenceCache()
        self._last_yield = 0.0
        self.tools = [
            ToolDef(t.name, t.description or "", t.input_schema) for t in tool_definitions(env)
        ]

    async def run_episode(
        self, agent: Agent, task: str, band: str, seed: int, *, epoch: int = 0, live: Any = None
    ) -> EpisodeRecord:
        """Run one episode of ``task@band#seed`` with ``agent`` and grade it.

        Returns:
            The `EpisodeRecord`, as `EpisodeDriver.run_episode` makes it (``timings`` has
            ``create``, ``agent``, ``end`` and ``grade``; ``live`` is ignored).

        Raises:
            ServerRequestError: unknown task or band (status 404, as the server answers).
            ConfigurationError: as the driver (an agent's configuration error).
        """
        rec = EpisodeRecord(agent=agent.name, task=task, band=band, seed=seed, epoch=epoch)
        rec.started_at = _now_iso()
        t0 = time.perf_counter()
        try:
            failure = await run_isolated(functools.partial(self._run, agent, rec))
            if failure is not None:
                if isinstance(failure, (ConfigurationError, ServerRequestError)):
                    raise failure
                rec.termination, rec.grade = "infra_error", None
                rec.error = (
                    str(failure) if isinstance(failure, InfraError) else (_harness_failure(failure))
                )
                self._discard(rec.episode_id)
        finally:
            rec.ended_at = _now_iso()
            rec.duration_s = time.perf_counter() - t0
        return rec

    async def _pause(self) -> None:
        """Between two tool calls: let the event loop run (the other rollouts, timeouts) if
        it has not for `YIELD_EVERY_S`, else only see whether this episode was cancelled.
        Yielding at every call interleaves the rollouts call by call, each on its own
        1 MB sandbox: measured ~20% more CPU per rollout than running each for a while."""
        now = time.perf_counter()
        if now - self._last_yield >= YIELD_EVERY_S:
            self._last_yield = now
            await anyio.lowlevel.checkpoint()
        else:
            await anyio.lowlevel.checkpoint_if_cancelled()

    def close(self) -> None:
        """Seal what is still open (``shutdown``) and drop every bundle and sandbox held."""
        for eid in self.manager.close_all("shutdown"):
            self._discard(eid)

    def _discard(self, episode_id: str | None) -> None:
        """End an episode that will not be graded and drop what it left behind."""
        if episode_id is None:
            return
        manager = self.manager
        if manager.is_open(episode_id):
            try:
                manager.seal(episode_id, "ended")
            except MCPGymError:
                return
        manager.forget_final_db(episode_id)
        if self.store.exists(episode_id):
            self.store.take(episode_id)

    async def _run(self, agent: Agent, rec: EpisodeRecord) -> None:
        manager = self.manager
        t = time.perf_counter()
        try:
            ep = manager.open(rec.task, rec.band, rec.seed)
        except NotFoundError as exc:
            payload = {"error": str(exc), "kind": exc.kind, "name": exc.name}
            raise ServerRequestError("env", 404, payload) from None
        except CapacityError as exc:
            rec.error = f"env server: {exc}"
            return
        finally:
            rec.timings["create"] = (time.perf_counter() - t) * 1000
        eid = ep.id
        rec.episode_id, rec.variant_id, rec.lock = eid, ep.variant.id, self.lock
        variant = ep.variant
        steps = 0
        submitted = False

        async def call_tool(name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
            nonlocal steps, submitted
            if not (is_plain_json(name) and is_plain_json(dict(arguments))):
                # as the driver: the model's malformed output is answered, never sent
                return ToolOutcome(
                    True,
                    f"Error: the call to `{ascii(name)[:80]}` was not sent: its name and "
                    f"arguments must be JSON in valid Unicode, nested at most "
                    f"{MAX_ARGUMENT_DEPTH} deep",
                )
            await self._pause()
            try:
                outcome = outcome_of(manager.call(eid, name, dict(arguments)))
            except (EpisodeSealedError, UnknownEpisodeError) as exc:
                outcome = ToolOutcome(True, str(exc))
            steps += 1
            rec.steps = steps
            if name == SUBMIT_TOOL and not outcome.is_error:
                submitted = True
                rec.episode_termination = "submitted"
            return outcome

        ctx = EpisodeContext(
            episode_id=eid,
            variant_id=variant.id,
            instruction=variant.instruction,
            tools=list(self.tools),
            call_tool=call_tool,
            server_instructions=episode_instructions(self.env, variant),
            reference=list(variant.reference) if agent.uses_reference else None,
            reference_answer=variant.answer if agent.uses_reference else None,
            submit_tool=SUBMIT_TOOL,
        )
        result = await self._run_agent(agent, ctx, rec)
        if result.termination == "completed" and result.answer is not None and not submitted:
            await call_tool(SUBMIT_TOOL, {"answer": result.answer})
        rec.termination = result.termination
        rec.transcript, rec.usage, rec.answer = result.transcript, result.usage, result.answer
        rec.error = result.error

        if rec.episode_termination is None:
            t = time.perf_counter()
            meta = manager.seal(eid, "ended", answer=result.answer)
            rec.episode_termination = meta.termination
            rec.timings["end"] = (time.perf_counter() - t) * 1000
        if rec.termination == "infra_error":
            self._discard(eid)
            return
        t = time.perf_counter()
        db = manager.take_final_db(eid)
        try:
            bundle = self.store.take(eid)
            if self.bundles is not None:
                self.bundles[eid] = bundle
            grade = grade_bundle(
                bundle, self.env, reference_cache=self.reference_cache, final_db=db
            )
        except MCPGymError as exc:
            rec.termination, rec.error = "infra_error", f"grading: {exc}"
            return
        finally:
            if db is not None:
                db.close()
            rec.timings["grade"] = (time.perf_counter() - t) * 1000
        rec.grade = grade.model_dump(mode="json")
        rec.episode_termination = rec.grade.get("termination") or rec.episode_termination

    async def _run_agent(
        self, agent: Agent, ctx: EpisodeContext, rec: EpisodeRecord
    ) -> AgentResult:
        t = time.perf_counter()
        result: AgentResult | None = None
        with watched() as activity, anyio.move_on_after(self.episode_timeout):
            try:
                result = await agent.run(ctx)
            except InfraError as exc:
                result = AgentResult("infra_error", error=str(exc))
            except ConfigurationError:
                raise
            except Exception as exc:  # the agent's failure is its episode's only
                progress = ctx.progress
                usage = cast("dict[str, int]", progress.usage)
                result = failure_result(exc, progress.transcript, usage, f"agent `{agent.name}`")
        rec.timings["agent"] = (time.perf_counter() - t) * 1000
        if result is not None:
            return checked_result(result, f"agent `{agent.name}`")
        partial = checked_result(
            AgentResult("timeout", ctx.progress.transcript, ctx.progress.usage),
            f"agent `{agent.name}`",
        )
        if activity.cancelled_inside:
            partial.termination = "infra_error"
            partial.error = (
                f"the hard cap of {self.episode_timeout} s passed while the agent was waiting "
                "on the model API (a request or a retry wait)"
            )
        else:
            partial.error = f"the agent exceeded {self.episode_timeout} s (--timeout)"
        return partial
