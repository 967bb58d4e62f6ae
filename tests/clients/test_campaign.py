"""Variant selection, summaries, and the campaign runner over loopback servers."""

from __future__ import annotations

import dataclasses
import gc
import random
import re
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from rich.console import Console

from mcpgym_clients import (
    ConfigurationError,
    EpisodeDriver,
    EpisodeRecord,
    Figures,
    LocalServers,
    NullAgent,
    ReferenceAgent,
    RunStore,
    ServerInfo,
    ServerRequestError,
    TaskInfo,
    VariantKey,
    render_summary,
    run_campaign,
    select_variants,
    summarize_records,
)
from mcpgym_clients.campaign import infra_backoff
from mcpgym_clients.collector import CAMPAIGN_GC_THRESHOLD
from mcpgym_clients.selection import parse_names, parse_seeds
from mcpgym_server import Environment, compute_lock, lock_components

INFO = ServerInfo(
    env="toy",
    version="1",
    lock="l",
    tasks=(
        TaskInfo("refund", "", ("easy", "medium", "hard")),
        TaskInfo("cancel", "", ("easy",)),
    ),
)


# -- selection ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seeds"),
    [("3", [3]), ("0-4", [0, 1, 2, 3, 4]), ("0,1,2", [0, 1, 2]), ("5, 0-2,1", [5, 0, 1, 2])],
)
def test_seed_lists_and_ranges_parse(text: str, seeds: list[int]) -> None:
    assert parse_seeds(text) == seeds


def test_all_means_every_name_and_lists_are_deduplicated() -> None:
    assert parse_names("all") is None and parse_names("ALL") is None
    assert parse_names("a, b,a") == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("order-status,", "empty item"),
        ("a,,b", "empty item"),
        (" , ", "empty list"),
        ("all,order-status", "`all` stands alone"),
    ],
)
def test_name_lists_refuse_empty_items_and_all_beside_names(text: str, says: str) -> None:
    with pytest.raises(ConfigurationError, match=says):
        parse_names(text)


def test_selection_runs_families_only_in_the_bands_they_offer() -> None:
    keys = select_variants(INFO, None, ["easy", "hard"], [0, 1])
    assert keys == [
        VariantKey("refund", "easy", 0),
        VariantKey("refund", "easy", 1),
        VariantKey("refund", "hard", 0),
        VariantKey("refund", "hard", 1),
        VariantKey("cancel", "easy", 0),
        VariantKey("cancel", "easy", 1),
    ]
    assert select_variants(INFO, ["cancel"], None, [7]) == [VariantKey("cancel", "easy", 7)]


@pytest.mark.parametrize(
    ("tasks", "bands", "seeds", "message"),
    [
        (["nope"], None, [0], "unknown task 'nope'; valid tasks: refund, cancel"),
        (
            ["cancel"],
            ["hard"],
            [0],
            "band 'hard' is not offered by the selected tasks (cancel); offered bands: easy",
        ),
        (None, ["expert"], [0], "not offered by toy; offered bands: easy, medium, hard"),
        (None, ["extreme"], [0], "band 'extreme' is not offered by toy"),
        (None, None, [], "no seeds selected"),
    ],
)
def test_bad_selections_are_configuration_errors(
    tasks: list[str] | None, bands: list[str] | None, seeds: list[int], message: str
) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        select_variants(INFO, tasks, bands, seeds)


# -- summaries ------------------------------------------------------------------------


def rec(
    task: str, band: str, score: float | None, *, termination: Any = "completed"
) -> EpisodeRecord:
    grade = None if score is None else {"status": "graded", "score": score, "passed": score >= 1}
    return EpisodeRecord(
        agent="x", task=task, band=band, seed=0, termination=termination, grade=grade
    )


def test_summaries_group_by_family_and_band_and_leave_errors_out_of_means() -> None:
    records = [
        rec("refund", "easy", 1.0),
        rec("refund", "easy", 0.5),
        rec("refund", "easy", None, termination="infra_error"),
        rec("refund", "easy", 0.0, termination="model_error"),
        rec("cancel", "easy", 1.0),
    ]
    baseline = [rec("refund", "easy", 0.25), rec("cancel", "easy", 0.0)]
    rows = summarize_records(records, baseline)
    assert [(r.task, r.band) for r in rows] == [
        ("refund", "easy"),
        ("cancel", "easy"),
        ("(all)", "(all)"),
    ]
    # refund@easy#0 has two scored episodes (1.0 passed, 0.5 failed): two epochs
    assert rows[0].agent == Figures(
        n=4,
        scored=2,
        errors=2,
        mean=0.75,
        pass_rate=0.5,
        epochs=2,
        pass_at_k=1.0,
        pass_hat_k=0.0,
        pass_k_variants=1,
    )
    assert rows[0].baseline == Figures(
        n=1, scored=1, errors=0, mean=0.25, pass_rate=0.0, pass_k_variants=1
    )
    # pass@2 and pass^2 average over the variants with two scored episodes only
    assert rows[2].agent == Figures(
        n=5,
        scored=3,
        errors=2,
        mean=2.5 / 3,
        pass_rate=2 / 3,
        epochs=2,
        pass_at_k=1.0,
        pass_hat_k=0.0,
        pass_k_variants=1,
    )
    assert summarize_records(records)[0].baseline is None


def test_the_summary_table_shows_the_baseline_beside_the_agent() -> None:
    rows = summarize_records([rec("refund", "easy", 1.0)], [rec("refund", "easy", 0.0)])
    console = Console(width=200, record=True)
    console.print(render_summary(rows, agent="openai", title="toy"))
    text = console.export_text()
    assert "toy" in text and "mean" in text and "null mean" in text
    assert "refund" in text and "1.000" in text and "100%" in text and "0.000" in text


# -- campaigns ------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_campaign_runs_every_variant_and_epoch_with_a_baseline(
    servers: LocalServers, toy_env: Environment, tmp_path: Path
) -> None:
    store = RunStore(tmp_path / "runs.db")
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=toy_env,
    ) as driver:
        variants = select_variants(await driver.server_info(), None, None, [0, 1])
        with anyio.fail_after(20):
            result = await run_campaign(
                driver,
                ReferenceAgent(),
                variants,
                store,
                epochs=2,
                concurrency=3,
                argv=["mcpgym", "eval", "toy"],
                show_progress=False,
            )
    assert [(r.band, r.seed, r.epoch) for r in result.records] == [
        (band, seed, epoch) for band in ("easy", "medium") for seed in (0, 1) for epoch in (0, 1)
    ]
    assert result.baseline is not None and len(result.baseline) == 4
    overall = result.summary[-1]
    assert overall.agent == Figures(
        n=8,
        scored=8,
        errors=0,
        mean=1.0,
        pass_rate=1.0,
        epochs=2,
        pass_at_k=1.0,
        pass_hat_k=1.0,
        pass_k_variants=4,
    )
    assert overall.baseline == Figures(
        n=4, scored=4, errors=0, mean=0.0, pass_rate=0.0, pass_k_variants=4
    )
    run = store.run(result.run_id)
    assert run["lock"] == compute_lock(toy_env)
    assert run["selection"]["epochs"] == 2 and run["finished_at"] is not None
    assert store.run(str(result.baseline_run_id))["baseline_of"] == result.run_id
    assert len(store.episodes(result.run_id)) == 8
    store.close()


@pytest.mark.anyio
async def test_the_null_agent_gets_no_baseline_of_itself(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            result = await run_campaign(
                driver,
                NullAgent(),
                [VariantKey("set-target", "easy", 0)],
                store,
                show_progress=False,
            )
    assert result.baseline is None and result.baseline_run_id is None
    assert result.summary[-1].baseline is None


@pytest.mark.anyio
async def test_a_request_error_stops_the_campaign_with_that_error(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            with pytest.raises(ServerRequestError, match="unknown task 'gone'"):
                await run_campaign(
                    driver,
                    NullAgent(),
                    [VariantKey("set-target", "easy", 0), VariantKey("gone", "easy", 0)],
                    store,
                    show_progress=False,
                )


@pytest.mark.anyio
@pytest.mark.parametrize(("epochs", "concurrency"), [(0, 1), (1, 0)])
async def test_epochs_and_concurrency_must_be_positive(epochs: int, concurrency: int) -> None:
    async with EpisodeDriver("http://env.test", "http://grading.test", "t") as driver:
        with RunStore(":memory:") as store, pytest.raises(ConfigurationError, match="at least 1"):
            await run_campaign(
                driver, NullAgent(), [], store, epochs=epochs, concurrency=concurrency
            )


def test_a_selection_of_more_variants_than_a_run_holds_is_refused_before_it_is_built() -> None:
    # Adversarial round 15, S1-11: 28 (family, band) pairs x 100,000 seeds is 2.8 M
    # variants (~1.3 GB) built before anything could refuse them.
    wide = ServerInfo(
        env="toy",
        version="1",
        lock="l",
        tasks=tuple(TaskInfo(f"t{i}", "", ("easy",)) for i in range(11)),
    )
    seeds = list(range(100_000))
    with pytest.raises(ConfigurationError, match="names 1,100,000 variants"):
        select_variants(wide, None, None, seeds)
    assert len(select_variants(wide, ["t0", "t1"], None, seeds)) == 200_000


@pytest.mark.anyio
async def test_a_plan_of_more_episodes_than_a_run_holds_is_refused_before_it_is_built() -> None:
    # Adversarial round 15, S1-11: `--epochs 100000000` on one variant grew `mcpgym eval`
    # past 5 GB in 45 s (the plan built in memory) before its first episode.
    from mcpgym_clients.selection import MAX_PLANNED_EPISODES

    variants = [VariantKey("refund", "easy", s) for s in range(3)]
    epochs = MAX_PLANNED_EPISODES // 3 + 1
    async with EpisodeDriver("http://env.test", "http://grading.test", "t") as driver:
        with RunStore(":memory:") as store, anyio.fail_after(10):
            with pytest.raises(ConfigurationError, match="plans 1,000,002 episodes"):
                await run_campaign(driver, NullAgent(), variants, store, epochs=epochs)


class SwappedGrading(httpx.AsyncBaseTransport):
    """Sends the first ``first`` grade requests to the grading service the driver was
    given and the later ones to ``other`` (the service restarted mid-campaign)."""

    def __init__(self, other: str, first: int) -> None:
        self.other = httpx.URL(other)
        self.first = first
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/grades":
            if self.first:
                self.first -= 1
            else:
                request.url = request.url.copy_with(host=self.other.host, port=self.other.port)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.anyio
async def test_a_grading_service_back_without_the_bundle_key_stops_the_campaign(
    toy_env: Environment, tmp_path: Path
) -> None:
    # Adversarial round 15, S5-9: the grading service kill -9ed at 10 rows and restarted at
    # once without the bundle key: the run finished with 10 `verified` and 18 `unchecked`
    # grades, rc 0. Real loopback services on one store: A has the key, B has none.
    from mcpgym_clients import serve_locally
    from mcpgym_grading.service import create_app as create_grading_app
    from mcpgym_server.runtime import serve

    variants = [VariantKey("set-target", "easy", s) for s in range(4)]
    db = tmp_path / "runs.db"
    async with serve_locally(toy_env, tmp_path / "eps", bundle_key="k" * 32) as s:
        keyless = create_grading_app(
            tmp_path / "eps", s.grading_token, env_loader=lambda name: toy_env, bundle_key=None
        )
        async with serve(keyless, name="grading service B") as other:
            clients = {"control_token": s.control_token, "environment": toy_env}
            async with EpisodeDriver(
                s.env_url,
                s.grading_url,
                s.grading_token,
                grading_transport=SwappedGrading(other, first=2),
                **clients,
            ) as driver:
                with RunStore(db) as store, anyio.fail_after(30):
                    with pytest.raises(ConfigurationError, match="'verified', now 'unchecked'"):
                        await run_campaign(
                            driver, ReferenceAgent(), variants, store, baseline=False,
                            concurrency=1, show_progress=False,
                        )  # fmt: skip
                    (run,) = store.runs()
                    assert run["finished_at"] is None
                    rows = store.episodes(run["id"])
                    graded = [r["grade"]["signature"] for r in rows if r["grade"] is not None]
                    assert graded == ["verified", "verified"]
                    # the two slots it did not play are stored unscored, naming the stop
                    unplayed = [r for r in rows if r["grade"] is None]
                    assert len(unplayed) == 2
                    assert all("now 'unchecked'" in r["error"] for r in unplayed), unplayed
            # the same command again, against the keyless service: the resumed run's
            # grades were verified, so its first grade stops it too
            async with EpisodeDriver(s.env_url, other, s.grading_token, **clients) as driver:
                with RunStore(db) as store, anyio.fail_after(30):
                    with pytest.raises(ConfigurationError, match="'verified', now 'unchecked'"):
                        await run_campaign(
                            driver, ReferenceAgent(), variants, store, baseline=False,
                            concurrency=1, show_progress=False,
                        )  # fmt: skip
                    rows = store.episodes(run["id"])
                    assert len(rows) == 4
                    graded = [r["grade"]["signature"] for r in rows if r["grade"] is not None]
                    assert graded == ["verified", "verified"]


class FlakyGrading(httpx.AsyncBaseTransport):
    """Answers the first ``failures`` grade requests with 503, forwards the rest."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.refused = 0
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/grades" and self.failures:
            self.failures -= 1
            self.refused += 1
            return httpx.Response(503, json={"error": "grader overloaded"})
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("failures", "retries", "termination", "attempts"),
    [(1, 2, "completed", 2), (2, 2, "completed", 3), (5, 1, "infra_error", 2)],
)
async def test_infra_errors_are_retried_then_stored_apart_from_scores(
    servers: LocalServers,
    toy_env: Environment,
    failures: int,
    retries: int,
    termination: str,
    attempts: int,
) -> None:
    grading = FlakyGrading(failures)
    waits: list[float] = []

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)

    backoff = dataclasses.replace(infra_backoff(3.0), sleep=no_sleep, rng=random.Random(0))
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        grading_transport=grading,
        environment=toy_env,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            result = await run_campaign(
                driver,
                ReferenceAgent(),
                [VariantKey("set-target", "easy", 0)],
                store,
                baseline=False,
                concurrency=1,
                infra_retries=retries,
                infra_backoff=backoff,
                show_progress=False,
            )
            (row,) = store.episodes(result.run_id)
    # a wait before each retry: 1.5-3 s, then 3-6 s (`infra_backoff`)
    assert len(waits) == attempts - 1
    assert all(1.5 * 2**n <= w <= 3.0 * 2**n for n, w in enumerate(waits)), waits
    assert grading.refused == attempts if termination == "infra_error" else failures
    assert (row["termination"], row["attempts"]) == (termination, attempts)
    overall = result.summary[-1].agent
    if termination == "infra_error":
        assert (overall.scored, overall.errors, row["score"]) == (0, 1, None)
    else:
        assert (overall.scored, overall.mean) == (1, 1.0)


@pytest.mark.anyio
async def test_a_run_records_the_lock_components_of_the_installed_environment(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            result = await run_campaign(
                driver,
                NullAgent(),
                [VariantKey("set-target", "easy", 0)],
                store,
                show_progress=False,
                environment=toy_env,
            )
            run = store.run(result.run_id)
    assert run["lock_components"] == lock_components(toy_env)


class FreezeWatcher(NullAgent):
    """The null agent, noting how many objects the garbage collector leaves out (frozen)."""

    def __init__(self) -> None:
        self.frozen: list[int] = []
        self.thresholds: list[tuple[int, int, int]] = []

    async def run(self, ctx: Any) -> Any:
        self.frozen.append(gc.get_freeze_count())
        self.thresholds.append(gc.get_threshold())
        return await super().run(ctx)


@pytest.mark.anyio
async def test_a_campaign_spares_the_collector_what_lived_before_it_and_hands_it_back(
    servers: LocalServers, toy_env: Environment
) -> None:
    """During the episodes the objects alive at the start are frozen (not traced by every
    full collection: issue 12 §2) and young collections are rarer; after the campaign
    nothing is frozen and the thresholds are back; a freeze made before by someone else (a
    trainer about to fork) is left as it was, with its thresholds."""
    gc.collect()
    thresholds = gc.get_threshold()
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as driver:
        for frozen_before in (False, True):
            agent = FreezeWatcher()
            if frozen_before:
                gc.freeze()
            before = gc.get_freeze_count()
            try:
                with RunStore(":memory:") as store, anyio.fail_after(20):
                    await run_campaign(
                        driver,
                        agent,
                        [VariantKey("set-target", "easy", 0), VariantKey("set-target", "easy", 1)],
                        store,
                        show_progress=False,
                        baseline=False,
                    )
                after = gc.get_freeze_count()
            finally:
                gc.unfreeze()
            assert len(agent.frozen) == 2 and gc.get_threshold() == thresholds
            if frozen_before:  # left as it was: nothing more frozen, nothing thawed
                # (the count only drops as frozen objects are freed)
                assert 0 < after <= max(agent.frozen) <= before
                assert set(agent.thresholds) == {thresholds}
            else:
                assert before == 0 and min(agent.frozen) > 1000 and after == 0
                assert {t[0] for t in agent.thresholds} == {CAMPAIGN_GC_THRESHOLD}


class StoreMover(NullAgent):
    """The null agent that, at its ``at``-th episode, moves the run store away and puts a
    copy of ``backup`` at its path (a backup restored under a running campaign)."""

    def __init__(self, path: Path, backup: Path, at: int) -> None:
        self.path, self.backup, self.at, self.seen = path, backup, at, 0

    async def run(self, ctx: Any) -> Any:
        self.seen += 1
        if self.seen == self.at:
            import shutil

            self.path.rename(self.path.with_name("rep.moved.db"))
            shutil.copy(self.backup, self.path)
        return await super().run(ctx)


@pytest.mark.anyio
async def test_a_store_moved_under_a_campaign_stops_it_with_every_row_in_the_moved_file(
    servers: LocalServers, toy_env: Environment, tmp_path: Path
) -> None:
    # Stop 25, F2: the stop stored hundreds of unplayed rows into the log left at the path
    # (applied to the backup by its next reader), and its `incomplete:` line advised a
    # resume that the file at the path cannot give.
    import sqlite3

    from mcpgym_clients.campaign import CampaignStatus
    from mcpgym_clients.errors import RunStoreMovedError

    path, backup = tmp_path / "rep.db", tmp_path / "backup.db"
    with RunStore(backup) as other:
        other.create_run(env="toy", env_version="0.1.0", lock="abc", agent="backup")
    status = CampaignStatus()
    agent = StoreMover(path, backup, at=3)
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as driver:
        with RunStore(path) as store, anyio.fail_after(20):
            with pytest.raises(RunStoreMovedError, match="replaced by another file"):
                await run_campaign(
                    driver,
                    agent,
                    [VariantKey("set-target", "easy", s) for s in range(6)],
                    store,
                    concurrency=1,
                    show_progress=False,
                    baseline=False,
                    status=status,
                )
            assert (tmp_path / "rep.db-wal").stat().st_size == 0
    assert status.incomplete is None and status.not_run == 0
    now = sqlite3.connect(path)
    assert now.execute("SELECT agent FROM runs").fetchall() == [("backup",)]
    assert now.execute("SELECT count(*) FROM episodes").fetchone() == (0,)
    now.close()
    moved = sqlite3.connect(tmp_path / "rep.moved.db")
    assert moved.execute("SELECT count(*) FROM episodes").fetchone() == (2,)
    moved.close()
