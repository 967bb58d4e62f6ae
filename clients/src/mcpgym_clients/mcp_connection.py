"""The MCP connections of the harness: one `mcp.Client` per episode over one shared HTTP client.

`McpConnections.connect` opens an episode's MCP session over a shared
``httpx2.AsyncClient`` and turns every failure of the SDK's transport into `InfraError`
(connect, close, and a broken stream that cancelled the episode's requests). In
``auto`` mode a session probes ``server/discover`` (its answer carries the episode's own
task in the server instructions) unless it is handed the episode's answer to adopt
(`mcpgym_clients.discover_reuse`).

A server may refuse a request with a bare HTTP 413 (a body over its limit), which the SDK
reports as ``-32603`` ("Server returned an error response", the status lost). While
`McpConnections.refusals` is entered, such refusals of the requests sent from the current
task are noted (`TooLarge`), so the driver answers the call to the model as a tool error
instead of blaming the server.

Every MCP request of a session (initialize, discover, list, each tool call) gets at most
``request_timeout`` seconds for its answer (the SDK's ``read_timeout_seconds``; 60 s by
default): a frozen server (SIGSTOP, a hung host) fails the request with the SDK's
``REQUEST_TIMEOUT`` instead of the 300 s read timeout of the HTTP client, which stays
that long only for the idle listening stream (adversarial round 12, S1-5). The session's
closing ``DELETE`` (the SDK sends it on exit, outside any bound of the caller's) gets
`CLOSE_TIMEOUT` seconds.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

from mcpgym_clients._parsed_urls import ParsedUrlClient
from mcpgym_clients._pooled import http2_transport
from mcpgym_clients.discover_reuse import Adoptable
from mcpgym_clients.errors import InfraError
from mcpgym_clients.services import KEEPALIVE_EXPIRY, describe_error

CLOSE_TIMEOUT = 5.0
"""Seconds the closing ``DELETE`` of an MCP session may take (at most the request timeout):
best effort; a server that does not answer it reaps the session at its idle TTL."""


@dataclass(frozen=True)
class TooLarge:
    """A request an MCP server refused with HTTP 413 (its body over the server's limit).

    Attributes:
        size: the request body's length in bytes (``None``: not known).
        reply: the start of the server's answer (at most 200 characters).
    """

    size: int | None
    reply: str

    def explain(self, tool: str) -> str:
        """The tool error the model is answered with: what was refused, its size, why."""
        size = "" if self.size is None else f" ({self.size:,} bytes)"
        return (
            f"Error: the call to `{tool}` was not run: the server refused its request{size} as "
            f"too large (HTTP 413: {self.reply or 'no explanation'}); send smaller arguments"
        )


_REFUSED: ContextVar[list[TooLarge] | None] = ContextVar("mcpgym_refused", default=None)
"""Where the 413s of the requests sent from the current task go (`McpConnections.refusals`);
the SDK sends each request from a copy of the sender's context, so the list is shared."""


async def _note_too_large(response: httpx2.Response) -> None:
    """Response hook: note a bare 413 for `McpConnections.refusals` (a JSON-RPC error body,
    as mcpgym servers send, is left to the SDK, which reports its code)."""
    refused = _REFUSED.get()
    if response.status_code != 413 or refused is None:
        return
    if response.headers.get("content-type", "").lower().startswith("application/json"):
        return
    declared = response.request.headers.get("content-length", "")
    text = (await response.aread())[:200].decode("utf-8", "replace").strip()
    refused.append(TooLarge(int(declared) if declared.isdigit() else None, text))


def _bounded_close(seconds: float) -> Callable[[httpx2.Request], Awaitable[None]]:
    """A request hook bounding the session's ``DELETE`` to ``seconds``."""
    timeout = httpx2.Timeout(seconds).as_dict()

    async def hook(request: httpx2.Request) -> None:
        """Request hook: the session's ``DELETE`` gets ``seconds``, not the 300 s read
        timeout meant for the idle listening stream."""
        if request.method == "DELETE":
            request.extensions = {**request.extensions, "timeout": timeout}

    return hook


def no_answer(exc: BaseException) -> bool:
    """Whether an MCP failure means the server did not answer at all (`InfraError.unanswered`):
    the SDK's request timeout or a closed connection, a transport timeout or network error
    (of the first leaf of an exception group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        return exc.code in (REQUEST_TIMEOUT, CONNECTION_CLOSED)
    return isinstance(exc, (httpx2.TimeoutException, httpx2.NetworkError, TimeoutError))


def _cancelled_here() -> bool:
    """Whether a cancel scope enclosing the current code has been cancelled (unshielded)."""
    return anyio.current_effective_deadline() == -math.inf


class McpConnections:
    """Opens episodes' MCP sessions over one ``httpx2.AsyncClient``.

    Args:
        mode: `mcp.Client` protocol mode: ``"auto"`` (2026-07-28 against mcpgym servers)
            or ``"legacy"`` (the 2025 handshake).
        http: the shared client (default: a new `ParsedUrlClient`, closed by `aclose`; a
            given one is left open).
        request_timeout: seconds an MCP request may wait for its answer (the SDK's
            ``read_timeout_seconds``; the HTTP client's reads may idle 300 s, for the
            listening stream).
        trust_env: whether a new client honours proxy settings (not on loopback).
    """

    def __init__(
        self,
        mode: Literal["auto", "legacy"] = "auto",
        *,
        http: httpx2.AsyncClient | None = None,
        request_timeout: float = 60.0,
        trust_env: bool = True,
    ) -> None:
        self.mode = mode
        self.request_timeout = request_timeout
        self._own_http = http is None
        self._http = http or ParsedUrlClient(
            timeout=httpx2.Timeout(request_timeout, read=max(request_timeout, 300.0)),
            trust_env=trust_env,
            transport=http2_transport(
                limits=httpx2.Limits(
                    max_connections=100,
                    max_keepalive_connections=20,
                    keepalive_expiry=KEEPALIVE_EXPIRY,
                ),
                trust_env=trust_env,
            ),
        )
        response_hooks = self._http.event_hooks["response"]  # a given client gets it too
        if _note_too_large not in response_hooks:
            response_hooks.append(_note_too_large)
        self._http.event_hooks["request"].append(
            _bounded_close(min(CLOSE_TIMEOUT, request_timeout))
        )

    @staticmethod
    @contextlib.contextmanager
    def refusals() -> Iterator[list[TooLarge]]:
        """The bare 413 refusals of the MCP requests sent from the current task inside the
        block (see the module): a list, filled as they come."""
        refused: list[TooLarge] = []
        token = _REFUSED.set(refused)
        try:
            yield refused
        finally:
            _REFUSED.reset(token)

    async def aclose(self) -> None:
        """Close the shared HTTP client if this object created it."""
        if self._own_http:
            with anyio.CancelScope(shield=True):
                await self._http.aclose()

    def client(self, url: str, prior: Adoptable | None = None) -> Client:
        """An MCP client for one episode's ``url`` (over the shared ``httpx2`` client).

        In ``auto`` mode an episode probes ``server/discover`` unless ``prior`` is given:
        the episode's own discover answer (`mcpgym_clients.discover_reuse`: another
        episode's answer with this episode's instructions, as the server named them; an
        episode URL's answer carries its task in its instructions, and a model agent puts
        them in its system prompt). The client is then pinned to ``prior``'s version and
        adopts it without a request. In ``legacy`` mode ``prior`` is ignored.
        """
        adopt = prior is not None and self.mode == "auto"
        return Client(
            streamable_http_client(url, http_client=self._http),
            mode=prior.version if adopt and prior is not None else self.mode,  # type: ignore[arg-type]
            prior_discover=prior.result if adopt and prior is not None else None,
            cache=None,
            read_timeout_seconds=self.request_timeout,
        )

    @contextlib.asynccontextmanager
    async def connect(self, url: str, prior: Adoptable | None = None) -> AsyncIterator[Client]:
        """An open MCP session on ``url``, closed when the block ends; ``prior``: the
        discover answer it adopts instead of probing (`client`).

        Raises:
            InfraError: the session cannot be opened or closed, or its transport broke
                and cancelled the block's requests.
        """
        client = self.client(url, prior)
        try:
            await client.__aenter__()
        except Exception as exc:  # transport boundary: any SDK failure is infrastructure
            raise InfraError(
                "mcp", f"cannot connect to {url}: {describe_error(exc)}", unanswered=no_answer(exc)
            ) from exc
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
            raise InfraError("mcp", f"closing {url}: {describe_error(exc)}") from exc
