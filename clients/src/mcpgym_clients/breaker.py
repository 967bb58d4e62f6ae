"""The campaign's breaker: stop when a server has stopped answering, instead of playing on.

A frozen grading service (SIGSTOP, a hung host) made every slot wait out its grade request
three times and end ``infra_error``, while the campaign went on for 10-41 minutes, every
episode played on the environment server for nothing; a frozen environment server made
every tool call wait (adversarial round 12, S1-5, S1-6). Each episode's record says when a
server did not answer at all (`EpisodeRecord.unanswered`: a timeout, a refused or broken
connection; not a 5xx or a malformed answer, which are answers). `ServiceBreaker` counts,
per server, the consecutive attempts that ended so, and trips at `BREAKER_THRESHOLD`.

Only an attempt that came after a wait counts: a retry (the slot already waited its
``infra_backoff``, and with child servers the restart of a dead one), or a slot's last
attempt. The first attempts of the episodes in flight when a server restarts all fail at
once; a restart that is over by their retries never trips the breaker. Any attempt that
ended otherwise (scored, or failed for another reason) resets the count of both servers.

The count alone depends on the concurrency: the retries of the slots in flight during one
restart all fail together, so at ``--concurrency 4`` a grading-service restart of ~3 s
counted 3 within a second and stopped the campaign, where at concurrency 1 the same restart
had to outlast ~10 s of one slot's waits, and at ``--concurrency 16`` any blip stopped it
(adversarial round 16, R16-5). So the breaker also asks for time: it trips only once the run
of counted attempts has lasted ``min_run`` seconds (from its first counted attempt to the
one that trips it, on the injected monotonic ``clock``) as well as reached ``threshold``.
The campaign sets ``min_run`` to one slot's whole retry wait at its longest
(`retry_window`: 3 + 6 = 9 s with the default ``--infra-retry-wait`` 3 and 2 retries),
the time the count already took at concurrency 1: a server back within what one slot's
retries ride out never stops a campaign, at any concurrency, and a server still down past
it stops it as before. Time rather than counting the slots that spent all their retries:
that would keep the bound on a dead or frozen server (each of ``threshold`` slots waits its
whole schedule, each attempt of a frozen server a timeout) but stretch it ``threshold``
times at concurrency 1, where the count was never the problem; the time floor adds at most
one retry round at any concurrency (a frozen server's attempts each take a timeout, longer
than the floor, so its stop comes where it came, or one timeout later with slots in flight
together). ``min_run`` 0 (``--infra-retry-wait 0``, or no retries) is the count alone.

The grading service is counted the same way when it answers every grade request with a
failure (`EpisodeRecord.ungraded`): a 404 for each episode the harness opened and ended (a
grading service on another episode store, or one that lost its store), a 5xx, a grade of
the wrong shape. Each slot played its three attempts to their end for nothing, with no
breaker (adversarial round 15, ``p1_grading15.py otherstore``: 18 slots, 54 episodes).

The model API is counted the same way when it keeps refusing: an ``infra_error`` attempt
whose model requests got no answer, the last refused with a 429/503/529 whose
``Retry-After`` asked for longer than the harness waits before a retry
(`EpisodeRecord.refused`; a day's quota spent, a server down for maintenance). Each such
episode ends at once, unscored, so without the breaker a campaign of thousands of slots
ran through them all, each one more refused request (adversarial round 12, S8-14). A
refusal with a shorter wait is waited out and retried, and does not count. Only an episode
in which the model API answered a request resets this count: the null baseline's episodes,
interleaved with the agent's, make no model request, and an episode that failed for
another reason before its first answer says nothing about the model API.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.runstore import RunStore
from mcpgym_clients.selection import VariantKey

BREAKER_THRESHOLD = 3
"""Consecutive counted attempts that one server did not answer after which the campaign
stops (`ServiceBreaker`)."""


def retry_window(retries: int, backoff: RetryPolicy) -> float:
    """One slot's whole wait between its ``retries`` infra retries at its longest (no
    jitter): ``sum(min(base_delay * 2**n, max_delay) for n < retries)`` seconds, 9 for the
    default 2 retries of `mcpgym_clients.campaign.INFRA_BACKOFF` (3 + 6); the campaign's
    `ServiceBreaker.min_run`. 0 when ``retries`` is 0 or the base wait is 0."""
    return float(
        sum(min(backoff.base_delay * 2**n, backoff.max_delay) for n in range(max(retries, 0)))
    )


SERVICE_NAMES = {
    "env": "the environment server",
    "grading": "the grading service",
    "model": "the model API",
}


@dataclass
class ServiceBreaker:
    """Counts the consecutive attempts a server did not answer; trips at ``threshold``
    once the run of them has lasted ``min_run`` seconds.

    Attributes:
        threshold: counted attempts in a row (`BREAKER_THRESHOLD`).
        model_endpoint: the model API's URL (without secrets), named when it trips on
            the model's refusals; ``None``: unknown (named "the model API").
        min_run: seconds from a run's first counted attempt before one can trip it (>= 0;
            the campaign's: `retry_window`; see the module). 0: the count alone.
        clock: monotonic seconds (`time.monotonic`; tests pass a fake one).
        counts: per server (``"env"``, ``"grading"``, ``"model"``), the current run of
            counted attempts.
        since: per server with a run, the ``clock`` reading of its first counted attempt.
        reason: once tripped, the line saying which server stopped answering (or keeps
            refusing, with the wait it asked for) and how it failed (the last attempt's
            error); ``None`` before.
        tripped: once tripped, ``(server, attempts, seconds)``: the server, its counted
            attempts in a row and how long they lasted (``clock`` seconds); ``None`` before.
    """

    threshold: int = BREAKER_THRESHOLD
    model_endpoint: str | None = None
    min_run: float = 0.0
    clock: Callable[[], float] = time.monotonic
    counts: dict[str, int] = field(default_factory=dict)
    since: dict[str, float] = field(default_factory=dict)
    reason: str | None = None
    tripped: tuple[str, int, float] | None = None

    def note(self, rec: EpisodeRecord, *, after_wait: bool) -> str | None:
        """Count one attempt's record; return `reason` once tripped, else ``None``.

        Args:
            rec: the attempt's record (its ``unanswered`` names the server that did not
                answer, if any; its ``refused``, the model API's refusal, and
                ``model_answered``, whether the model API answered).
            after_wait: the attempt was a retry or its slot's last attempt (see the
                module); other such attempts neither count nor reset.
        """
        if rec.model_answered:  # the model API answers: its count starts again
            self._end("model")
        elif rec.refused is not None and after_wait:
            self._count("model", rec)
        # Episodes that made no model request (the null baseline's, interleaved with the
        # agent's) and other failures neither count nor reset the model API's refusals.
        service = _server_failing(rec)
        if service is None:
            for name in ("env", "grading"):
                self._end(name)
        elif after_wait:
            self._count(service, rec)
        return self.reason

    def _end(self, service: str) -> None:
        """``service``'s run of counted attempts ends (it answered)."""
        self.counts.pop(service, None)
        self.since.pop(service, None)

    def _count(self, service: str, rec: EpisodeRecord) -> None:
        """One more counted attempt for ``service`` (the other server's run ends); trip once
        the run holds ``threshold`` of them and has lasted ``min_run`` seconds."""
        n = self.counts.get(service, 0) + 1
        if service != "model":
            self._end("grading" if service == "env" else "env")
        now = self.clock()
        started = self.since.setdefault(service, now)
        self.counts[service] = n
        if n >= self.threshold and now - started >= self.min_run and self.reason is None:
            self.tripped = (service, n, now - started)
            self.reason = self._why(
                service, f"{n} episode attempts in a row{lasted(now - started)}", rec
            )

    def open_run(self, rec: EpisodeRecord) -> bool:
        """Whether ``rec`` failed on a server (``unanswered``, ``ungraded``, else the model
        API's ``refused``) whose run of counted attempts is open: not yet ended by an answer,
        and not yet decided when ``min_run`` > 0 (the outage may end, or trip the breaker)."""
        service = _server_failing(rec) or ("model" if rec.refused is not None else None)
        return self.min_run > 0 and service is not None and self.counts.get(service, 0) > 0

    def _why(self, service: str, row: str, rec: EpisodeRecord) -> str:
        """The `reason` line once the attempts ``row`` names counted for ``service``."""
        refused = rec.refused
        if service == "grading" and rec.unanswered is None:  # it answered every time: no grade
            return (
                f"stopped: {SERVICE_NAMES[service]} keeps failing grades: {row} "
                "were played to their end and got no grade, each after its retry "
                f"wait (the last: {rec.error}). Episodes played on would only add to them: "
                "check that it grades from the environment server's episode store (--store) "
                "and its log, then run the same command again"
            )
        if service != "model" or refused is None:
            return (
                f"stopped: {SERVICE_NAMES.get(service, service)} is not answering: "
                f"{row} got no answer from it, "
                f"each after its retry wait (the last: {rec.error})"
            )
        where = (
            f"the model API at {self.model_endpoint}" if self.model_endpoint else "the model API"
        )
        return (
            f"stopped: {where} keeps refusing requests: {row} had "
            f"every model request refused, the last with {refused.status} asking to wait "
            f"{refused.retry_after:,.0f} s (Retry-After), longer than the "
            f"{refused.cap:,.0f} s the harness waits before a retry (it said: "
            f"{refused.message})"
        )


def _server_failing(rec: EpisodeRecord) -> str | None:
    """The server of ours an attempt failed on: ``"env"``/``"grading"`` that did not answer
    (``unanswered``), ``"grading"`` that answered without a grade (``ungraded``); else
    ``None``."""
    return rec.unanswered or ("grading" if rec.ungraded else None)


def lasted(seconds: float) -> str:
    """`` over S s`` (or `` over M min S s``): how long a breaker's run of counted attempts
    lasted, from its first counted attempt to the one that tripped it (monotonic seconds,
    >= 0); said in its stop line."""
    if seconds < 60:
        return f" over {seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f" over {minutes} min {rest} s"


def store_not_run(
    store: RunStore, jobs: Sequence[tuple[Agent, str, VariantKey, int]], reason: str
) -> int:
    """Store an ``infra_error`` row for every job whose slot holds no row yet, or only the row
    of an earlier stop; return how many.

    ``jobs``: (agent, run id, variant, epoch) per planned slot, as the campaign queues them
    (slots already holding a row of an episode that ran, scored or not, are left as they
    are; a row an earlier stop stored, ``attempts`` 0, is replaced, so that it names the
    latest stop: a slot a SIGTERM left unplayed, then a resume stopped by Ctrl-C before it,
    says Ctrl-C).

    Called whenever a campaign stops before its end (`mcpgym_clients.campaign`: a breaker, a
    configuration error or refused request, a stop signal, a campaign not confirmed): the
    episodes it cancelled and those it never started end as unscored rows whose error names
    the stop (``not run to its end: the campaign stopped (REASON)``), so that every planned
    (variant, epoch) ends as exactly one row, the run stays unfinished, and a rerun retries
    them (`mcpgym_clients.resume`). The rows of one run are written in one transaction.
    """
    held: dict[str, set[tuple[str, str, int, int]]] = {}
    todo: dict[tuple[str, str], list[tuple[str, str, int, int]]] = {}
    for agent, rid, v, epoch in jobs:
        if rid not in held:
            held[rid] = {  # a row of an earlier stop (attempts 0) is stored again
                (e["task"], e["band"], e["seed"], e["epoch"])
                for e in store.slots(rid)
                if e["attempts"] != 0
            }
        slot = (v.task, v.band, v.seed, epoch)
        if slot in held[rid]:
            continue
        todo.setdefault((rid, agent.name), []).append(slot)
        held[rid].add(slot)
    why = reason.removeprefix("stopped: ").removeprefix("stopping: ")
    now = datetime.now(UTC).isoformat()
    for (rid, name), slots in todo.items():
        template = EpisodeRecord(
            agent=name,
            task="",
            band="",
            seed=0,
            error=f"not run to its end: the campaign stopped ({why})",
            started_at=now,
            ended_at=now,
        )
        store.add_unplayed(rid, template, slots)
    return sum(len(slots) for slots in todo.values())
