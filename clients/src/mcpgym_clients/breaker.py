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
ended otherwise (scored, or failed for another reason) resets the count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.runstore import RunStore
from mcpgym_clients.selection import VariantKey

BREAKER_THRESHOLD = 3
"""Consecutive counted attempts that one server did not answer after which the campaign
stops (`ServiceBreaker`)."""

SERVICE_NAMES = {"env": "the environment server", "grading": "the grading service"}


@dataclass
class ServiceBreaker:
    """Counts the consecutive attempts a server did not answer; trips at ``threshold``.

    Attributes:
        threshold: counted attempts in a row (`BREAKER_THRESHOLD`).
        counts: per server (``"env"``, ``"grading"``), the current run of counted attempts.
        reason: once tripped, the line saying which server stopped answering and how it
            failed (the last attempt's error); ``None`` before.
    """

    threshold: int = BREAKER_THRESHOLD
    counts: dict[str, int] = field(default_factory=dict)
    reason: str | None = None

    def note(self, rec: EpisodeRecord, *, after_wait: bool) -> str | None:
        """Count one attempt's record; return `reason` once tripped, else ``None``.

        Args:
            rec: the attempt's record (its ``unanswered`` names the server that did not
                answer, if any).
            after_wait: the attempt was a retry or its slot's last attempt (see the
                module); other attempts a server did not answer neither count nor reset.
        """
        service = rec.unanswered
        if service is None:
            self.counts.clear()
            return self.reason
        if not after_wait:
            return self.reason
        self.counts = {service: self.counts.get(service, 0) + 1}
        if self.counts[service] >= self.threshold and self.reason is None:
            self.reason = (
                f"stopped: {SERVICE_NAMES.get(service, service)} is not answering: "
                f"{self.counts[service]} episode attempts in a row got no answer from it, "
                f"each after its retry wait (the last: {rec.error})"
            )
        return self.reason


def store_not_run(
    store: RunStore, jobs: Sequence[tuple[Agent, str, VariantKey, int]], reason: str
) -> int:
    """Store an ``infra_error`` row for every job whose slot holds no row yet; return how many.

    ``jobs``: (agent, run id, variant, epoch) per planned slot, as the campaign queues them.

    Called when the breaker stopped the campaign: the episodes it cancelled and those it never
    started end as unscored rows whose error names the stop, so that every planned (variant,
    epoch) ends as exactly one row and a rerun retries them (`mcpgym_clients.resume`).
    """
    held: dict[str, set[tuple[str, str, int, int]]] = {}
    added = 0
    for agent, rid, v, epoch in jobs:
        if rid not in held:
            held[rid] = {(e["task"], e["band"], e["seed"], e["epoch"]) for e in store.episodes(rid)}
        if (v.task, v.band, v.seed, epoch) in held[rid]:
            continue
        now = datetime.now(UTC).isoformat()
        rec = EpisodeRecord(
            agent=agent.name,
            task=v.task,
            band=v.band,
            seed=v.seed,
            epoch=epoch,
            error=f"not run to its end: the campaign stopped ({reason})",
            started_at=now,
            ended_at=now,
        )
        store.add_episode(rid, rec, attempts=0)
        held[rid].add((v.task, v.band, v.seed, epoch))
        added += 1
    return added
