"""The campaign runner: an agent over task variants and epochs, concurrently, into the run store.

A campaign is one run: every selected variant (task family x band x seed) is
attempted ``epochs`` times by the agent, at most ``concurrency`` episodes at a
time. Unless told otherwise, the `null` agent is run once on the same variants
as a baseline run (linked by ``baseline_of``), so every score can be read
against the floor of doing nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from mcpgym_clients.agents.null import NullAgent
from mcpgym_clients.driver import EpisodeDriver, EpisodeRecord, ServerInfo
from mcpgym_clients.errors import ClientError, ConfigurationError
from mcpgym_clients.protocol import Agent
from mcpgym_clients.runstore import RunStore
from mcpgym_clients.summary import SummaryRow, summarize
from mcpgym_server import BANDS


@dataclass(frozen=True, order=True)
class VariantKey:
    """One task variant to run: family, band and seed."""

    task: str
    band: str
    seed: int


def select_variants(
    info: ServerInfo,
    tasks: Sequence[str] | None,
    bands: Sequence[str] | None,
    seeds: Sequence[int],
) -> list[VariantKey]:
    """The variants of a selection, families in server order, then bands, then seeds.

    Args:
        info: the served environment. tasks: family names (``None``: all).
        bands: band names (``None``: every band each family offers); a family is run
            only in the named bands it offers. seeds: variant seeds.

    Raises:
        ConfigurationError: an unknown family, a band no selected family offers, no
            seeds, or an empty selection.
    """
    if not seeds:
        raise ConfigurationError("no seeds selected")
    families = [info.task(t) for t in tasks] if tasks is not None else list(info.tasks)
    if bands is not None:
        offered = _ordered_bands(b for f in families for b in f.bands)
        missing = [b for b in bands if b not in offered]
        if missing:
            scope = info.env if tasks is None else f"the selected tasks ({', '.join(tasks)})"
            raise ConfigurationError(
                f"band {missing[0]!r} is not offered by {scope}; "
                f"offered bands: {', '.join(offered)}"
            )
    keys = [
        VariantKey(f.name, band, seed)
        for f in families
        for band in f.bands
        if bands is None or band in bands
        for seed in seeds
    ]
    if not keys:
        raise ConfigurationError("the selection contains no task variants")
    return keys


def _ordered_bands(bands: Iterable[str]) -> list[str]:
    """Distinct band names, easiest first (names outside `BANDS` last, in given order)."""
    distinct = list(dict.fromkeys(bands))
    return [b for b in BANDS if b in distinct] + [b for b in distinct if b not in BANDS]


@dataclass
class CampaignStatus:
    """How far a campaign has got, updated while it runs (read it after an interruption).

    Attributes:
        run_id: the agent's run, once created. baseline_run_id: the baseline run, if any.
        total: episodes planned (agent and baseline). stored: episodes written to the
            run store so far (an episode is stored whole or not at all).
    """

    run_id: str | None = None
    baseline_run_id: str | None = None
    total: int = 0
    stored: int = 0


@dataclass
class CampaignResult:
    """What a campaign produced.

    Attributes:
        run_id: the run's id in the store. baseline_run_id: the baseline run's id, if any.
        records, baseline: episode records (sorted by task, band, seed, epoch).
        summary: `summarize` rows.
    """

    run_id: str
    baseline_run_id: str | None
    records: list[EpisodeRecord]
    baseline: list[EpisodeRecord] | None
    summary: list[SummaryRow] = field(default_factory=list)


def _first_client_error(exc: BaseException) -> BaseException | None:
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _first_client_error(inner)
            if found is not None:
                return found
        return None
    return exc if isinstance(exc, ClientError) else None


async def run_campaign(
    driver: EpisodeDriver,
    agent: Agent,
    variants: Sequence[VariantKey],
    store: RunStore,
    *,
    epochs: int = 1,
    concurrency: int = 4,
    baseline: bool = True,
    argv: Sequence[str] | None = None,
    console: Console | None = None,
    show_progress: bool = True,
    status: CampaignStatus | None = None,
) -> CampaignResult:
    """Run ``agent`` on every variant ``epochs`` times and store everything.

    Args:
        driver: an open `EpisodeDriver`. agent: the agent. variants: from `select_variants`.
        store: the run store. epochs: attempts per variant (>= 1).
        concurrency: episodes in flight at once (>= 1), shared with the baseline.
        baseline: also run the `null` agent once per variant (skipped when ``agent`` is
            itself `null`). argv: the command line, recorded with the run.
        console: where progress is drawn. show_progress: draw a progress bar (on a
            terminal) or print one line per finished episode (elsewhere, e.g. a log file).
        status: a `CampaignStatus` to keep up to date (run ids, episodes stored), so
            that a caller who cancels the campaign can say what was kept.

    Raises:
        ConfigurationError: epochs or concurrency below 1, or a configuration problem
            found while running (for example a reference lock mismatch).
        ServerRequestError: a server refused a request (4xx).
    """
    if epochs < 1:
        raise ConfigurationError(f"epochs must be at least 1, got {epochs}")
    if concurrency < 1:
        raise ConfigurationError(f"concurrency must be at least 1, got {concurrency}")
    info = await driver.server_info()
    selection: dict[str, Any] = {
        "variants": [f"{v.task}@{v.band}#{v.seed}" for v in variants],
        "epochs": epochs,
        "concurrency": concurrency,
    }

    def new_run(a: Agent, baseline_of: str | None) -> str:
        return store.create_run(
            env=info.env,
            env_version=info.version,
            lock=info.lock,
            agent=a.name,
            model=a.model,
            settings=a.settings(),
            selection={**selection, "epochs": 1} if baseline_of else selection,
            argv=argv,
            baseline_of=baseline_of,
        )

    status = status if status is not None else CampaignStatus()
    run_id = await anyio.to_thread.run_sync(new_run, agent, None)
    status.run_id = run_id
    null: Agent | None = NullAgent() if baseline and agent.name != "null" else None
    baseline_id = await anyio.to_thread.run_sync(new_run, null, run_id) if null else None
    status.baseline_run_id = baseline_id

    jobs: list[tuple[Agent, str, VariantKey, int]] = [
        (agent, run_id, v, e) for v in variants for e in range(epochs)
    ]
    if null is not None and baseline_id is not None:
        jobs += [(null, baseline_id, v, 0) for v in variants]
    status.total = len(jobs)
    records: list[EpisodeRecord] = []
    base_records: list[EpisodeRecord] = []
    limiter = anyio.CapacityLimiter(concurrency)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not show_progress,
        transient=False,
    )
    # Off a terminal a live bar is only drawn once, at the end: print lines instead.
    lines = show_progress and not progress.console.is_terminal
    if lines:
        progress.disable = True
    labels = {run_id: (agent.name, len(variants) * epochs)}
    if baseline_id is not None:
        labels[baseline_id] = ("null (baseline)", len(variants))
    bars = {rid: progress.add_task(label, total=total) for rid, (label, total) in labels.items()}
    done = dict.fromkeys(labels, 0)

    async def one(a: Agent, rid: str, v: VariantKey, epoch: int) -> None:
        async with limiter:
            rec = await driver.run_episode(a, v.task, v.band, v.seed, epoch=epoch)
        with anyio.CancelScope(shield=True):  # a cancelled campaign keeps what finished
            await anyio.to_thread.run_sync(store.add_episode, rid, rec)
            status.stored += 1
        (records if rid == run_id else base_records).append(rec)
        progress.advance(bars[rid])
        if lines:
            done[rid] += 1
            label, total = labels[rid]
            outcome = rec.termination if rec.score is None else f"score {rec.score:.3f}"
            progress.console.print(
                f"{label} {done[rid]}/{total} {v.task}@{v.band}#{v.seed}"
                + (f" epoch {epoch}" if epochs > 1 and rid == run_id else "")
                + f": {outcome}",
                soft_wrap=True,
                highlight=False,
                markup=False,
            )

    try:
        with progress:
            async with anyio.create_task_group() as tg:
                for job in jobs:
                    tg.start_soon(one, *job)
    except BaseExceptionGroup as group:
        found = _first_client_error(group)
        if found is not None:
            raise found from None
        raise
    for rid in (run_id, baseline_id):
        if rid is not None:
            await anyio.to_thread.run_sync(store.finish_run, rid)

    position = {v: i for i, v in enumerate(variants)}

    def order(r: EpisodeRecord) -> tuple[int, int]:
        return (position[VariantKey(r.task, r.band, r.seed)], r.epoch)

    records.sort(key=order)
    base_records.sort(key=order)
    base = base_records if baseline_id is not None else None
    return CampaignResult(run_id, baseline_id, records, base, summarize(records, base))
