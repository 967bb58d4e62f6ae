"""Retries of model API requests, and the episode time budget they are not charged to.

Every adapter turns a failed request into `ModelAPIError` (``transient`` set for transport
errors, timeouts, 408/409/429/5xx) and sends it through `with_retries`: exponential backoff
with jitter ("Exponential Backoff And Jitter", AWS Architecture Blog, 2015), a server's
``Retry-After`` (delay-seconds or HTTP-date, RFC 9110 §10.2.3) or ``retry-after-ms``
(OpenAI, Anthropic) honoured, each wait capped. The vendor SDKs' own retries are turned off.

Each attempt has its own time limit (`RetryPolicy.request_timeout`, ``--request-timeout``):
an attempt that gets no answer in time fails as a transient error and is retried like a
429; if every attempt fails, the episode ends as ``infra_error`` (unscored). A context
overflow is never retried, whatever its status (llama-cpp-python can answer one as a 500:
`mcpgym_clients.adapters.outcomes.is_context_overflow`): the same prompt cannot fit on a
second try, and it is the request's outcome, not an outage.

Time lost to a failed attempt and to the wait after it is not the model's: `TimeBudget`
(the episode's wall-time limit, ``--time-limit``) is paused while a request is in flight
and moved back by the time of every failed attempt and wait, so a rate-limited or hanging
API never ends an episode as a scored ``timeout``; the time of a request that succeeds
counts. `ModelActivity` tells the driver whether the agent is inside a model request or a
retry wait when its hard cap (``--timeout``) fires: that episode is ``infra_error``. A
``Retry-After`` longer than the time left before that cap (the nearest deadline of the
enclosing cancel scopes) is not waited at all: the request fails at once, transient
(``infra_error``), its message naming the wait the server asked for. `ModelActivity` also
counts the requests answered and keeps the last request that failed on a refusal asking
for a wait beyond the per-retry cap (`refusal_of`): the campaign's breaker stops a campaign
whose model API keeps refusing (`mcpgym_clients.breaker`).
"""

from __future__ import annotations

import contextlib
import email.utils
import math
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

import anyio

from mcpgym_clients.adapters.outcomes import error_signature, is_context_overflow
from mcpgym_clients.errors import ModelAPIError
from mcpgym_clients.records import ModelRefusal

T = TypeVar("T")


class TimeBudget:
    """An episode's wall-time limit that excludes time lost to retries.

    Use `scope` as the cancel scope of the model loop; `exclude` moves its deadline back.

    Args:
        limit: seconds, or ``None`` for no limit.

    Attributes:
        excluded: seconds excluded so far (failed attempts plus retry waits).
        retries: retried requests so far.
    """

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self._deadline = anyio.current_time() + limit if limit is not None else math.inf
        self.scope = anyio.CancelScope(deadline=self._deadline)
        self.excluded = 0.0
        self.retries = 0
        self._paused = 0

    def exclude(self, seconds: float) -> None:
        """Do not count ``seconds`` against the limit."""
        self.excluded += seconds
        self._deadline += seconds
        if not self._paused:
            self.scope.deadline = self._deadline

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Never cut the loop off inside this block (a model request in flight). Its time
        counts unless passed to `exclude`; past the deadline, the loop stops at its next
        checkpoint after the block."""
        self._paused += 1
        self.scope.deadline = math.inf
        try:
            yield
        finally:
            self._paused -= 1
            if not self._paused:
                self.scope.deadline = self._deadline

    @property
    def expired(self) -> bool:
        """Whether the limit cut the loop off."""
        return self.scope.cancelled_caught


_BUDGET: ContextVar[TimeBudget | None] = ContextVar("mcpgym_time_budget", default=None)


@dataclass
class ModelActivity:
    """Whether an episode's agent is waiting on the model API (read by the episode driver).

    Attributes:
        waiting: model requests in progress (attempts and retry waits) in this episode.
        cancelled_inside: a cancellation reached the agent inside a model request or
            retry wait.
        retries: model requests retried so far in this episode (shown live by
            `mcpgym_clients.progress`).
        answered: model requests that got an answer in this episode.
        refused: the last model request that failed on a refusal asking for a wait
            beyond the per-retry cap (`refusal_of`), else ``None`` (read by the driver).
    """

    waiting: int = 0
    cancelled_inside: bool = False
    retries: int = 0
    answered: int = 0
    refused: ModelRefusal | None = None


_ACTIVITY: ContextVar[ModelActivity | None] = ContextVar("mcpgym_model_activity", default=None)


@contextlib.contextmanager
def watched() -> Iterator[ModelActivity]:
    """Track `with_retries` calls made in this task (and tasks it starts) in a new
    `ModelActivity`."""
    activity = ModelActivity()
    token = _ACTIVITY.set(activity)
    try:
        yield activity
    finally:
        _ACTIVITY.reset(token)


@contextlib.contextmanager
def charged_to(budget: TimeBudget) -> Iterator[TimeBudget]:
    """Make ``budget`` the one `with_retries` reports lost time to, in this task."""
    token = _BUDGET.set(budget)
    try:
        with budget.scope:
            yield budget
    finally:
        _BUDGET.reset(token)


def retry_after_seconds(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """The wait a response asks for, in seconds, or ``None``.

    Reads ``retry-after-ms`` (milliseconds; OpenAI, Anthropic) first, then ``retry-after``
    as delay-seconds or an HTTP-date (RFC 9110 §10.2.3). A date in the past gives 0.

    Args:
        headers: response headers (case-insensitive mapping, e.g. ``httpx.Headers``).
        now: the current Unix time (default ``time.time()``), for HTTP-dates.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    raw_ms = lowered.get("retry-after-ms")
    if raw_ms:
        with contextlib.suppress(ValueError):
            return max(float(raw_ms) / 1000.0, 0.0)
    raw = (lowered.get("retry-after") or "").strip()
    if not raw:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


@dataclass
class RetryPolicy:
    """How failed model requests are retried.

    Attempt ``n`` (0-based) that fails transiently waits the server's ``Retry-After`` if
    it gave one, else ``base_delay * 2**n`` reduced by up to ``jitter`` of itself at
    random ("equal jitter"); either way at most ``max_delay`` seconds.

    Attributes:
        max_retries: retries after the first attempt (0 = no retries).
        request_timeout: seconds one attempt may take before it fails as a transient
            error (``None``: no limit; the HTTP clients' own timeouts still apply).
        base_delay, max_delay: seconds. jitter: fraction in [0, 1].
        sleep: the coroutine used to wait (tests pass one that does not sleep).
        rng: random source of the jitter.
    """

    max_retries: int = 5
    request_timeout: float | None = 120.0
    base_delay: float = 1.0
    max_delay: float = 60.0
    jitter: float = 0.5
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after failed attempt ``attempt`` (0-based)."""
        if retry_after is not None:
            return min(retry_after, self.max_delay)
        backoff = min(self.base_delay * 2**attempt, self.max_delay)
        return backoff * (1.0 - self.jitter * self.rng.random())


REFUSING_STATUSES = frozenset({429, 503, 529})
"""Statuses by which a model API refuses a request for a while: rate limited (429),
unavailable (503; a server loading its model, a proxy with no upstream), Anthropic's
"overloaded" (529)."""


def refusal_of(exc: ModelAPIError, policy: RetryPolicy) -> ModelRefusal | None:
    """The `ModelRefusal` ``exc`` is, else ``None``: a `REFUSING_STATUSES` answer whose
    ``Retry-After`` asks for longer than ``policy.max_delay``, the longest wait the harness
    makes before a retry (a request refused so cannot be waited out by its retries)."""
    if (
        exc.status not in REFUSING_STATUSES
        or exc.retry_after is None
        or exc.retry_after <= policy.max_delay
    ):
        return None
    return ModelRefusal(exc.status, exc.retry_after, policy.max_delay, exc.reason)


NO_WAIT = RetryPolicy(base_delay=0.0, jitter=0.0)
"""A policy for tests: retries at once (pass ``sleep=`` to record the waits asked for)."""


async def with_retries(policy: RetryPolicy, attempt: Callable[[], Awaitable[T]]) -> T:
    """Run ``attempt`` until it succeeds, fails for good, or the retries run out.

    Each attempt gets at most ``policy.request_timeout`` seconds. A failure whose
    ``retry_after`` exceeds the time left before the nearest enclosing deadline (the
    episode's hard cap) is raised at once, without waiting. The current `TimeBudget`
    (see `charged_to`) is paused meanwhile, and the time of each failed attempt and of
    each wait is excluded from it; the current `ModelActivity` counts this call as waiting,
    then as answered, or keeps its failure if it was a refusal (`refusal_of`).

    Raises:
        ModelAPIError: the last failure (``transient`` tells whether it was the service's).
    """
    budget = _BUDGET.get()
    activity = _ACTIVITY.get()
    if activity is not None:
        activity.waiting += 1
    try:
        with budget.paused() if budget is not None else contextlib.nullcontext():
            answer = await _retrying(policy, attempt, budget, activity)
        if activity is not None:
            activity.answered += 1
        return answer
    except ModelAPIError as exc:
        if activity is not None:
            activity.refused = refusal_of(exc, policy) if exc.transient else None
        raise
    except anyio.get_cancelled_exc_class():
        if activity is not None:
            activity.cancelled_inside = True
        raise
    finally:
        if activity is not None:
            activity.waiting -= 1


async def _retrying(
    policy: RetryPolicy,
    attempt: Callable[[], Awaitable[T]],
    budget: TimeBudget | None,
    activity: ModelActivity | None = None,
) -> T:
    n = 0
    seen: set[str] = set()  # the attempts' failures, as `error_signature`s
    while True:
        started = anyio.current_time()
        try:
            with anyio.move_on_after(policy.request_timeout):
                return await attempt()
            raise ModelAPIError(
                f"the model API did not answer within {policy.request_timeout} s "
                "(--request-timeout)",
                transient=True,
            )
        except ModelAPIError as exc:
            seen.add(error_signature(exc.status, exc.reason))
            if exc.transient and is_context_overflow(exc):
                exc.transient = False  # the request's, not the service's (see above)
            if not exc.transient or n >= policy.max_retries:
                exc.attempts, exc.identical = n + 1, len(seen) == 1
                if n:
                    exc.args = (f"{exc.args[0]} (after {n + 1} attempts)",)
                if budget is not None:
                    budget.exclude(anyio.current_time() - started)
                raise
            left = anyio.current_effective_deadline() - anyio.current_time()
            if exc.retry_after is not None and exc.retry_after > left:
                # The server's wait runs past the episode's hard cap (adversarial round 12,
                # S8-14: ``Retry-After: 86400`` was waited out in capped pieces until the
                # cap, 226 s per slot): no attempt can come in time, stop now.
                exc.attempts, exc.identical = n + 1, len(seen) == 1
                exc.args = (
                    f"{exc.args[0]}: the server asked to wait {exc.retry_after:,.0f} s "
                    f"(Retry-After), more than the {max(left, 0.0):,.0f} s left before the "
                    "episode's hard cap (--timeout); stopped without waiting",
                )
                if budget is not None:
                    budget.exclude(anyio.current_time() - started)
                raise
            wait = policy.delay(n, exc.retry_after)
            if activity is not None:
                activity.retries += 1
            if budget is not None:
                budget.retries += 1
                budget.exclude(anyio.current_time() - started + wait)
            await policy.sleep(wait)
            n += 1
