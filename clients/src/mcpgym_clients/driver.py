"""The episode driver: one agent, one task variant, one episode, one grade.

For each episode `EpisodeDriver.run_episode`:

1. ``POST {env_url}/episodes {"task", "band", "seed"}`` opens the episode;
2. connects to its ``mcp_url`` with the MCP SDK client (over one shared
   ``httpx2.AsyncClient``), lists the tools and runs the agent;
3. if the agent finished with an answer and did not submit, calls ``submit`` with
   it; otherwise, if the episode is still open, ``POST /episodes/{id}/end``;
4. ``POST {grading_url}/grades {"episode_id"}`` and returns an `EpisodeRecord`.

Failures of the servers (unreachable, 5xx, a broken MCP stream, a 404 for an
episode the driver opened: the server restarted under it) are recorded as
termination ``infra_error`` with no grade, never as a score. Any other 4xx answer
means the request itself was wrong (unknown task, bad token): it raises
`ServerRequestError`. Each episode runs in a task of its own
(`mcpgym_clients.containment`), so nothing that fails inside one episode reaches
another episode or the campaign.
"""

from __future__ import annotations

import contextlib
import functools
import math
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Literal, Self

import anyio
import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, METHOD_NOT_FOUND, PARSE_ERROR

from mcpgym_clients.adapters.retry import watched
from mcpgym_clients.containment import StrayCancellation, run_isolated
from mcpgym_clients.errors import (
    ClientError,
    ConfigurationError,
    InfraError,
    ServerRequestError,
    UnknownNameError,
)
from mcpgym_clients.harness import failure_result, where
from mcpgym_clients.protocol import (
    Agent,
    AgentResult,
    EpisodeContext,
    Termination,
    ToolDef,
    ToolOutcome,
)
from mcpgym_clients.results import checked_result
from mcpgym_server import (
    SUBMIT_TOOL,
    Environment,
    TaskVariant,
    ToolCall,
    compute_lock,
    load_environment,
)
from mcpgym_server.runtime import MAX_ARGUMENT_DEPTH, is_plain_json

UNSCORED_TERMINATIONS: frozenset[str] = frozenset({"infra_error", "model_error"})
"""Terminations excluded from model scores (the failure was not the model's answer)."""


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class TaskInfo:
    """One task family as listed by ``GET /tasks``."""

    name: str
    description: str
    bands: tuple[str, ...]


@dataclass(frozen=True)
class ServerInfo:
    """What ``GET {env_url}/tasks`` says about the served environment."""

    env: str
    version: str
    lock: str
    tasks: tuple[TaskInfo, ...]

    def task(self, name: str) -> TaskInfo:
        """The family called ``name``.

        Raises:
            ConfigurationError: no such family (the message lists the valid ones).
        """
        for t in self.tasks:
            if t.name == name:
                return t
        raise UnknownNameError("task", name, [t.name for t in self.tasks])


@dataclass
class EpisodeRecord:
    """The outcome of one episode as the harness saw it.

    Attributes:
        agent: agent name. task, band, seed, epoch: what was asked for (epoch is 0-based).
        variant_id, episode_id, lock: from the environment server (``None`` if it never answered).
        termination: the agent's termination, or ``infra_error`` if a server failed.
        episode_termination: the server's seal reason (``submitted``, ``ended``, ``timeout``...).
        answer: the final answer. transcript, usage: from the agent.
        grade: the grading service's Grade JSON, or ``None`` when not graded.
        error: what went wrong, for ``infra_error`` / ``model_error`` / ``timeout``.
        steps: tool calls made through MCP. started_at, ended_at: wall-clock ISO 8601.
        duration_s: seconds from start to grade. timings: milliseconds per phase
            (``create``, ``connect``, ``agent``, ``end``, ``grade``).
    """

    agent: str
    task: str
    band: str
    seed: int
    epoch: int = 0
    variant_id: str | None = None
    episode_id: str | None = None
    lock: str | None = None
    termination: Termination = "infra_error"
    episode_termination: str | None = None
    answer: str | None = None
    transcript: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=dict)
    grade: dict[str, Any] | None = None
    error: str | None = None
    steps: int = 0
    started_at: str = ""
    ended_at: str = ""
    duration_s: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        """Whether this episode counts in model scores (graded, not an infra/model error)."""
        return (
            self.termination not in UNSCORED_TERMINATIONS
            and self.grade is not None
            and self.grade.get("status") == "graded"
        )

    @property
    def score(self) -> float | None:
        """The weighted score in [0, 1] when `scored`, else ``None``."""
        return float(self.grade["score"]) if self.scored and self.grade else None

    @property
    def passed(self) -> bool | None:
        """Whether the grade passed when `scored`, else ``None``."""
        return bool(self.grade["passed"]) if self.scored and self.grade else None


@dataclass
class _Episode:
    steps: int = 0
    submitted: bool = False


AGENT_FAULT_CODES = frozenset({PARSE_ERROR, METHOD_NOT_FOUND, INVALID_PARAMS})
"""JSON-RPC error codes that answer a malformed request: the agent's fault, not infrastructure."""


def _is_loopback(url: str) -> bool:
    """Whether ``url`` points at this machine (then proxy settings must not apply)."""
    host = httpx.URL(url).host
    return host in ("localhost", "::1") or host.startswith("127.")


def _cancelled_here() -> bool:
    """Whether a cancel scope enclosing the current code has been cancelled (unshielded)."""
    return anyio.current_effective_deadline() == -math.inf


def _harness_failure(exc: BaseException) -> str:
    """The ``error`` of an episode whose body raised ``exc`` (not a server's 5xx or refusal)."""
    if isinstance(exc, StrayCancellation):
        return str(exc)
    return f"the episode failed in the harness: {_describe(exc)}{where(exc)}"


def _describe(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class EpisodeDriver:
    """Runs episodes against an environment server and a grading service.

    Use it as an async context manager; it owns three HTTP clients (control routes,
    grading, and one ``httpx2.AsyncClient`` shared by every MCP connection).

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
            `load_environment` of the served environment's name, on first need).
        env_transport, grading_transport: ``httpx`` transports to use instead of the
            network for the control and grading routes (tests).
        mcp_http: the ``httpx2.AsyncClient`` for MCP connections (default: a new one,
            closed with the driver; a given one is left open).
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
    ) -> None:
        self.env_url = env_url.rstrip("/")
        self.grading_url = grading_url.rstrip("/")
        self.episode_timeout = episode_timeout
        self.mcp_mode = mcp_mode
        self._environment = environment
        self._reference_checked = False
        self._info: ServerInfo | None = None
        self._env_http = httpx.AsyncClient(
            base_url=self.env_url,
            timeout=request_timeout,
            transport=env_transport,
            headers={"authorization": f"Bearer {control_token}"} if control_token else None,
            trust_env=not _is_loopback(self.env_url),
        )
        self._grading_http = httpx.AsyncClient(
            base_url=self.grading_url,
            timeout=request_timeout,
            transport=grading_transport,
            headers={"authorization": f"Bearer {grading_token}"},
            trust_env=not _is_loopback(self.grading_url),
        )
        self._own_mcp_http = mcp_http is None
        self._mcp_http = mcp_http or httpx2.AsyncClient(
            timeout=httpx2.Timeout(request_timeout, read=max(request_timeout, 300.0)),
            trust_env=not _is_loopback(self.env_url),
        )

    async def __aenter__(self) -> Self:
        """Return self (the clients are already open)."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the HTTP clients."""
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP clients."""
        with anyio.CancelScope(shield=True):
            await self._env_http.aclose()
            await self._grading_http.aclose()
            if self._own_mcp_http:
                await self._mcp_http.aclose()

    # -- HTTP helpers --------------------------------------------------------------------

    async def _request(
        self,
        service: str,
        method: str,
        path: str,
        body: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        http = self._grading_http if service == "grading" else self._env_http
        try:
            resp = await http.request(method, path, json=body)
        except httpx.TransportError as exc:
            raise InfraError(service, f"{method} {http.base_url}{path}: {_describe(exc)}") from exc
        try:
            data = resp.json()
        except ValueError:
            data = {"error": resp.text[:500]}
        if not isinstance(data, dict):
            data = {"error": f"unexpected JSON: {str(data)[:200]}"}
        if resp.status_code >= 500:
            raise InfraError(
                service, f"{method} {path} answered {resp.status_code}: {data.get('error', data)}"
            )
        if resp.status_code >= 400:
            raise ServerRequestError(service, resp.status_code, data)
        return data

    async def _episode_request(
        self,
        rec: EpisodeRecord,
        service: str,
        method: str,
        path: str,
        body: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """`_request` for a route naming an episode the harness opened: a 404 there means
        the server lost the episode (it restarted, or the bundle was never sealed), an
        infrastructure failure of this episode, not a wrong request of the campaign."""
        try:
            return await self._request(service, method, path, body)
        except ServerRequestError as exc:
            if exc.status != 404 or "installed" in exc.payload:  # not installed: a setting
                raise
            raise InfraError(
                service,
                f"{method} {path} answered 404 for episode {rec.episode_id}, which this harness "
                f"opened: the server lost it (restarted?): {exc.payload.get('error', '')}",
            ) from exc

    async def server_info(self) -> ServerInfo:
        """``GET /tasks`` of the environment server (cached after the first call).

        Raises:
            InfraError: the server is unreachable or failed.
        """
        if self._info is None:
            data = await self._request("env", "GET", "/tasks")
            self._info = ServerInfo(
                env=data["env"],
                version=data["version"],
                lock=data["lock"],
                tasks=tuple(
                    TaskInfo(t["name"], t.get("description", ""), tuple(t["bands"]))
                    for t in data["tasks"]
                ),
            )
        return self._info

    async def check_grading(self) -> None:
        """Check that the grading service is up and accepts the token.

        Raises:
            InfraError: unreachable or failing.
            ConfigurationError: the token is rejected (401/403).
        """
        await self._request("grading", "GET", "/healthz")
        try:
            await self._request("grading", "GET", "/grades/ep_preflight-check")
        except ServerRequestError as exc:
            if exc.status in (401, 403):
                raise ConfigurationError(
                    f"the grading service rejected the token ({exc.status}): "
                    f"{exc.payload.get('error', '')}"
                ) from exc
            # 404 (no such grade) is the expected answer for a valid token

    async def check_control(self) -> None:
        """Check that the environment server accepts the control token (or needs none).

        Raises:
            InfraError: unreachable or failing.
            ConfigurationError: the token is missing or rejected (401/403).
        """
        try:  # a token-guarded route on an id no episode has: 404 once past the guard
            await self._request("env", "POST", "/episodes/ep_preflight-check/end", {})
        except ServerRequestError as exc:
            if exc.status in (401, 403):
                hint = (  # a 401 already says how to send one
                    "; pass the token it was started with (MCPGYM_CONTROL_TOKEN or --control-token)"
                    if exc.status == 403
                    else ""
                )
                raise ConfigurationError(
                    f"the environment server at {self.env_url} refused the control token "
                    f"({exc.status}): {exc.payload.get('error', '')}{hint}"
                ) from exc
            # 404 (no such episode) is the expected answer for a valid token

    async def _reference_for(
        self, task: str, band: str, seed: int, lock: str | None
    ) -> TaskVariant:
        env = self._environment
        if env is None:
            env = self._environment = load_environment((await self.server_info()).env)
        if not self._reference_checked and lock is not None:
            local = compute_lock(env)
            if local != lock:
                raise ConfigurationError(
                    f"the installed environment `{env.name}` {env.version} has lock {local[:12]}, "
                    f"the server runs lock {lock[:12]}: reference solutions would not match"
                )
            self._reference_checked = True
        return env.variant(task, band, seed)

    # -- one episode ----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _connect(self, url: str) -> AsyncIterator[Client]:
        client = Client(
            streamable_http_client(url, http_client=self._mcp_http),
            mode=self.mcp_mode,
            cache=None,
        )
        try:
            await client.__aenter__()
        except Exception as exc:  # transport boundary: any SDK failure is infrastructure
            raise InfraError("mcp", f"cannot connect to {url}: {_describe(exc)}") from exc
        try:
            yield client
        except BaseException as exc:
            # No shielding scope around the exit: the client's own task group scope must be
            # the innermost one when it exits (anyio scopes nest strictly), else anyio
            # raises "exit a cancel scope that isn't the current task's" and leaves the
            # client's scope cancelling every later request of this task.
            with contextlib.suppress(Exception):
                await client.__aexit__(type(exc), exc, exc.__traceback__)
            if isinstance(exc, anyio.get_cancelled_exc_class()) and not _cancelled_here():
                # The client's own scope cancelled the episode (its transport failed) and
                # its exit absorbed that scope; `Client.__aexit__` does not say so (it
                # returns None). Re-raised, the cancellation would have no scope left to
                # stop it and would cancel the caller's task group: all its episodes.
                raise InfraError(
                    "mcp",
                    f"the connection to {url} failed: the MCP client cancelled the episode's "
                    "requests (the server went away or broke the stream)",
                ) from None
            raise
        try:
            await client.__aexit__(None, None, None)
        except Exception as exc:  # transport boundary
            raise InfraError("mcp", f"closing {url}: {_describe(exc)}") from exc

    async def run_episode(
        self, agent: Agent, task: str, band: str, seed: int, *, epoch: int = 0
    ) -> EpisodeRecord:
        """Run one episode of ``task@band#seed`` with ``agent`` and grade it.

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
        t0 = time.perf_counter()
        try:
            # The episode runs in a task of its own: nothing it raises or cancels (its MCP
            # client's scopes, its HTTP calls, its agent) can reach the caller's task group.
            failure = await run_isolated(functools.partial(self._run, agent, rec))
            if failure is not None:
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
        if rec.episode_id is not None and rec.episode_termination is None:
            with anyio.move_on_after(5, shield=True), contextlib.suppress(ClientError):
                await self._request("env", "POST", f"/episodes/{rec.episode_id}/end", {})

    async def _run(self, agent: Agent, rec: EpisodeRecord) -> None:
        t = time.perf_counter()
        try:
            meta = await self._request(
                "env", "POST", "/episodes", {"task": rec.task, "band": rec.band, "seed": rec.seed}
            )
        except InfraError as exc:
            rec.error = str(exc)
            return
        finally:
            rec.timings["create"] = (time.perf_counter() - t) * 1000
        rec.episode_id = meta["episode_id"]
        rec.variant_id = meta.get("variant_id")
        rec.lock = meta.get("lock")
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

        result = await self._run_agent(agent, rec, meta, reference, reference_answer)
        rec.termination = result.termination
        rec.transcript, rec.usage, rec.answer = result.transcript, result.usage, result.answer
        rec.error = result.error

        if rec.episode_termination is None:
            t = time.perf_counter()
            body = {} if result.answer is None else {"answer": result.answer}
            try:
                ended = await self._episode_request(
                    rec, "env", "POST", f"/episodes/{rec.episode_id}/end", body
                )
                rec.episode_termination = ended.get("termination")
            except InfraError as exc:
                if rec.termination != "infra_error":
                    rec.termination, rec.error = "infra_error", str(exc)
                return
            finally:
                rec.timings["end"] = (time.perf_counter() - t) * 1000
        if rec.termination == "infra_error":
            return
        t = time.perf_counter()
        try:
            rec.grade = await self._episode_request(
                rec, "grading", "POST", "/grades", {"episode_id": rec.episode_id}
            )
        except InfraError as exc:
            rec.termination, rec.error = "infra_error", str(exc)
        finally:
            rec.timings["grade"] = (time.perf_counter() - t) * 1000
        if rec.grade is not None:
            rec.episode_termination = rec.grade.get("termination") or rec.episode_termination

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
    ) -> AgentResult:
        state = _Episode()
        url: str = meta["mcp_url"]
        t = time.perf_counter()
        try:
            async with self._connect(url) as client:
                try:
                    listed = await client.list_tools()
                except Exception as exc:  # transport boundary
                    raise InfraError("mcp", f"listing tools: {_describe(exc)}") from exc
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
                        res = await client.call_tool(name, dict(arguments))
                    except MCPError as exc:
                        if exc.code in AGENT_FAULT_CODES:  # the server refused this request
                            return ToolOutcome(True, f"Error: {exc.message}")
                        raise InfraError("mcp", f"calling `{name}`: {_describe(exc)}") from exc
                    except Exception as exc:  # transport boundary
                        raise InfraError("mcp", f"calling `{name}`: {_describe(exc)}") from exc
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
                with watched() as activity, anyio.move_on_after(self.episode_timeout):
                    try:
                        result = await agent.run(ctx)
                    except InfraError as exc:
                        result = AgentResult("infra_error", error=str(exc))
                    except ConfigurationError:
                        raise  # a wrong setting (4xx breaker, lock mismatch): stops the campaign
                    except Exception as exc:  # the agent's failure is its episode's only
                        who = f"agent `{agent.name}`"
                        progress = ctx.progress
                        result = failure_result(exc, progress.transcript, progress.usage, who)
                rec.timings["agent"] = (time.perf_counter() - t) * 1000
                if result is None:
                    result = self._cut_off(ctx, activity.cancelled_inside, agent)
                else:
                    result = checked_result(result, f"agent `{agent.name}`")
                if (
                    result.termination == "completed"
                    and result.answer is not None
                    and not state.submitted
                ):
                    await call_tool(SUBMIT_TOOL, {"answer": result.answer})
                return result
        except InfraError as exc:
            return AgentResult("infra_error", error=str(exc))
