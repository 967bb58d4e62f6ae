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

from dataclasses import dataclass, field

from mcpgym_clients.records import EpisodeRecord

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
