"""Errors raised by mcpgym clients (agents, driver, campaign runner, run store, CLI).

The tree (every class derives from `mcpgym_server.MCPGymError`)::

    MCPGymError
    └── ClientError                 base of everything raised by mcpgym_clients
        ├── ConfigurationError      bad settings: missing API key, unknown agent, bad selection
        │   ├── UsageError          a command-line value names nothing that exists (exit 2)
        │   │   └── UnknownNameError  an unknown task, band, agent or run; did-you-mean
        │   ├── StoppingEpisodeError  an episode's own outcome showed a wrong setting; `.record`
        │   ├── HarnessLoadError    an ``--agent module:attr`` or ``file.py:attr`` did not load
        │   ├── IncomparableRunsError   two runs to compare ran on different locks; `.differences`
        │   └── MissingExtraError   a vendor SDK is not installed; names the extra to install
        ├── InfraError              a server could not be reached or failed (transport error, 5xx);
        │                           `.service` names it; recorded as ``infra_error``, never a score
        ├── ServerRequestError      a server refused a request (4xx); `.status`, `.payload`
        ├── RunStoreMovedError      the run store's file was removed or replaced under a writer
        └── ModelAPIError           the model endpoint failed or answered something unusable;
                                    `.status` (None for transport errors), `.body`, `.transient`
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from mcpgym_server import MCPGymError, did_you_mean


class ClientError(MCPGymError):
    """Base class of every error raised by `mcpgym_clients`."""


class ConfigurationError(ClientError):
    """The client was configured wrongly (missing API key, unknown agent or task, bad flags)."""


class StoppingEpisodeError(ConfigurationError):
    """A wrong setting that an episode which ran showed by its own outcome (the model API's
    4xx breaker: the third episode in a row failing on its first request alike), raised
    once that episode ended: the campaign stops, and stores that episode as it ended.

    Attributes:
        result: the episode's `mcpgym_clients.AgentResult` (``model_error``), as the agent
            returned it. record: the episode's `mcpgym_clients.EpisodeRecord`, filled in by
            the driver that ran it (``None`` before, or from a runner that does not).
    """

    def __init__(self, message: str, *, result: Any = None) -> None:
        super().__init__(message)
        self.result = result
        self.record: Any = None


class UsageError(ConfigurationError):
    """A value given on the command line is wrong (names nothing, malformed): the
    ``mcpgym`` command exits with status 2, as for any usage error."""

    exit_code = 2


class UnknownNameError(UsageError):
    """A name that matches nothing: ``unknown task 'x' (did you mean y?); valid tasks: ...``.

    Attributes:
        kind: what was looked up (``"task"``, ``"band"``, ``"agent"``). name: as given.
        choices: the valid names, in the order given.
    """

    def __init__(self, kind: str, name: str, choices: Sequence[str], *, scope: str = "") -> None:
        self.kind, self.name, self.choices = kind, name, list(choices)
        where = f" {scope}" if scope else ""
        super().__init__(
            f"unknown {kind} {name!r}{where}{did_you_mean(name, self.choices)}; "
            f"valid {kind}s: {', '.join(self.choices)}"
        )


class HarnessLoadError(ConfigurationError):
    """A lab's harness spec (``--agent package.module:attr`` or ``path/to/file.py:attr``) could
    not be loaded; the message names what was wrong and the fix.

    Attributes:
        spec: the spec as given.
    """

    def __init__(self, spec: str, message: str) -> None:
        self.spec = spec
        super().__init__(message)


class IncomparableRunsError(ConfigurationError):
    """Two runs cannot be compared: they ran on different environment locks.

    Attributes:
        differences: what differs, one readable item each (env, version, lock digest,
            and the lock components when both runs recorded them).
    """

    def __init__(
        self, run_a: str, run_b: str, differences: list[str], envs: tuple[str, str] | None = None
    ) -> None:
        self.differences = differences
        if envs is not None:  # no variant pairs across environments: --force cannot help
            super().__init__(
                f"runs {run_a} and {run_b} are on different environments ({envs[0]} vs "
                f"{envs[1]}): their episodes cannot be paired; compare two runs of one "
                "environment"
            )
            return
        super().__init__(
            f"runs {run_a} and {run_b} ran on different locks ({'; '.join(differences)}); "
            "pass --force to compare them anyway"
        )


class InfraError(ClientError):
    """A server or transport failed: connection refused, timeout, 5xx, broken MCP stream.

    Attributes:
        service: which service failed: ``"env"``, ``"mcp"`` or ``"grading"``.
        unanswered: the service did not answer at all (a timeout, a refused or broken
            connection), as opposed to answering wrongly (a 5xx, a malformed body); what
            the campaign's breaker counts (`mcpgym_clients.breaker`).
    """

    def __init__(self, service: str, message: str, *, unanswered: bool = False) -> None:
        self.service = service
        self.unanswered = unanswered
        super().__init__(f"{service} server: {message}")


class RunStoreMovedError(ClientError):
    """The run store's file was removed or replaced (another file moved over its path) while
    a `mcpgym_clients.RunStore` had it open for writing: what it writes now would go to a
    file nobody can find (adversarial round 15, S1-9), so it refuses to write."""


class ServerRequestError(ClientError):
    """A server answered a request with a 4xx status.

    Attributes:
        service: ``"env"`` or ``"grading"``. status: the HTTP status code.
        payload: the decoded JSON error body (``{"error": ...}``) or ``{"error": text}``.
    """

    def __init__(self, service: str, status: int, payload: dict[str, Any]) -> None:
        self.service = service
        self.status = status
        self.payload = payload
        super().__init__(f"{service} server answered {status}: {payload.get('error', payload)}")


_USERINFO = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s@]+@")
_SECRET_PARAM = re.compile(
    r"(?i)([?&](?:key|api[_-]?key|token|access[_-]?token|secret|sig|signature|password))"
    r"=[^&\s'\"]+"
)
_QUERY = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^\s?#'\"]*)\?[^\s#'\"]+")


def redact_urls(text: str) -> str:
    """``text`` with the user info and query of every URL in it replaced by ``***``.

    Keys hide there (``https://user:KEY@host``, Gemini's ``?key=KEY``); also the value of a
    ``key=``/``token=``/``api_key=``... parameter outside a full URL (a server echoing the
    path). Used for every model API error message and the command line stored with a run.
    """
    text = _QUERY.sub(r"\1?***", _USERINFO.sub(r"\1***@", text))
    return _SECRET_PARAM.sub(r"\1=***", text)


TRANSIENT_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
"""HTTP statuses worth retrying (529 is Anthropic's "overloaded")."""


class ModelAPIError(ClientError):
    """The model API failed (transport error, non-2xx status) or returned an unusable body.

    Attributes:
        status: HTTP status code, or ``None`` for transport and decoding failures.
        body: the response text (truncated to 2,000 characters), if any.
        retry_after: seconds the server asked to wait (``Retry-After``), if it said.
        transient: the failure is the service's, not the request's (a transport error,
            timeout, 408/409/429/5xx): it is retried and, if it persists, the episode ends
            as ``infra_error``; otherwise (401/403/400/404, an unusable body) as
            ``model_error``.
        attempts: how many attempts ended this way (set by `with_retries`; 1 otherwise).
        identical: every one of those attempts failed with the same status and message
            (a server error that repeats identically is a property of the request, not
            of a passing outage: see `mcpgym_clients.adapters.outcomes`).
        reason: the message as the first attempt saw it, without the attempt count.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        body: str | None = None,
        retry_after: float | None = None,
        transient: bool | None = None,
    ) -> None:
        self.status = status
        self.body = body if body is None else redact_urls(body)
        self.retry_after = retry_after
        self.transient = status in TRANSIENT_STATUSES if transient is None else transient
        self.attempts = 1
        self.identical = True
        self.reason = redact_urls(message)
        super().__init__(self.reason)


class MissingExtraError(ConfigurationError):
    """A vendor SDK needed by an adapter, or a package of the `train` or `ray` extra, is not
    installed.

    Attributes:
        extra: the ``mcpgym-clients`` extra that installs it (``anthropic``, ``gemini``...).
    """

    def __init__(self, extra: str, package: str) -> None:
        self.extra = extra
        where = _NOT_SYNCED.get(extra, "in a clone of mcpgym, `uv sync` installs every vendor SDK")
        what = (
            f"the `{extra}` extra's `{package}` package is not installed"
            if extra in _NOT_SYNCED  # not a model vendor's adapter
            else f"the {extra} adapter needs the `{package}` package"
        )
        super().__init__(f"{what}: run uv pip install 'mcpgym-clients[{extra}]' ({where})")


_NOT_SYNCED = {
    "train": "also in a clone of mcpgym: `uv sync` does not install it, torch is large; "
    "on a machine without a GPU install a CPU torch wheel first, as .ci/run does",
    "ray": "also in a clone of mcpgym: `uv sync` does not install it",
}
"""The extras outside ``all`` and the dev group, with the hint that replaces `uv sync`."""


def message(exc: BaseException) -> str:
    """A one-line description of ``exc`` (an OSError's reason and file name)."""
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}"
    return str(exc) or type(exc).__name__
