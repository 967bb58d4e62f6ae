"""The harness's HTTP clients of the environment server's control routes and the grading service.

`ServiceClients` owns two ``httpx.AsyncClient`` objects (the control token and the grading
token each go only to their own service) and turns their answers into the harness's
errors: unreachable or 5xx is `InfraError`, any other 4xx is `ServerRequestError` (the
request itself was wrong), a 429 is retried with backoff (`RATE_LIMIT`) and then
`InfraError`, a 2xx whose body is not a JSON object is `InfraError` (quoted), and a 404 for
an episode the harness opened is `InfraError` (the server lost it).
`mcpgym_clients.driver.EpisodeDriver` is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType
from typing import Any, Self

import anyio
import httpx

from mcpgym_clients._pooled import http_transport
from mcpgym_clients.adapters.retry import RetryPolicy, retry_after_seconds
from mcpgym_clients.errors import ConfigurationError, InfraError, ServerRequestError
from mcpgym_clients.grade_reply import quoted
from mcpgym_clients.records import ServerInfo, TaskInfo

KEEPALIVE_EXPIRY = 2.0
"""Seconds an idle pooled connection is reused; below the servers' keep-alive timeout
(uvicorn's 5 s), so that a request never goes out on a connection the server is closing
at that moment (httpx's default, 5 s, raced it: a ``ReadError`` on ``POST /grades`` now
and then, recorded as ``infra_error``)."""

URLS_KEPT = 64
"""Request paths whose merged URL `ServiceClients` keeps (the per-episode routes repeat:
``/episodes``, ``/grades``; paths naming an episode are dropped with the rest when full)."""

RATE_LIMIT = RetryPolicy(max_retries=5, base_delay=2.0, max_delay=30.0, jitter=0.5)
"""How a 429 of either service is retried: the ``Retry-After`` it sends (at most 30 s), else
``2 * 2**n`` seconds reduced by up to half at random (1-2 s, 2-4 s, ... at most 30 s), five
times; then the episode is ``infra_error``."""


NOT_ANSWERED = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)
"""Transport errors that mean a service did not answer at all (`InfraError.unanswered`):
no answer in time, a connection refused, reset or closed before a response."""


def is_loopback(url: str) -> bool:
    """Whether ``url`` points at this machine (then proxy settings must not apply)."""
    host = httpx.URL(url).host
    return host in ("localhost", "::1") or host.startswith("127.")


def describe_error(exc: BaseException) -> str:
    """``"TypeName: message"`` of ``exc`` (of the first leaf of an exception group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _transport(url: str) -> httpx.AsyncHTTPTransport:
    """The pooled transport of one service's client (`mcpgym_clients._pooled`)."""
    limits = httpx.Limits(
        max_connections=100, max_keepalive_connections=20, keepalive_expiry=KEEPALIVE_EXPIRY
    )
    return http_transport(limits=limits, trust_env=not is_loopback(url))


class ServiceClients:
    """HTTP clients of one environment server (control routes) and one grading service.

    Use it as an async context manager (or call `aclose`).

    Args:
        env_url: environment server base URL, e.g. ``http://127.0.0.1:8000``.
        grading_url: grading service base URL.
        grading_token: bearer token for the grading service.
        control_token: the environment server's control token, sent on its control
            routes only; ``None`` for a server started with ``--no-control-token``.
        request_timeout: seconds for each request.
        env_transport, grading_transport: ``httpx`` transports to use instead of the
            network (tests).
        rate_limit: how a 429 is retried (`RATE_LIMIT`; its ``sleep`` does the waiting).
    """

    def __init__(
        self,
        env_url: str,
        grading_url: str,
        grading_token: str,
        *,
        control_token: str | None = None,
        request_timeout: float = 60.0,
        env_transport: httpx.AsyncBaseTransport | None = None,
        grading_transport: httpx.AsyncBaseTransport | None = None,
        rate_limit: RetryPolicy = RATE_LIMIT,
    ) -> None:
        self.rate_limit = rate_limit
        self.env_url = env_url.rstrip("/")
        self.grading_url = grading_url.rstrip("/")
        self._info: ServerInfo | None = None
        self._urls: dict[tuple[str, str], httpx.URL] = {}
        self._control_token_given = bool(control_token)
        self._env_http = httpx.AsyncClient(
            base_url=self.env_url,
            timeout=request_timeout,
            transport=env_transport or _transport(self.env_url),
            headers={"authorization": f"Bearer {control_token}"} if control_token else None,
            trust_env=not is_loopback(self.env_url),
        )
        self._grading_http = httpx.AsyncClient(
            base_url=self.grading_url,
            timeout=request_timeout,
            transport=grading_transport or _transport(self.grading_url),
            headers={"authorization": f"Bearer {grading_token}"},
            trust_env=not is_loopback(self.grading_url),
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

    def _url(self, service: str, http: httpx.AsyncClient, path: str) -> httpx.URL:
        """The absolute URL of ``path`` on ``service``, merged with the client's base URL by
        the library (``build_request``) once per path: ``httpx`` parses and merges a string
        path again on every request (~55 us; a parsed absolute URL is taken as it is). At
        most `URLS_KEPT` paths are kept (paths naming an episode come and go)."""
        key = (service, path)
        url = self._urls.get(key)
        if url is None:
            if len(self._urls) >= URLS_KEPT:
                self._urls.clear()
            url = self._urls[key] = http.build_request("GET", path).url
        return url

    async def _request(
        self,
        service: str,
        method: str,
        path: str,
        body: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """One request to ``service`` (``"env"`` or ``"grading"``); its JSON object.

        A 429 (rate limited) is retried after the wait its ``Retry-After`` asks for, else
        after `rate_limit`'s backoff (`RATE_LIMIT`: 1-2 s, doubling, at most 30 s), up to
        ``rate_limit.max_retries`` times.

        Raises:
            InfraError: unreachable, a 5xx answer, a 429 after the last retry, or a 2xx
                answer whose body is not a JSON object (quoted).
            ServerRequestError: any other 4xx answer.
        """
        http = self._grading_http if service == "grading" else self._env_http
        retries = 0
        while True:
            try:
                resp = await http.request(method, self._url(service, http, path), json=body)
            except httpx.TransportError as exc:
                raise InfraError(
                    service,
                    f"{method} {http.base_url}{path}: {describe_error(exc)}",
                    unanswered=isinstance(exc, NOT_ANSWERED),
                ) from exc
            if resp.status_code != 429 or retries >= self.rate_limit.max_retries:
                break
            wait = self.rate_limit.delay(retries, retry_after_seconds(resp.headers))
            retries += 1
            await self.rate_limit.sleep(wait)
        try:
            data = resp.json()
        except ValueError:
            data = resp.text
        if not isinstance(data, dict):
            if resp.status_code < 400:
                raise InfraError(
                    service,
                    f"{method} {path} answered {resp.status_code} with a body that is not a "
                    f"JSON object: {quoted(data)}",
                )
            data = {"error": quoted(data)}
        if resp.status_code >= 500:
            raise InfraError(
                service, f"{method} {path} answered {resp.status_code}: {data.get('error', data)}"
            )
        if resp.status_code == 429:
            raise InfraError(
                service,
                f"{method} {path} answered 429 (rate limited) {retries + 1} times: "
                f"{data.get('error', data)}",
            )
        if resp.status_code >= 400:
            raise ServerRequestError(service, resp.status_code, data)
        return data

    async def _episode_request(
        self,
        episode_id: str | None,
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
                f"{method} {path} answered 404 for episode {episode_id}, which this harness "
                f"opened: the server lost it (restarted?): {exc.payload.get('error', '')}",
            ) from exc

    async def server_info(self) -> ServerInfo:
        """``GET /tasks`` of the environment server (cached after the first call); with the
        control token it carries the server's ``episode_settings`` (`ServerInfo`).

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
                episode_settings=data.get("episode_settings"),
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
                    f"the grading service at {self.grading_url} rejected the grading token "
                    f"({exc.status}): {exc.payload.get('error', '')}; set "
                    "MCPGYM_GRADING_TOKEN or pass --grading-token (the token "
                    "`mcpgym grading serve` printed)"
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
            if exc.status == 401 and not self._control_token_given:
                raise ConfigurationError(
                    f"the environment server at {self.env_url} needs a control token and "
                    "none was given: set MCPGYM_CONTROL_TOKEN to the token `mcpgym serve` "
                    "printed (or pass --control-token)"
                ) from exc
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
