"""A campaign says what it will do before doing it, and asks before a large one.

Before the first episode `Planner.announce` prints the plan: variants, epochs, the
agent's episodes, the baseline's, what a resumed run already holds. A campaign of
more than `SAMPLE_MIN` episodes then makes a *measured start*: its first
``sample_size(concurrency)`` episodes run (at full concurrency, agent and baseline
interleaved as in the rest of the run) while the others wait; from their wall time
and from the disk they took (their bundles, in blocks, plus the growth of the run
store) `Estimate` extrapolates the time and disk of the whole campaign, and prints it.

Above the confirmation threshold (`CONFIRM_SECONDS` of wall time or `CONFIRM_BYTES`
of disk: a demo or an evaluation of a few seeds never asks; ``--seeds 0-4000`` does),
the campaign goes on only when confirmed: ``--yes``, or an answer ``y`` on a terminal.
Off a terminal it stops with `CampaignNotConfirmed`, which names the figures and how
to proceed; the measured episodes stay stored and the run is resumed by the same
command with ``--yes``.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.from_thread
import anyio.lowlevel
from rich.console import Console

from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.progress import duration

CONFIRM_SECONDS = 3600.0
"""Estimated wall time above which a campaign asks for confirmation (1 hour)."""

CONFIRM_BYTES = 2 * 1024**3
"""Estimated disk (bundles and run store) above which a campaign asks (2 GiB)."""

THRESHOLD = "1 hour or 2 GB of disk"
"""`CONFIRM_SECONDS` and `CONFIRM_BYTES` in words."""

SAMPLE_MIN = 8
"""Episodes of the measured start (at least; twice the concurrency when larger). A
campaign of no more episodes than its sample runs without one."""


def sample_size(concurrency: int) -> int:
    """Episodes measured before the estimate: ``max(SAMPLE_MIN, 2 * concurrency)``."""
    return max(SAMPLE_MIN, 2 * concurrency)


def size(n: float) -> str:
    """Bytes as ``12 KB``, ``3.4 MB``, ``54 GB`` (powers of 1024)."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit in ("B", "KB") or n >= 100 else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"  # pragma: no cover


class CampaignNotConfirmed(ConfigurationError):
    """A campaign above the confirmation threshold was not confirmed (off a terminal
    without ``--yes``, or answered no). ``mcpgym eval`` exits with status 1."""


@dataclass(frozen=True)
class CampaignPlan:
    """What a campaign will run.

    Attributes:
        env: environment. agent: the agent's name (and ``model``, if any).
        variants: task variants selected. epochs: attempts per variant.
        baseline: whether the null baseline runs beside (interleaved).
        concurrency: episodes in flight. agent_todo, baseline_todo: episodes to run.
        agent_done, baseline_done: episodes a resumed run already holds scored.
        resumed: the run id resumed, if any.
    """

    env: str
    agent: str
    model: str | None
    variants: int
    epochs: int
    baseline: bool
    concurrency: int
    agent_todo: int
    baseline_todo: int
    agent_done: int = 0
    baseline_done: int = 0
    resumed: str | None = None

    @property
    def todo(self) -> int:
        """Episodes to run, agent and baseline."""
        return self.agent_todo + self.baseline_todo

    def describe(self) -> str:
        """The plan in one line."""
        who = self.agent + (f" ({self.model})" if self.model else "")
        epochs = "epoch" if self.epochs == 1 else "epochs"
        variants = "variant" if self.variants == 1 else "variants"
        n = self.agent_todo + self.agent_done
        line = (
            f"plan: {self.env}, {self.variants:,} {variants} x {self.epochs} {epochs} = "
            f"{n:,} episode{'' if n == 1 else 's'} of {who}"
        )
        if self.baseline:
            line += f" + {self.baseline_todo + self.baseline_done:,} null baseline (interleaved)"
        line += f"; {self.concurrency} at a time"
        if self.resumed is not None:
            done = self.agent_done + self.baseline_done
            line += f"; {done:,} already scored in run {self.resumed}, {self.todo:,} to run"
        return line


@dataclass(frozen=True)
class Estimate:
    """Time and disk of a campaign, extrapolated from its measured start.

    Attributes:
        measured: episodes measured. seconds: their wall time (concurrent).
        bytes_measured: disk they took (bundles in blocks, plus run store growth).
        total: episodes to run in all (the measured ones included).
    """

    measured: int
    seconds: float
    bytes_measured: int
    total: int

    @property
    def total_seconds(self) -> float:
        """Estimated wall time of the whole campaign."""
        return self.seconds * self.total / max(self.measured, 1)

    @property
    def total_bytes(self) -> float:
        """Estimated disk of the whole campaign."""
        return self.bytes_measured * self.total / max(self.measured, 1)

    def needs_confirmation(self) -> bool:
        """Above `CONFIRM_SECONDS` or `CONFIRM_BYTES`."""
        return self.total_seconds > CONFIRM_SECONDS or self.total_bytes > CONFIRM_BYTES

    def describe(self) -> str:
        """``estimate: about 7h50m and 1.3 GB for 168,042 episodes (...)``."""
        per = self.bytes_measured / max(self.measured, 1)
        return (
            f"estimate: about {duration(self.total_seconds)} and {size(self.total_bytes)} "
            f"for {self.total:,} episodes (the first {self.measured} took "
            f"{duration(self.seconds)}, {size(per)} each)"
        )


def _blocks(path: Path) -> int:
    """Disk used by ``path`` (a file, or a directory's files), in bytes of blocks."""
    try:
        if path.is_file():
            st = path.stat()
            return st.st_blocks * 512 if hasattr(st, "st_blocks") else st.st_size
        total = 0
        for root, _, files in os.walk(path):
            for name in files:
                st = os.stat(os.path.join(root, name))
                total += st.st_blocks * 512 if hasattr(st, "st_blocks") else st.st_size
        return total
    except OSError:
        return 0


def store_bytes(store: Path | None) -> int:
    """Size of a SQLite run store with its WAL (0 when absent)."""
    if store is None:
        return 0
    return sum(
        (Path(f"{store}{suffix}").stat().st_size if Path(f"{store}{suffix}").exists() else 0)
        for suffix in ("", "-wal")
    )


def bundle_bytes(bundles: Path | None, episode_ids: Iterable[str]) -> int:
    """Disk used by the bundles (``bundles/<episode_id>/``) of ``episode_ids``."""
    if bundles is None:
        return 0
    return sum(_blocks(bundles / eid) for eid in episode_ids)


Ask = Callable[[str], Awaitable[bool]]
"""``await ask(question) -> yes?`` (on a terminal)."""


async def ask_on_terminal(console: Console, question: str) -> bool:
    """Ask ``question [y/n]`` on ``console`` and read the answer from stdin.

    The answer is read in a daemon thread: Ctrl-C at the prompt stops the campaign at
    once and the process exits without waiting for a line that never comes. End of
    input counts as no.
    """
    from rich.prompt import Confirm

    answer: list[bool] = []
    answered = anyio.Event()
    token = anyio.lowlevel.current_token()

    def read() -> None:
        try:
            answer.append(Confirm.ask(question, console=console, default=False))
        except (EOFError, KeyboardInterrupt, OSError):
            answer.append(False)
        finally:
            with contextlib.suppress(Exception):  # the loop may be gone (Ctrl-C)
                anyio.from_thread.run_sync(answered.set, token=token)

    threading.Thread(target=read, name="mcpgym confirmation", daemon=True).start()
    await answered.wait()
    return answer[0]


class Planner:
    """Announces a campaign's plan, measures its start and confirms a large one.

    Args:
        console: where the plan and the estimate are printed.
        yes: confirmed in advance (``--yes``).
        ask: how to ask on a terminal; ``None``: not on a terminal (refuse above the
            threshold instead of asking).
        bundles: the episode store directory, when it is local (its bundles are
            measured); ``None`` for remote servers.
        store: the run store's file (its growth is measured).
        clock: monotonic seconds.
    """

    def __init__(
        self,
        console: Console,
        *,
        yes: bool = False,
        ask: Ask | None = None,
        bundles: Path | None = None,
        store: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console, self.yes, self.ask = console, yes, ask
        self.bundles, self.store, self.clock = bundles, store, clock
        self.estimate: Estimate | None = None
        self.pause: Callable[[], contextlib.AbstractContextManager[None]] = contextlib.nullcontext
        """Set by the campaign: stops its live display while a question is asked."""

    def _say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, highlight=False, markup=False)

    def announce(self, plan: CampaignPlan) -> StartGate | None:
        """Print the plan; return the gate of its measured start (``None`` when the
        campaign is no larger than its sample)."""
        self._say(plan.describe())
        sample = sample_size(plan.concurrency)
        if plan.todo <= sample:
            return None
        self._say(f"measuring the first {sample} episodes to estimate time and disk ...")
        return StartGate(self, plan, sample)

    async def decide(self, plan: CampaignPlan, estimate: Estimate, run_id: str) -> str | None:
        """Print the estimate; ``None`` to go on, else why the campaign stops here."""
        self.estimate = estimate
        self._say(estimate.describe())
        if not estimate.needs_confirmation() or self.yes:
            return None
        above = f"above the confirmation threshold ({THRESHOLD})"
        if self.ask is not None:
            with self.pause():
                yes = await self.ask(f"this campaign is {above}; run it all?")
            if yes:
                return None
            how = "answered no"
        else:
            how = "not on a terminal to confirm"
        # a resumed run keeps what it held scored as well as this start's measured episodes
        kept = plan.agent_done + plan.baseline_done + estimate.measured
        return (
            f"stopped after the measured start ({how}): about "
            f"{duration(estimate.total_seconds)} and {size(estimate.total_bytes)} for "
            f"{estimate.total:,} episodes is {above}; run the same command with --yes to "
            f"go on (run {run_id} keeps the {kept:,} episodes it played, agent and "
            "baseline, and is resumed), "
            "or select fewer --seeds, --tasks or --bands"
        )


class StartGate:
    """Holds a campaign's episodes past its sample until the estimate is decided.

    The campaign calls `admit` before taking each episode (``False``: stop taking
    them) and `completed` after storing one.
    """

    def __init__(self, planner: Planner, plan: CampaignPlan, sample: int) -> None:
        self.planner, self.plan, self.sample = planner, plan, sample
        self.admitted = 0
        self.done: list[str] = []
        self.decided = anyio.Event()
        self.refusal: str | None = None
        self.run_id = plan.resumed or ""
        self._t0 = planner.clock()
        self._bytes0 = store_bytes(planner.store)

    async def admit(self) -> bool:
        """Whether the next episode may start (waits past the sample for the decision)."""
        if self.admitted < self.sample:
            self.admitted += 1
            return True
        await self.decided.wait()
        return self.refusal is None

    async def completed(self, episode_id: str | None) -> None:
        """An admitted episode was stored; the last of the sample decides."""
        self.done.append(episode_id or "")
        if len(self.done) != self.sample or self.decided.is_set():
            return
        seconds = self.planner.clock() - self._t0
        used = await anyio.to_thread.run_sync(
            lambda: (
                bundle_bytes(self.planner.bundles, [e for e in self.done if e])
                + max(0, store_bytes(self.planner.store) - self._bytes0)
            )
        )
        estimate = Estimate(self.sample, seconds, used, self.plan.todo)
        try:
            self.refusal = await self.planner.decide(self.plan, estimate, self.run_id)
        finally:
            self.decided.set()


def campaign_planner(
    console: Console, *, yes: bool, bundles: str | Path | None, store: Path | None
) -> Planner:
    """The `Planner` of ``mcpgym eval``: asks on ``console`` when both it and stdin are a
    terminal, refuses above the threshold otherwise (unless ``yes``)."""
    import sys

    interactive = console.is_terminal and sys.stdin is not None and sys.stdin.isatty()

    async def ask(question: str) -> bool:
        return await ask_on_terminal(console, question)

    return Planner(
        console,
        yes=yes,
        ask=ask if interactive else None,
        bundles=Path(bundles) if bundles is not None else None,
        store=store,
    )
