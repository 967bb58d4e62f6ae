"""How fast one episode's MCP URL may be sent requests: a token bucket per episode.

Every HTTP request to an episode's MCP URL costs the server's one event loop time (the
SDK parses and validates it, a notification included), and the loop is shared by every
episode. An agent that floods its own URL with requests or notifications (adversarial
round 12, S5-6: 5,000 notifications, 50 at a time) raised other episodes' ``tools/call``
p99 from 124 ms to 5.6-8.3 s. So each episode has a bucket of `RequestRate.burst` tokens,
refilled at `RequestRate.per_second` tokens a second; each request to the episode's MCP URL
(any method: POST, GET, DELETE; a request of a connect-to-start session counts for its
episode) takes one. A request that finds the bucket empty is refused before it is parsed:
HTTP 429 with ``Retry-After`` and a JSON-RPC error (`RATE_LIMIT_ERROR`, ``data.kind:
"rate_limit"``) naming the limit and how to raise it. The refusal is answered after
`REFUSAL_HOLD_S` (its ``Retry-After`` counts from then; at most `MAX_HELD` of an episode's refusals
wait at once, the rest are answered at once): a refusal costs the server far less than a
served request, so a flooder answered at once would only send more of them, and the loop
would still be full; held, a flooder with N requests in flight is refused about N times a
second, which costs the loop next to nothing. The server logs the first refusal of
each episode, and the episode's bundle records how many were refused (`EpisodeMeta`
``rate_limited``); other episodes' buckets are untouched.

The defaults (`DEFAULT_REQUESTS_PER_SECOND` 20, `DEFAULT_REQUEST_BURST` 200) are far above
what an honest episode sends. The fastest agent there is, the scripted reference with no
model in the loop, makes at most ~15 requests in a whole episode (``initialize``,
``initialized``, ``tools/list``, up to 11 tool calls, ``DELETE``; the 1,660 reference
episodes in the run store, the fastest 11 calls in 48 ms): the burst holds 13 such
episodes' whole traffic at once. A model-driven agent waits on its model between turns
(0.1 s and more, usually seconds), so even 10 parallel tool calls a turn stay under 20 a
second sustained, and the burst absorbs any one turn. The rate is set well under what a
loaded server serves (the round-12 probe's server handled ~40 notifications a second at
load 9 on 2 shared cores), so an episode at its limit leaves most of the loop to others.

This module imports nothing heavy (the CLI reads its defaults).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_REQUESTS_PER_SECOND = 20.0
"""Default sustained rate of MCP requests one episode may send (requests per second)."""

DEFAULT_REQUEST_BURST = 200
"""Default bucket size: MCP requests one episode may send at once before the rate applies."""

RATE_LIMIT_ERROR = -32002
"""JSON-RPC error code (server-defined range) of a request refused for its episode's rate."""

REFUSAL_HOLD_S = 1.0
"""Seconds a refused request waits before its 429 is sent (its ``Retry-After``)."""

MAX_HELD = 64
"""Most refusals of one episode held at once (`REFUSAL_HOLD_S`); more are answered at once."""

PRUNE_AT = 1024
"""Buckets kept before full ones (an episode idle long enough to refill) are dropped."""


@dataclass
class _Bucket:
    tokens: float
    at: float
    refused: int = 0
    held: int = 0


@dataclass(frozen=True)
class RateRefusal:
    """A request refused for its episode's rate.

    Attributes:
        retry_after: seconds until the episode's bucket holds a token again (from `take`).
        first: whether this is the episode's first refused request.
    """

    retry_after: float
    first: bool


class RequestRate:
    """Token buckets, one per episode id: `take` admits a request or says why not.

    Args:
        per_second: tokens added to each bucket per second (the sustained rate).
        burst: each bucket's size (requests admitted at once from an idle episode).
        clock: seconds, monotonic (tests pass their own).

    Attributes:
        hold_s: seconds a refusal is held before it is answered (`REFUSAL_HOLD_S`).

    Raises:
        ValueError: ``per_second`` not above 0 or not finite, or ``burst`` below 1.
    """

    def __init__(
        self, per_second: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not (per_second > 0 and math.isfinite(per_second)):
            raise ValueError(
                f"the MCP request rate per episode must be a positive number, got {per_second}"
            )
        if burst < 1:
            raise ValueError(f"the MCP request burst per episode must be at least 1, got {burst}")
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._prune_at = PRUNE_AT
        self.hold_s = REFUSAL_HOLD_S

    def take(self, episode_id: str) -> RateRefusal | None:
        """Take one token from ``episode_id``'s bucket: ``None`` when the request is
        admitted, else the `RateRefusal` (the bucket is left empty, not in debt)."""
        now = self._clock()
        bucket = self._buckets.get(episode_id)
        if bucket is None:
            if len(self._buckets) >= self._prune_at:
                self._prune(now)
            bucket = self._buckets[episode_id] = _Bucket(float(self.burst), now)
        else:
            bucket.tokens = min(
                float(self.burst), bucket.tokens + (now - bucket.at) * self.per_second
            )
            bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        bucket.refused += 1
        return RateRefusal((1.0 - bucket.tokens) / self.per_second, bucket.refused == 1)

    def refused(self, episode_id: str) -> int:
        """Requests of ``episode_id`` refused so far (0 for one never refused)."""
        bucket = self._buckets.get(episode_id)
        return 0 if bucket is None else bucket.refused

    def hold(self, episode_id: str) -> bool:
        """Start holding one refusal of ``episode_id`` (a refused one); ``False`` when
        `MAX_HELD` already wait (answer it at once). Each ``True`` needs a `release`."""
        bucket = self._buckets.get(episode_id)
        if bucket is None or bucket.held >= MAX_HELD or self.hold_s <= 0:
            return False
        bucket.held += 1
        return True

    def release(self, episode_id: str) -> None:
        """End one hold of ``episode_id`` (see `hold`)."""
        bucket = self._buckets.get(episode_id)
        if bucket is not None and bucket.held > 0:
            bucket.held -= 1

    def _prune(self, now: float) -> None:
        # A full bucket is the same as none; one that refused keeps its count.
        full = [
            eid
            for eid, b in self._buckets.items()
            if b.refused == 0 and b.tokens + (now - b.at) * self.per_second >= self.burst
        ]
        for eid in full:
            del self._buckets[eid]
        self._prune_at = max(PRUNE_AT, 2 * len(self._buckets))

    def message(self, episode_id: str) -> str:
        """The explanation a refused request gets (see the module)."""
        return (
            f"episode {episode_id} sent MCP requests to its URL faster than this server "
            f"admits ({self.per_second:g} a second, bursts of up to {self.burst}; "
            "notifications count): this request was refused and not run. Wait as long as "
            "the Retry-After header says, and send fewer requests. The server's operator "
            "can raise the limit: `mcpgym serve --max-requests-per-second N --request-burst "
            "N` (`create_app(..., max_requests_per_second=N, request_burst=N)`)."
        )
