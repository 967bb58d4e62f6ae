"""Live progress of a campaign: what every episode in flight is doing, while it runs.

With a local model at a few tokens per second an episode takes minutes; a line per
finished episode leaves the user looking at nothing. `CampaignProgress` therefore
tracks each episode in flight as a `LiveEpisode` (its turns, tool calls, model-request
retries, attempt and elapsed time, kept current by `EpisodeDriver.run_episode`) and
shows them:

- on a terminal, a rich ``Live`` display: one bar per run (the agent's and its
  baseline's) and a table of the episodes in flight, redrawn twice a second;
- off a terminal (a log file, CI), plain lines: one per finished episode (outcome,
  time, turns, tool calls, retries), one when an episode's model requests are retried
  or it is retried after ``infra_error``, and every `STATUS_INTERVAL` seconds one per
  episode that has been running longer than that.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

if TYPE_CHECKING:
    from mcpgym_clients.adapters.retry import ModelActivity
    from mcpgym_clients.protocol import Progress as AgentProgress
    from mcpgym_clients.records import EpisodeRecord

STATUS_INTERVAL = 30.0
"""Seconds between the status lines of long episodes off a terminal."""

TICK = 1.0
"""Seconds between checks for new retries off a terminal (one line each, promptly)."""


def duration(seconds: float) -> str:
    """``seconds`` as a short human duration: ``4.2s``, ``3m05s``, ``2h07m``."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass
class LiveEpisode:
    """One episode in flight, updated in place while it runs.

    `EpisodeDriver.run_episode` fills ``record`` (tool calls: ``record.steps``),
    ``agent_progress`` (the agent's usage: ``requests`` are its turns) and ``activity``
    (model-request retries) as the episode reaches them.

    Attributes:
        run_label: the run's label (agent name, or ``null (baseline)``). variant:
            ``task@band#seed``. epoch: the attempt number of the variant (0-based).
        attempt: 1, then 2... when the episode is retried after ``infra_error``.
        started: monotonic seconds when it started. phase: ``starting``, ``agent``,
            ``grading``.
    """

    run_label: str
    variant: str
    epoch: int = 0
    attempt: int = 1
    started: float = field(default_factory=time.monotonic)
    phase: str = "starting"
    record: EpisodeRecord | None = None
    agent_progress: AgentProgress | None = None
    activity: ModelActivity | None = None
    reported_retries: int = 0

    @property
    def turns(self) -> int:
        """Model requests answered so far (0 for scripted agents)."""
        usage = self.agent_progress.usage if self.agent_progress is not None else {}
        return int(usage.get("requests", 0))

    @property
    def tool_calls(self) -> int:
        """Tool calls the server answered so far."""
        return self.record.steps if self.record is not None else 0

    @property
    def retries(self) -> int:
        """Model requests retried so far in this episode."""
        return self.activity.retries if self.activity is not None else 0

    def elapsed(self, now: float) -> float:
        """Seconds since the episode started."""
        return max(0.0, now - self.started)

    def describe(self, now: float) -> str:
        """One line: ``run variant: [phase,] N turns, M tool calls, R retries, elapsed``
        (the phase unless the agent is running; turns when the agent reports them)."""
        parts = [self.phase] if self.phase != "agent" else []
        if self.turns:
            parts.append(_plural(self.turns, "turn"))
        parts.append(_plural(self.tool_calls, "tool call"))
        if self.retries:
            parts.append(_plural(self.retries, "retry").replace("retrys", "retries"))
        if self.attempt > 1:
            parts.append(f"attempt {self.attempt}")
        parts.append(duration(self.elapsed(now)))
        epoch = f" epoch {self.epoch}" if self.epoch else ""
        return f"{self.run_label} {self.variant}{epoch}: " + ", ".join(parts)


class CampaignProgress:
    """Shows a campaign's progress on ``console`` (see the module docstring).

    Args:
        console: where to draw. runs: per run id, ``(label, planned, already stored)``.
        enabled: ``False`` shows nothing. live: a rich Live display (default: when
            ``console`` is a terminal); ``False`` prints plain lines.
        interval: seconds between status lines of long episodes (plain lines).
        clock: monotonic seconds (tests pass their own).
    """

    def __init__(
        self,
        console: Console | None,
        runs: dict[str, tuple[str, int, int]],
        *,
        enabled: bool = True,
        live: bool | None = None,
        interval: float = STATUS_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console = console if console is not None else Console(stderr=True)
        self.runs = runs
        self.enabled = enabled
        self.live = self.console.is_terminal if live is None else live
        self.interval = interval
        self.clock = clock
        self.in_flight: list[LiveEpisode] = []
        self.counted = {rid: done for rid, (_, _, done) in runs.items()}
        self._last_status = clock()
        self._live: Live | None = None
        self._bars = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.console,
        )
        self._bar_ids = {
            rid: self._bars.add_task(label, total=total, completed=done)
            for rid, (label, total, done) in runs.items()
        }

    def start(self, run_id: str, variant: str, epoch: int, attempt: int = 1) -> LiveEpisode:
        """Register an episode that starts now; pass the result to the driver."""
        ep = LiveEpisode(
            self.runs[run_id][0], variant, epoch, attempt=attempt, started=self.clock()
        )
        self.in_flight.append(ep)
        if attempt > 1 and self.enabled and not self.live:
            self._say(f"{ep.run_label} {variant}: retrying after infra_error (attempt {attempt})")
        return ep

    def end(self, run_id: str, ep: LiveEpisode, rec: EpisodeRecord | None, *, stored: bool) -> None:
        """An episode ended (``stored``: its row is in the run store, not retried)."""
        if ep in self.in_flight:
            self.in_flight.remove(ep)
        if not stored or rec is None:
            return
        self.counted[run_id] += 1
        self._bars.advance(self._bar_ids[run_id])
        if self.enabled and not self.live:
            label, total, _ = self.runs[run_id]
            outcome = rec.termination if rec.score is None else f"score {rec.score:.3f}"
            epoch = f" epoch {ep.epoch}" if ep.epoch else ""
            detail = [duration(rec.duration_s)]
            if ep.turns:
                detail.append(_plural(ep.turns, "turn"))
            detail.append(_plural(rec.steps, "tool call"))
            if ep.retries:
                detail.append(_plural(ep.retries, "retry").replace("retrys", "retries"))
            self._say(
                f"{label} {self.counted[run_id]}/{total} {ep.variant}{epoch}: {outcome} "
                f"({', '.join(detail)})"
            )

    def retry_wait(self, run_id: str, variant: str, seconds: float) -> None:
        """An episode ended ``infra_error`` and is retried after ``seconds`` (off a terminal:
        a line saying so, so that a campaign waiting out an outage says why it waits)."""
        if self.enabled and not self.live:
            label = self.runs[run_id][0]
            self._say(f"{label} {variant}: infra_error; retrying in {seconds:.1f} s")

    def status_lines(self, *, now: float | None = None, all_: bool = False) -> list[str]:
        """Lines for the episodes in flight: those running longer than the interval,
        or all of them (``all_``)."""
        now = self.clock() if now is None else now
        return [
            ep.describe(now) for ep in self.in_flight if all_ or ep.elapsed(now) >= self.interval
        ]

    def tick(self) -> None:
        """Off a terminal: print new retries at once, and every ``interval`` seconds the
        status of the long episodes. Called once a `TICK` by `running`."""
        if not self.enabled or self.live:
            return
        now = self.clock()
        for ep in list(self.in_flight):
            if ep.retries > ep.reported_retries:
                ep.reported_retries = ep.retries
                self._say(f"{ep.describe(now)} (model request retried)")
        if now - self._last_status >= self.interval:
            self._last_status = now
            for line in self.status_lines(now=now):
                self._say(f"running: {line}")

    def renderable(self) -> Any:
        """The terminal display: the run bars and a table of the episodes in flight."""
        if not self.in_flight:
            return self._bars
        now = self.clock()
        table = Table(box=None, pad_edge=False, show_edge=False)
        for col in ("episode", "phase", "turns", "tool calls", "retries", "elapsed"):
            table.add_column(col, justify="left" if col in ("episode", "phase") else "right")
        shown = sorted(self.in_flight, key=lambda e: e.started)[:12]
        for ep in shown:
            retries = ep.retries + (ep.attempt - 1)
            table.add_row(
                f"{ep.run_label} {ep.variant}" + (f" epoch {ep.epoch}" if ep.epoch else ""),
                ep.phase,
                str(ep.turns),
                str(ep.tool_calls),
                str(retries) if retries else "",
                duration(ep.elapsed(now)),
            )
        if len(self.in_flight) > len(shown):
            table.add_row(f"... and {len(self.in_flight) - len(shown)} more", "", "", "", "", "")
        return Group(self._bars, table)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Stop redrawing the live display inside the block (a question is asked)."""
        live = self._live
        if live is None:
            yield
            return
        live.stop()
        try:
            yield
        finally:
            live.start()

    def _say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, highlight=False, markup=False)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[CampaignProgress]:
        """Show progress while the block runs (a Live display, or the plain-line ticker)."""
        if not self.enabled:
            yield self
            return
        if self.live:
            with Live(
                console=self.console,
                get_renderable=self.renderable,
                refresh_per_second=2,
                transient=False,
            ) as live:
                self._live = live
                try:
                    yield self
                finally:
                    self._live = None
            return
        async with anyio.create_task_group() as tg:

            async def ticker() -> None:
                while True:
                    await anyio.sleep(TICK)
                    self.tick()

            tg.start_soon(ticker)
            try:
                yield self
            finally:
                tg.cancel_scope.cancel()
