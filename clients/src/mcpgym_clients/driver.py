"""The episode driver: one agent, one task variant, one episode, one grade.

For each episode `EpisodeDriver.run_episode`:

1. ``POST {env_url}/episodes {"task", "band", "seed"}`` opens the episode;
2. connects to its ``mcp_url`` with the MCP SDK client (over one shared
   ``httpx2.AsyncClient``), lists the tools and runs the agent (a listing checked against
   the lock is reused for later episodes of the same server and lock: `ToolListings`; so
   is the ``server/discover`` answer, with each episode's own instructions as the server
   named them: `DiscoverResults`);
3. if the agent finished with an answer and did not submit, calls ``submit`` with
   it; otherwise, if the episode is still open, ``POST /episodes/{id}/end``;
4. ``POST {grading_url}/grades {"episode_id"}`` and returns an `EpisodeRecord`.

Failures of the servers (unreachable, 5xx, a 429 after its retries, a broken MCP
stream, a 404 for an episode the driver opened: the server restarted under it, a grade
of the wrong shape: `mcpgym_clients.grade_reply`) are recorded as termination
``infra_error`` with no grade, never as a score. A tool call the server refuses as the
request's own fault (malformed, too large: `AGENT_FAULT_CODES`) is answered to the model
as a tool error and the episode goes on. Any other 4xx answer
means the request itself was wrong (unknown task, bad token): it raises
`ServerRequestError`. Each episode runs in a task of its own
(`mcpgym_clients.containment`), so nothing that fails inside one episode reaches
another episode or the campaign.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

import anyio
import httpx
import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, METHOD_NOT_FOUND, PARSE_ERROR, REQUEST_TIMEOUT

from mcpgym_clients.adapters.retry import RetryPolicy, watched
from mcpgym_clients.containment import StrayCancellation, run_isolated
from mcpgym_clients.discover_reuse import DiscoverResults
from mcpgym_clients.episode_keepalive import (
    ENDED_BY_SERVER,
    EpisodeWatch,
    ended_by_server,
    idle_ttl_of,
    kept_alive,
)
from mcpgym_clients.errors import (
    ClientError,
    ConfigurationError,
    InfraError,
    ServerRequestError,
    StoppingEpisodeError,
)
from mcpgym_clients.grade_reply import checked_grade
from mcpgym_clients.harness import failure_result, where
from mcpgym_clients.mcp_connection import McpConnections, no_answer
from mcpgym_clients.protocol import (
    Agent,
    AgentResult,
    EpisodeContext,
    ToolDef,
    ToolOutcome,
)
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.results import checked_result
from mcpgym_clients.same_services import graded_otherwise, served_otherwise
from mcpgym_clients.services import RATE_LIMIT, ServiceClients, describe_error, is_loopback
from mcpgym_clients.tool_listing import ToolListings
from mcpgym_clients.tool_pacing import paced_call
from mcpgym_server import (
    SUBMIT_TOOL,
    Environment,
    TaskVariant,
    ToolCall,
    compute_lock,
    load_environment,
)
from mcpgym_server.lock import served_tools
from mcpgym_server.runtime import MAX_ARGUMENT_DEPTH, is_plain_json

if TYPE_CHECKING:
    from mcpgym_clients.progress import LiveEpisode


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass
class _Episode:
    steps: int = 0
    submitted: bool = False
    in_tool_call: bool = False  # a tool call to the environment server is in flight
    unanswered: bool = False  # a tool call got no answer (timeout, connection lost)


def _mark_unanswered(rec: EpisodeRecord, exc: InfraError) -> None:
    """Note on ``rec`` which server did not answer, when ``exc`` says none did."""
    if exc.unanswered:
        rec.unanswered = "grading" if exc.service == "grading" else "env"


AGENT_FAULT_CODES = frozenset({PARSE_ERROR, METHOD_NOT_FOUND, INVALID_PARAMS})
"""JSON-RPC error codes that answer a malformed request: the agent's fault, not infrastructure
(an mcpgym server refuses a tool call over its body limit with ``INVALID_PARAMS``, naming the
limit and the size; a bare HTTP 413 of another server is the agent's fault too,
`McpConnections.refusals`): the call is answered to the model as a tool error."""


def _harness_failure(exc: BaseException) -> str:
    """The ``error`` of an episode whose body raised ``exc`` (not a server's 5xx or refusal)."""
    if isinstance(exc, StrayCancellation):
        return str(exc)
    return f"the episode failed in the harness: {describe_error(exc)}{where(exc)}"


class EpisodeDriver(ServiceClients):
    """Runs episodes against an environment server and a grading service.

    Use it as an async context manager; it owns three HTTP clients (control routes and
    grading, `ServiceClients`; one ``httpx2.AsyncClient`` shared by every MCP connection,
    `McpConnections`).

    Args:
        env_url: environment server base URL, e.g. ``http://127.0.0.1:8000``.
        grading_url: grading service base URL.
        grading_token: bearer token for the grading service.
        control_token: the environment server's control token, sent on its control routes
            only (never on MCP connections, which the agent's tools go through); ``None``
            for a server started with ``--no-control-token``.
        episode_timeout: the hard cap: seconds an agent may spend on one episode (``None``:
            no limit); past it the agent is cancelled with termination ``timeout`` (keeping
            the transcript and usage of `EpisodeContext.progress`), or ``infra_error`` when
            it was inside a model request or retry wait, and the episode is ended and graded.
        request_timeout: seconds for each control, grading and MCP request.
        mcp_mode: `mcp.Client` protocol mode: ``"auto"`` (2026-07-28 against mcpgym
            servers) or ``"legacy"`` (the 2025 handshake).
        environment: the local environment used for reference solutions (default:
            `load_environment` of the served environment's name, on first need) and to
            check a tool listing against the server's lock before later episodes reuse it
            (`ToolListings`; without it, every episode lists its tools).
        env_transport, grading_transport: ``httpx`` transports to use instead of the
            network for the control and grading routes (tests).
        mcp_http: the ``httpx2.AsyncClient`` for MCP connections (default: a new one,
            closed with the driver; a given one is left open).
        rate_limit: how a 429 of either service is retried (`RATE_LIMIT`), then
            ``infra_error``.
    """

    def __init__(
        self,
        env_url: str,
        grading_url: str,
        grading_token: str,
        *,
        control_token: str | None = None,
        episode_timeout: float | None = 600.0,
        request_timeout: float = 60.0,
        mcp_mode: Literal["auto", "legacy"] = "auto",
        environment: Environment | None = None,
        env_transport: httpx.AsyncBaseTransport | None = None,
        grading_transport: httpx.AsyncBaseTransport | None = None,
        mcp_http: httpx2.AsyncClient | None = None,
        rate_limit: RetryPolicy = RATE_LIMIT,
    ) -> None:
        super().__init__(
            env_url,
            grading_url,
            grading_token,
            control_token=control_token,
            request_timeout=request_timeout,
            env_transport=env_transport,
            grading_transport=grading_transport,
            rate_limit=rate_limit,
        )
        self.episode_timeout = episode_timeout
        self.mcp_mode = mcp_mode
        self._environment = environment
        self._local_lock: str | None = None
        self.grade_signature: str | None = None
        """The ``signature`` of this campaign's grades (``verified``: the grading service
        checks bundle signatures; ``unchecked``: it has no bundle key): set by the first
        grade, or by `run_campaign` from a resumed run's stored grades. A grade that says
        otherwise stops the campaign (`_graded_otherwise`)."""
        self._listings = ToolListings(self._tools_of_lock)
        self._discovered = DiscoverResults()
        self._mcp = McpConnections(
            mcp_mode,
            http=mcp_http,
            request_timeout=request_timeout,
            trust_env=not is_loopback(self.env_url),
        )

    async def aclose(self) -> None:
        """Close the HTTP clients."""
        await super().aclose()
        await self._mcp.aclose()

    def _lock_of(self, env: Environment) -> str:
        """The lock of the installed environment ``env`` (computed once)."""
        if self._local_lock is None:
            self._local_lock = compute_lock(env)
        return self._local_lock

    async def _tools_of_lock(self, lock: str) -> list[dict[str, Any]] | None:
        """The tool list ``lock`` names, when the environment this driver was given (or
        loaded for reference solutions) has that lock; else ``None`` (`ToolListings`)."""
        env = self._environment
        if env is None or self._lock_of(env) != lock:
            return None
        return served_tools(env)

    async def _reference_for(
        self, task: str, band: str, seed: int, lock: str | None
    ) -> TaskVariant:
        env = self._environment
        if env is None:
            env = self._environment = load_environment((await self.server_info()).env)
        if lock is not None:
            local = self._lock_of(env)
            if local != lock:
                raise ConfigurationError(
                    f"the installed environment `{env.name}` {env.version} has lock {local[:12]}, "
                    f"the server runs lock {lock[:12]}: reference solutions would not match"
                )
        return env.variant(task, band, seed)

    # -- one episode ----------------------------------------------------------------------

    async def run_episode(
        self,
        agent: Agent,
        task: str,
        band: str,
        seed: int,
        *,
        epoch: int = 0,
        live: LiveEpisode | None = None,
    ) -> EpisodeRecord:
        """Run one episode of ``task@band#seed`` with ``agent`` and grade it.

        ``live`` (a `mcpgym_clients.progress.LiveEpisode`) is kept current while the
        episode runs: its record (tool calls), the agent's progress (turns), its model
        activity (retries) and its phase.

        The episode runs in a task of its own (`run_isolated`): no failure inside it (its
        MCP client, its HTTP requests, its agent, its grade request) can cancel or end the
        caller's other tasks, and every way it can fail ends as a record.

        Returns:
            The `EpisodeRecord`. Server failures (unreachable, 5xx, a broken MCP stream, a
            404 for the episode this harness opened: the server restarted) and any other
            failure of the episode's own code give ``termination="infra_error"`` with
            ``error`` saying what happened; an exception of the agent gives
            ``model_error`` (``infra_error`` when a server failure caused it).

        Raises:
            ServerRequestError: a server refused a request (4xx: unknown task or band,
                rejected grading token...), except a 404 for an episode it opened.
            ConfigurationError: the reference agent is used with an installed environment
                whose lock differs from the server's.
        """
        rec = EpisodeRecord(agent=agent.name, task=task, band=band, seed=seed, epoch=epoch)
        rec.started_at = _now_iso()
        if live is not None:
            live.record = rec
        t0 = time.perf_counter()
        try:
            # The episode runs in a task of its own: nothing it raises or cancels (its MCP
            # client's scopes, its HTTP calls, its agent) can reach the caller's task group.
            failure = await run_isolated(functools.partial(self._run, agent, rec, live=live))
            if failure is not None:
                if isinstance(failure, StoppingEpisodeError) and failure.record is rec:
                    if rec.episode_termination is None:
                        await self._end_best_effort(rec)
                if isinstance(failure, (ConfigurationError, ServerRequestError)):
                    raise failure  # a refused request or a wrong setting: the caller's to handle
                await self._contain(rec, failure)
        finally:
            rec.ended_at = _now_iso()
            rec.duration_s = time.perf_counter() - t0
        return rec

    async def _contain(self, rec: EpisodeRecord, failure: BaseException) -> None:
        """Record an episode whose body failed as ``infra_error`` and end it on the server
        (best effort: it may be gone), so that it is retried as a fresh episode."""
        rec.termination, rec.grade = "infra_error", None
        rec.error = str(failure) if isinstance(failure, InfraError) else _harness_failure(failure)
        if isinstance(failure, InfraError):
            _mark_unanswered(rec, failure)
        if rec.episode_id is not None and rec.episode_termination is None:
            await self._end_best_effort(rec)

    def _served_otherwise(self, meta: dict[str, Any]) -> str | None:
        """Why the episode ``meta`` was not served as the campaign's first were, or ``None``
        (`mcpgym_clients.same_services.served_otherwise`)."""
        return served_otherwise(self._info, meta, self.env_url)

    async def _end_best_effort(self, rec: EpisodeRecord) -> None:
        """``POST /episodes/{id}/end`` for at most 5 s, failures ignored: for an episode
        lost to the infrastructure (a server that did not answer reaps it at its idle TTL)."""
        with anyio.move_on_after(5, shield=True), contextlib.suppress(ClientError):
            await self._request("env", "POST", f"/episodes/{rec.episode_id}/end", {})

    async def _run(self, agent: Agent, rec: EpisodeRecord, live: LiveEpisode | None = None) -> None:
        t = time.perf_counter()
        try:
            meta = await self._request(
                "env", "POST", "/episodes", {"task": rec.task, "band": rec.band, "seed": rec.seed}
            )
        except InfraError as exc:
            rec.error = str(exc)
            _mark_unanswered(rec, exc)
            return
        finally:
            rec.timings["create"] = (time.perf_counter() - t) * 1000
        rec.episode_id = meta["episode_id"]
        rec.variant_id = meta.get("variant_id")
        rec.lock = meta.get("lock")
        if (changed := self._served_otherwise(meta)) is not None:
            await self._end_best_effort(rec)
            raise ConfigurationError(changed)
        reference: list[ToolCall] | None = None
        reference_answer: str | None = None
        if agent.uses_reference:
            try:
                # the generator seed the server served (it differs under a seed salt)
                seed = int(meta.get("seed", rec.seed))
                variant = await self._reference_for(rec.task, rec.band, seed, rec.lock)
            except ConfigurationError:
                with contextlib.suppress(InfraError, ServerRequestError):
                    await self._request("env", "POST", f"/episodes/{rec.episode_id}/end", {})
                raise
            reference, reference_answer = list(variant.reference), variant.answer

        result = await self._run_agent(agent, rec, meta, reference, reference_answer, live)
        if live is not None:
            live.phase = "grading"
        rec.termination = result.termination
        rec.transcript, rec.usage, rec.answer = result.transcript, result.usage, result.answer
        rec.error = result.error

        if rec.episode_termination is None and rec.unanswered == "env":
            t = time.perf_counter()
            await self._end_best_effort(rec)  # not 60 s more on a server that is not answering
            rec.timings["end"] = (time.perf_counter() - t) * 1000
            return
        if rec.episode_termination is None:
            t = time.perf_counter()
            body = {} if result.answer is None else {"answer": result.answer}
            try:
                ended = await self._episode_request(
                    rec.episode_id, "env", "POST", f"/episodes/{rec.episode_id}/end", body
                )
                rec.episode_termination = ended.get("termination")
                if rec.episode_termination in ENDED_BY_SERVER and rec.termination != "infra_error":
                    # sealed by the server's expiry or stop while the agent ran: not a score
                    rec.termination = "infra_error"
                    rec.error = ended_by_server(rec.episode_termination, idle_ttl_of(meta))
            except InfraError as exc:
                if rec.termination != "infra_error":
                    rec.termination, rec.error = "infra_error", str(exc)
                    _mark_unanswered(rec, exc)
                return
            finally:
                rec.timings["end"] = (time.perf_counter() - t) * 1000
        if rec.termination == "infra_error":
            return
        t = time.perf_counter()
        try:
            answered = await self._episode_request(
                rec.episode_id, "grading", "POST", "/grades", {"episode_id": rec.episode_id}
            )
            rec.grade = checked_grade(answered, str(rec.episode_id))  # InfraError if malformed
        except InfraError as exc:
            rec.termination, rec.error = "infra_error", str(exc)
            rec.ungraded = not exc.unanswered  # it answered, with a failure: the breaker counts
            _mark_unanswered(rec, exc)
        finally:
            rec.timings["grade"] = (time.perf_counter() - t) * 1000
        if rec.grade is not None:
            if (changed := self._graded_otherwise(rec.grade)) is not None:
                raise ConfigurationError(changed)
            rec.episode_termination = rec.grade.get("termination") or rec.episode_termination

    def _graded_otherwise(self, grade: Mapping[str, Any]) -> str | None:
        """Why ``grade`` was not graded as this campaign's grades are, or ``None``; the first
        grade that says sets `grade_signature` (`mcpgym_clients.same_services`)."""
        signature = grade.get("signature")
        if signature is not None and self.grade_signature is None:
            self.grade_signature = str(signature)
        return graded_otherwise(self.grade_signature, signature, self.grading_url)

    def _tool_failure(self, name: str, exc: Exception, state: _Episode) -> InfraError:
        """The `InfraError` of a tool call the environment server failed (its request
        timeout, `McpConnections`: the call waited ``request_timeout`` seconds)."""
        unanswered = no_answer(exc)
        state.unanswered = state.unanswered or unanswered
        why = describe_error(exc)
        if isinstance(exc, MCPError) and exc.code == REQUEST_TIMEOUT:
            why += f" (no answer within {self._mcp.request_timeout:g} s)"
        return InfraError("mcp", f"calling `{name}`: {why}", unanswered=unanswered)

    def _cut_off(self, ctx: EpisodeContext, in_model_request: bool, agent: Agent) -> AgentResult:
        """The result of an agent cut off by the hard cap: what it recorded so far, as
        ``timeout``, or ``infra_error`` when it was waiting on the model API (a request or
        a retry wait: a vendor outage is not the model's score)."""
        partial = checked_result(
            AgentResult("timeout", ctx.progress.transcript, ctx.progress.usage),
            f"agent `{agent.name}`",
        )
        if in_model_request:
            partial.termination = "infra_error"
            partial.error = (
                f"the hard cap of {self.episode_timeout} s (--timeout) passed while the agent "
                "was waiting on the model API (a request or a retry wait)"
            )
        else:
            partial.error = f"the agent exceeded {self.episode_timeout} s (--timeout)"
        return partial

    async def _run_agent(
        self,
        agent: Agent,
        rec: EpisodeRecord,
        meta: Mapping[str, Any],
        reference: list[ToolCall] | None,
        reference_answer: str | None,
        live: LiveEpisode | None = None,
    ) -> AgentResult:
        state = _Episode()
        opened = anyio.current_time()  # the server's idle TTL runs from its opening
        url: str = meta["mcp_url"]
        t = time.perf_counter()
        named = meta.get("server_instructions")  # the episode's discover instructions
        prior = self._discovered.prior(self.env_url, rec.lock, named)
        try:
            async with self._mcp.connect(url, prior) as client:
                if prior is None:
                    self._discovered.learn(self.env_url, rec.lock, named, client)
                try:
                    listed = await self._listings.list_tools(client, self.env_url, rec.lock)
                except Exception as exc:  # transport boundary
                    raise InfraError(
                        "mcp", f"listing tools: {describe_error(exc)}", unanswered=no_answer(exc)
                    ) from exc
                rec.timings["connect"] = (time.perf_counter() - t) * 1000

                async def call_tool(name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
                    if not (is_plain_json(name) and is_plain_json(dict(arguments))):
                        # The model's own malformed output: answer it, never blame the server.
                        return ToolOutcome(
                            True,
                            f"Error: the call to `{ascii(name)[:80]}` was not sent: its name and "
                            f"arguments must be JSON in valid Unicode, nested at most "
                            f"{MAX_ARGUMENT_DEPTH} deep",
                        )
                    try:
                        state.in_tool_call = True
                        with self._mcp.refusals() as too_large:
                            res = await paced_call(client, name, dict(arguments))
                        state.in_tool_call = False
                    except MCPError as exc:
                        state.in_tool_call = False
                        if exc.code in AGENT_FAULT_CODES:  # the server refused this request
                            return ToolOutcome(True, f"Error: {exc.message}")
                        if too_large:  # a bare 413: the model's arguments were too large
                            return ToolOutcome(True, too_large[0].explain(name))
                        raise self._tool_failure(name, exc, state) from exc
                    except Exception as exc:  # transport boundary
                        state.in_tool_call = False
                        raise self._tool_failure(name, exc, state) from exc
                    state.steps += 1
                    rec.steps = state.steps
                    text = "\n".join(c.text for c in res.content if c.type == "text")
                    if name == SUBMIT_TOOL and not res.is_error:
                        state.submitted = True
                        rec.episode_termination = "submitted"
                    return ToolOutcome(bool(res.is_error), text, res.structured_content)

                ctx = EpisodeContext(
                    episode_id=rec.episode_id or "",
                    variant_id=rec.variant_id or "",
                    instruction=meta.get("instruction", ""),
                    tools=[
                        ToolDef(t.name, t.description or "", t.input_schema) for t in listed.tools
                    ],
                    call_tool=call_tool,
                    server_instructions=client.instructions,
                    reference=reference,
                    reference_answer=reference_answer,
                    submit_tool=SUBMIT_TOOL,
                )
                t = time.perf_counter()
                result: AgentResult | None = None
                keep = functools.partial(
                    self._request, "env", "POST", f"/episodes/{rec.episode_id}/keepalive", {}
                )
                watch = EpisodeWatch()
                with watched() as activity, anyio.move_on_after(self.episode_timeout):
                    # a slow model answer must not meet an episode the server let expire
                    async with kept_alive(keep, idle_ttl_of(meta), watch, since=opened):
                        if live is not None:
                            live.agent_progress, live.activity = ctx.progress, activity
                            live.phase = "agent"
                        try:
                            result = await agent.run(ctx)
                        except InfraError as exc:
                            result = AgentResult("infra_error", error=str(exc))
                        except StoppingEpisodeError as exc:
                            # the episode ran to its end and showed a wrong setting (the 4xx
                            # breaker): the campaign stops, and stores it as it ended
                            if isinstance(got := exc.result, AgentResult):
                                rec.termination, rec.error = got.termination, got.error
                                rec.transcript, rec.usage = got.transcript, got.usage
                                rec.answer = got.answer
                                rec.timings["agent"] = (time.perf_counter() - t) * 1000
                                exc.record = rec
                            raise
                        except ConfigurationError:
                            raise  # a wrong setting (lock mismatch): stops the campaign
                        except Exception as exc:  # the agent's failure is its episode's only
                            who = f"agent `{agent.name}`"
                            progress = ctx.progress
                            result = failure_result(exc, progress.transcript, progress.usage, who)
                rec.timings["agent"] = (time.perf_counter() - t) * 1000
                if result is None and watch.ended is not None:  # the server ended it
                    progress = ctx.progress
                    result = checked_result(
                        AgentResult("infra_error", progress.transcript, progress.usage),
                        f"agent `{agent.name}`",
                    )
                    result.error = watch.ended
                elif result is None:
                    result = self._cut_off(ctx, activity.cancelled_inside, agent)
                    if state.in_tool_call:
                        state.unanswered = True
                    if state.in_tool_call and result.termination == "timeout":
                        # The environment server's time, not the agent's (adversarial round
                        # 12, S1-7: a 60 s stall of the server was scored as the agent's
                        # `timeout`): infrastructure, retried as a fresh episode.
                        result.termination = "infra_error"
                        result.error = (
                            f"the hard cap of {self.episode_timeout} s (--timeout) passed while "
                            "the agent was waiting on the environment server (a tool call)"
                        )
                else:
                    result = checked_result(result, f"agent `{agent.name}`")
                rec.model_answered = activity.answered  # read by the campaign's breaker
                if result.termination == "infra_error" and not activity.answered:
                    rec.refused = activity.refused  # the model API refusing
                if result.termination == "infra_error" and state.unanswered:
                    rec.unanswered = "env"
                    return result  # no `submit` to a server that is not answering
                if (
                    result.termination == "completed"
                    and result.answer is not None
                    and not state.submitted
                ):
                    await call_tool(SUBMIT_TOOL, {"answer": result.answer})
                return result
        except InfraError as exc:
            _mark_unanswered(rec, exc)
            return AgentResult("infra_error", error=str(exc))
