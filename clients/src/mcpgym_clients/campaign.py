"""The campaign runner: an agent over task variants and epochs, concurrently, into the run store.

A campaign is one run: every selected variant (task family x band x seed) is
attempted ``epochs`` times by the agent, at most ``concurrency`` episodes at a
time. Unless told otherwise, the `null` agent is run once on the same variants
as a baseline run (linked by ``baseline_of``), so every score can be read
against the floor of doing nothing.

Every planned episode (variant x epoch) ends as exactly one stored row: scored, or
unscored with its reason (``infra_error``, ``model_error``, a grade error). Each
episode runs in a task of its own (`EpisodeDriver.run_episode`), so nothing failing
inside one (its MCP client, its HTTP calls, its agent, its grade) cancels or ends
another or the campaign; only a wrong setting or a refused request
(`ConfigurationError`, `ServerRequestError`) stops the campaign, on purpose.

Every episode is stored (and committed) as it finishes. An episode that ends in
``infra_error`` is retried with a fresh episode (``infra_retries`` times), after a short
wait (`infra_backoff`: 1.5-3 s, then 3-6 s, doubling, at most 15 s), so that a
restarting server is back for the retry; if it still fails it is stored as
``infra_error``, excluded from scores. A run is
*finished* (``finished_at``) only when every planned slot holds a row and none is
``infra_error``. Running the same campaign again (same environment, lock, agent,
model settings, selection and conditions: the server's seed salt fingerprint and caps,
the hard cap per episode; `mcpgym_clients.resume`) resumes the newest such run that is
unfinished or holds unscored episodes (its own or its baseline's): the scored episodes
are skipped and the missing and unscored ones run again, so an interrupted or crashed
campaign loses at most the episodes that were in flight. A campaign whose inputs differ
from such a run in anything starts a new run and says which inputs differed.
`CampaignResult.incomplete` says how many planned episodes are still unscored, and why.

A server that stops answering stops the campaign (`mcpgym_clients.breaker`): after
`BREAKER_THRESHOLD` consecutive episode attempts, each after its retry wait, over at least
one slot's whole retry wait (`retry_window`: 9 s by default, so that a restart the slots'
retries ride out never stops it, whatever the concurrency), that the
environment server or the grading service did not answer at all, or whose model requests
the model API all refused asking for a wait longer than the harness makes (a 429/503 with
a long ``Retry-After``), the episodes in flight
are cancelled, each slot with no row yet (in flight or not started) is stored as
``infra_error`` naming the stop (so every planned slot still ends as one row, and a rerun
retries them), and the result says which server, and the wait a refusing model API asked for
(`CampaignResult.stopped`); ``mcpgym eval``
exits with `EXIT_INCOMPLETE`.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from rich.console import Console

from mcpgym_clients import stop_rows
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.null import NullAgent
from mcpgym_clients.backends import EpisodeRunner
from mcpgym_clients.breaker import BREAKER_THRESHOLD, ServiceBreaker, retry_window, store_not_run
from mcpgym_clients.collector import collector_spared
from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.plan import CampaignNotConfirmed, CampaignPlan, Planner, StartGate
from mcpgym_clients.progress import CampaignProgress
from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import EpisodeRecord, record_from_row
from mcpgym_clients.resume import UNREPORTED, campaign_conditions, known_components, run_to_resume
from mcpgym_clients.run_claims import choosing_run, claim_run, release_run
from mcpgym_clients.run_slots import resuming_line, scored_slots, settled, unscored_counts
from mcpgym_clients.runstore import RunStore
from mcpgym_clients.selection import VariantKey, check_planned
from mcpgym_clients.stop_rows import ended_record, first_client_error, incomplete_line, stop_reason
from mcpgym_clients.stopping import Stopper
from mcpgym_clients.summary import SummaryRow, summarize_records, unscored_reasons
from mcpgym_server import Environment


def infra_backoff(base: float = 3.0) -> RetryPolicy:
    """The wait before retrying an ``infra_error`` episode: ``base * 2**n`` seconds before
    the ``n``-th retry (0-based), reduced by up to half at random (jitter, so that the
    episodes one restart hit do not all come back at once), at most ``5 * base``; for the
    default 3 s: 1.5-3 s, 3-6 s, 6-12 s, then 7.5-15 s. ``base`` 0 retries at once
    (``--infra-retry-wait``)."""
    return RetryPolicy(base_delay=base, max_delay=5 * base, jitter=0.5)


INFRA_BACKOFF = infra_backoff()
"""`infra_backoff` with its default base of 3 s."""

EXIT_INCOMPLETE = 3
"""``mcpgym eval``'s exit status when the campaign ran to its end but planned episodes
remain unscored (`CampaignResult.incomplete`); running the command again retries them."""


@dataclass
class CampaignStatus:
    """How far a campaign has got, updated while it runs (read it after an interruption).

    Attributes:
        run_id: the agent's run, once created. baseline_run_id: the baseline run, if any.
        total: episodes planned (agent and baseline). stored: episodes written to the
            run store so far (an episode is stored whole or not at all), including
            those a resumed run had already stored. resumed: the run was resumed.
        not_run: planned episodes stored unscored because the campaign stopped before
            playing them to their end (`store_not_run`). incomplete: once the campaign
            stopped before its end (any stop: a breaker, a configuration error or refused
            request, a stop signal, not confirmed), the line saying how many planned
            episodes of how many are unscored and why (`incomplete_line`), for the caller
            to print where the campaign raised. not_started: after a stop (any) with more
            than `SIGNAL_ROWS_MAX` slots not played, the slots never started, left without
            a row (the same command resumes the run and runs them).
    """

    run_id: str | None = None
    baseline_run_id: str | None = None
    total: int = 0
    stored: int = 0
    resumed: bool = False
    not_run: int = 0
    not_started: int = 0
    incomplete: str | None = None


@dataclass
class CampaignResult:
    """What a campaign produced.

    Attributes:
        run_id: the run's id in the store. baseline_run_id: the baseline run's id, if any.
        records, baseline: episode records (sorted by task, band, seed, epoch).
        summary: `summarize_records` rows. planned, baseline_planned: episodes the campaign
            planned for the run (variants x epochs) and for its baseline (variants).
        stopped: why the campaign stopped before its end (a server not answering:
            `mcpgym_clients.breaker`), or ``None``. not_started: the slots that stop left
            without a row (`CampaignStatus.not_started`).
    """

    run_id: str
    baseline_run_id: str | None
    records: list[EpisodeRecord]
    baseline: list[EpisodeRecord] | None
    summary: list[SummaryRow] = field(default_factory=list)
    planned: int = 0
    baseline_planned: int = 0
    stopped: str | None = None
    not_started: int = 0

    def unscored(self) -> dict[str, int]:
        """Why planned episodes (the agent's and the baseline's) are unscored: counts by
        `unscored_reasons`, plus ``missing`` for planned episodes with no stored row."""
        everything = self.records + (self.baseline or [])
        reasons = unscored_reasons(everything)
        missing = self.planned + self.baseline_planned - len(everything)
        if missing > 0:
            reasons["missing"] = missing
        return reasons

    def incomplete(self) -> str | None:
        """``None`` when every planned episode is scored; else one line saying how many of
        how many are not, and why, after `stopped` if the campaign stopped (``mcpgym eval``
        prints it and exits with status 3)."""
        reasons = self.unscored()
        if not reasons and self.stopped is None:
            return None
        line = incomplete_line(
            reasons,
            self.planned + self.baseline_planned,
            self.run_id,
            not_started=min(self.not_started, reasons.get("missing", 0)),
        )
        return line if self.stopped is None else f"{self.stopped}\n{line}"


async def run_campaign(
    driver: EpisodeRunner,
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
    resume: bool = True,
    infra_retries: int = 2,
    infra_backoff: RetryPolicy = INFRA_BACKOFF,
    environment: Environment | None = None,
    planner: Planner | None = None,
    live_progress: bool | None = None,
    stopper: Stopper | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> CampaignResult:
    """Run ``agent`` on every variant ``epochs`` times and store everything.

    Args:
        driver: an open `EpisodeRunner`: an `EpisodeDriver` (local backend) or a
            `RayEpisodeRunner` (`mcpgym_clients.backends.ray`). agent: the agent.
        variants: from `select_variants`.
        store: the run store. epochs: attempts per variant (>= 1).
        concurrency: episodes in flight at once (>= 1), shared with the baseline.
        baseline: also run the `null` agent once per variant (skipped when ``agent`` is
            itself `null`). argv: the command line, recorded with the run.
        console: where progress is drawn. show_progress: show live progress: bars and
            the episodes in flight (on a terminal), or plain lines per finished episode,
            retry and long episode (elsewhere, e.g. a log file).
        status: a `CampaignStatus` to keep up to date (run ids, episodes stored), so
            that a caller who cancels the campaign can say what was kept.
        resume: continue the newest run of the same environment, lock, agent, model,
            settings, variant set, epochs and conditions (`campaign_conditions`: the
            server's seed salt fingerprint and caps, ``driver.episode_timeout``) that is
            unfinished or holds unscored episodes (`RunStore.find_resumable`), running
            its missing and unscored slots (and say so on ``console``; a run of the same
            agent and variants that differs is named with what differs, and a new run is
            started); ``False`` always starts a new run.
        infra_retries: fresh episodes to try after one ends in ``infra_error`` (>= 0).
        infra_backoff: the wait before each of them (`RetryPolicy.delay` of the retry's
            0-based number, no ``Retry-After``; waited with its ``sleep``).
        environment: the installed environment, to record the lock's components with
            the run (default: loaded by name; none recorded if its lock differs).
        planner: prints the plan before the first episode, measures the start of a
            large campaign and confirms it (`mcpgym_clients.plan`); ``None``: neither.
        live_progress: a live display of the episodes in flight (default: when
            ``console`` is a terminal) or plain lines (`mcpgym_clients.progress`).
        stopper: the `Stopper` whose cancellation may stop the campaign: its signal is
            named in the rows of the slots it did not play (default: ``interrupted``).
        clock: monotonic seconds, on which the breaker measures how long a server has not
            answered (`ServiceBreaker.clock`; tests pass a fake one).

    Whatever stops the campaign before its end (a breaker, an error raised below, a
    cancellation), every planned slot with no row yet is stored unscored naming the stop
    (`store_not_run`), the run stays unfinished, and ``status.incomplete`` says how many
    of how many planned episodes are unscored and why.

    Raises:
        ConfigurationError: epochs or concurrency below 1, more than
            `MAX_PLANNED_EPISODES` episodes (variants x epochs and the baseline's:
            `check_planned`), infra_retries below 0, or a
            configuration problem found while running (a reference lock mismatch...).
        ServerRequestError: a server refused a request (4xx).
        CampaignNotConfirmed: ``planner`` stopped it after the measured start (above the
            confirmation threshold, not confirmed); the run is resumable.
    """
    if epochs < 1:
        raise ConfigurationError(f"epochs must be at least 1, got {epochs}")
    check_planned(len(variants), epochs, baseline=baseline and agent.name != "null")
    if concurrency < 1:
        raise ConfigurationError(f"concurrency must be at least 1, got {concurrency}")
    if infra_retries < 0:
        raise ConfigurationError(f"infra_retries must be at least 0, got {infra_retries}")
    info = await driver.server_info()
    selection: dict[str, Any] = {
        "variants": [f"{v.task}@{v.band}#{v.seed}" for v in variants],
        "epochs": epochs,
        "concurrency": concurrency,
    }
    components = await anyio.to_thread.run_sync(known_components, info, environment)
    conditions = campaign_conditions(info, getattr(driver, "episode_timeout", UNREPORTED))

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
            lock_components=components,
            conditions=conditions,
        )

    def find() -> tuple[str | None, str | None]:
        """The run to resume, else the line saying why the nearest one is not resumed."""
        inputs: dict[str, Any] = {
            "lock": info.lock,
            "model": agent.model,
            "settings": agent.settings(),
            "selection": selection,
            "conditions": conditions,
        }
        return run_to_resume(store, env=info.env, agent=agent.name, **inputs)

    def choose() -> tuple[str, str | None, str | None]:
        """Find or create the run and claim it, one process at a time (`run_claims`)."""
        with choosing_run(store.path):
            found, why_not = find() if resume else (None, None)
            run_id = found or new_run(agent, None)
            claim_run(store.path, run_id)
        return run_id, found, why_not

    run_id, found, why_not = await anyio.to_thread.run_sync(choose)
    try:
        return await _run_claimed(
            driver,
            agent,
            variants,
            store,
            run_id,
            found,
            why_not,
            new_run,
            env_name=info.env,
            epochs=epochs,
            concurrency=concurrency,
            baseline=baseline,
            console=console,
            show_progress=show_progress,
            status=status,
            infra_retries=infra_retries,
            infra_backoff=infra_backoff,
            planner=planner,
            live_progress=live_progress,
            stopper=stopper,
            clock=clock,
        )
    finally:
        release_run(store.path, run_id)


async def _run_claimed(
    driver: EpisodeRunner,
    agent: Agent,
    variants: Sequence[VariantKey],
    store: RunStore,
    run_id: str,
    found: str | None,
    why_not: str | None,
    new_run: Callable[[Agent, str | None], str],
    *,
    env_name: str,
    epochs: int,
    concurrency: int,
    baseline: bool,
    console: Console | None,
    show_progress: bool,
    status: CampaignStatus | None,
    infra_retries: int,
    infra_backoff: RetryPolicy,
    planner: Planner | None,
    live_progress: bool | None,
    stopper: Stopper | None,
    clock: Callable[[], float],
) -> CampaignResult:
    """`run_campaign` once its run is chosen and claimed (``found``: the run resumed)."""
    if why_not is not None and console is not None:
        console.print(why_not, soft_wrap=True, highlight=False, markup=False)
    status = status if status is not None else CampaignStatus()
    null: Agent | None = NullAgent() if baseline and agent.name != "null" else None
    status.run_id, status.resumed = run_id, found is not None
    baseline_id: str | None = None
    if null is not None:
        if found is not None:
            baseline_id = await anyio.to_thread.run_sync(store.baseline_run, run_id)
        if baseline_id is None:
            baseline_id = await anyio.to_thread.run_sync(new_run, null, run_id)
    status.baseline_run_id = baseline_id

    # Every planned slot: what a stopped campaign stores a row for when it has none yet.
    planned_jobs: list[tuple[Agent, str, VariantKey, int]] = [
        (agent, run_id, v, e) for v in variants for e in range(epochs)
    ]
    if null is not None and baseline_id is not None:
        planned_jobs += [(null, baseline_id, v, 0) for v in variants]

    started: list[tuple[Agent, str, VariantKey, int]] = []  # the jobs the workers took
    queued: list[int] = []  # how many jobs this campaign queued, once known

    async def account(reason: str, *, confirm: bool = False) -> None:
        """Store a row naming the stop for each planned slot with no row yet, and the line
        saying how many of how many are unscored and why (`CampaignStatus.incomplete`).
        Above `SIGNAL_ROWS_MAX` slots not played, only those started get a row
        (`CampaignStatus.not_started`), whatever the stop. ``confirm``: stopped for want
        of a confirmation (the advice names ``--yes``)."""
        slots = planned_jobs
        if len(planned_jobs) - status.stored > stop_rows.SIGNAL_ROWS_MAX:
            slots = started
            todo = queued[0] if queued else len(planned_jobs) - status.stored
            status.not_started = todo - len(started)
        with anyio.CancelScope(shield=True):
            added = await anyio.to_thread.run_sync(store_not_run, store, slots, reason)
            reasons = await anyio.to_thread.run_sync(unscored_counts, store, run_id, baseline_id)
            rows = await anyio.to_thread.run_sync(store.episode_count, run_id)
            if baseline_id is not None:
                rows += await anyio.to_thread.run_sync(store.episode_count, baseline_id)
        if len(planned_jobs) > rows:
            reasons["missing"] = len(planned_jobs) - rows
        status.not_run += added
        status.incomplete = incomplete_line(
            reasons,
            len(planned_jobs),
            run_id,
            not_started=min(status.not_started, reasons.get("missing", 0)),
            confirm=confirm,
        )

    try:
        done = await anyio.to_thread.run_sync(scored_slots, store, run_id) if found else set()
        if found and getattr(driver, "grade_signature", "") is None:
            # a resumed run's grades are checked as its stored ones were (round 15, S5-9)
            signature = await anyio.to_thread.run_sync(store.grade_signature, run_id)
            driver.grade_signature = signature  # type: ignore[attr-defined]
        base_done = (
            await anyio.to_thread.run_sync(scored_slots, store, baseline_id)
            if found and baseline_id
            else set()
        )
        # Interleaved: each variant's baseline episode right after its agent episodes, so that
        # an interrupted campaign has the baseline of the variants it ran.
        jobs: list[tuple[Agent, str, VariantKey, int]] = []
        for v in variants:
            jobs += [
                (agent, run_id, v, e)
                for e in range(epochs)
                if (v.task, v.band, v.seed, e) not in done
            ]
            if (
                null is not None
                and baseline_id is not None
                and (v.task, v.band, v.seed, 0) not in base_done
            ):
                jobs.append((null, baseline_id, v, 0))
        queued.append(len(jobs))
        status.total = len(jobs) + len(done) + len(base_done)
        status.stored = len(done) + len(base_done)
        if found is not None and console is not None:
            line = await anyio.to_thread.run_sync(
                functools.partial(
                    resuming_line,
                    store,
                    run_id,
                    baseline_id,
                    done=len(done),
                    planned=len(variants) * epochs,
                    base_done=len(base_done),
                    base_planned=len(variants),
                )
            )
            console.print(line, soft_wrap=True, highlight=False, markup=False)
        gate: StartGate | None = None
        if planner is not None:
            agent_todo = sum(1 for j in jobs if j[1] == run_id)
            gate = planner.announce(
                CampaignPlan(
                    env=env_name,
                    agent=agent.name,
                    model=agent.model,
                    variants=len(variants),
                    epochs=epochs,
                    baseline=baseline_id is not None,
                    concurrency=concurrency,
                    agent_todo=agent_todo,
                    baseline_todo=len(jobs) - agent_todo,
                    agent_done=len(done),
                    baseline_done=len(base_done),
                    resumed=run_id if found is not None else None,
                )
            )
            if gate is not None:
                gate.run_id = run_id
        labels = {run_id: (agent.name, len(variants) * epochs, len(done))}
        if baseline_id is not None:
            labels[baseline_id] = ("null (baseline)", len(variants), len(base_done))
        shown = CampaignProgress(console, labels, enabled=show_progress, live=live_progress)
        if planner is not None:
            planner.pause = shown.paused

        endpoint = agent.settings().get("base_url")
        breaker = ServiceBreaker(
            BREAKER_THRESHOLD,
            model_endpoint=endpoint if isinstance(endpoint, str) else None,
            min_run=retry_window(infra_retries, infra_backoff),
            clock=clock,
        )
        groups: list[anyio.abc.TaskGroup] = []

        async def one(a: Agent, rid: str, v: VariantKey, epoch: int) -> EpisodeRecord:
            attempts = 0
            name = f"{v.task}@{v.band}#{v.seed}"
            while True:
                attempts += 1
                ep = shown.start(rid, name, epoch if rid == run_id else 0, attempts)
                try:
                    rec = await driver.run_episode(a, v.task, v.band, v.seed, epoch=epoch, live=ep)
                except BaseException as exc:
                    shown.end(rid, ep, None, stored=False)
                    ended = ended_record(exc, ep)
                    if ended is not None:  # it ran: stored as it ended, not as "not run"
                        with anyio.CancelScope(shield=True):
                            await anyio.to_thread.run_sync(
                                functools.partial(store.add_episode, rid, ended, attempts=attempts)
                            )
                            status.stored += 1
                    raise
                last = rec.termination != "infra_error" or attempts > infra_retries
                if breaker.note(rec, after_wait=attempts > 1 or last) is not None:
                    groups[0].cancel_scope.cancel()  # a server stopped answering: stop here
                    if not last:  # stored after the pool stops (`store_not_run`)
                        shown.end(rid, ep, rec, stored=False)
                        return rec
                if not last:
                    shown.end(rid, ep, rec, stored=False)
                    # a server restarting under the episode: give it a moment to come back
                    wait = infra_backoff.delay(attempts - 1, None)
                    shown.retry_wait(rid, name, wait)
                    await infra_backoff.sleep(wait)
                    continue
                break
            with anyio.CancelScope(shield=True):  # a cancelled campaign keeps what finished
                await anyio.to_thread.run_sync(
                    functools.partial(store.add_episode, rid, rec, attempts=attempts)
                )
                status.stored += 1
            shown.end(rid, ep, rec, stored=True)
            return rec

        # A fixed pool of `concurrency` workers takes the episodes in order: a campaign of
        # 168,000 episodes holds a handful of tasks, so a stop request cancels at once.
        pending = iter(jobs)
        refused: list[str] = []

        async def worker() -> None:
            while True:
                if gate is not None and not await gate.admit():
                    if gate.refusal is not None and not refused:
                        refused.append(gate.refusal)
                    return
                job = next(pending, None)
                if job is not None:
                    started.append(job)
                if job is None:
                    return
                rec = await one(*job)
                if gate is not None:
                    await gate.completed(rec.episode_id)

        with collector_spared():
            async with shown.running(), anyio.create_task_group() as tg:
                groups.append(tg)
                for _ in range(min(concurrency, len(jobs))):
                    tg.start_soon(worker)
        if refused:
            raise CampaignNotConfirmed(refused[0])
    except BaseException as exc:
        # Every planned slot still ends as one row, whatever stopped the campaign: a wrong
        # setting or a refused request, a stop signal, a campaign not confirmed.
        reason = stop_reason(exc, stopper)
        if reason is not None:
            try:
                confirm = isinstance(first_client_error(exc), CampaignNotConfirmed)
                await account(reason, confirm=confirm)
            except Exception:  # the store failing too: the stop's own error is the one to tell
                logging.getLogger("mcpgym").warning("could not store the rows", exc_info=True)
        found_error = first_client_error(exc) if isinstance(exc, BaseExceptionGroup) else None
        if found_error is not None:
            raise found_error from None
        raise
    if breaker.reason is not None:  # a server stopped answering
        await account(breaker.reason)
    planned = {run_id: {(v.task, v.band, v.seed, e) for v in variants for e in range(epochs)}}
    if baseline_id is not None:
        planned[baseline_id] = {(v.task, v.band, v.seed, 0) for v in variants}
    for rid, slots in planned.items():  # finished only when every planned episode has its outcome
        if await anyio.to_thread.run_sync(settled, store, rid, slots):
            await anyio.to_thread.run_sync(store.finish_run, rid)

    position = {v: i for i, v in enumerate(variants)}

    def order(r: EpisodeRecord) -> tuple[int, int]:
        return (position.get(VariantKey(r.task, r.band, r.seed), len(position)), r.epoch)

    def stored(rid: str) -> list[EpisodeRecord]:
        return sorted((record_from_row(e) for e in store.episodes(rid)), key=order)

    records = await anyio.to_thread.run_sync(stored, run_id)
    base = await anyio.to_thread.run_sync(stored, baseline_id) if baseline_id else None
    return CampaignResult(
        run_id,
        baseline_id,
        records,
        base,
        summarize_records(records, base, epochs=epochs),
        planned=len(planned[run_id]),
        baseline_planned=len(planned[baseline_id]) if baseline_id is not None else 0,
        stopped=breaker.reason,
        not_started=status.not_started if breaker.reason is not None else 0,
    )
