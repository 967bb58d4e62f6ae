"""Every stop of a campaign accounts for every planned slot (issue 9 §1).

Before, only the campaign's breaker (a server not answering, a model API refusing for
long) stored a row for each slot it did not play. A campaign stopped by a configuration
error (the model API refusing the key or the model on every first request: the 4xx
breaker; a first prompt over the context window; a server replaced mid-campaign), by a
refused request (a 4xx of the grading service) or by a stop signal stored nothing for
the slots it had not played: the run held fewer rows than it planned, and nothing said
how many of how many were missing. Now each of them stores an unscored row naming the
stop for every planned slot with no row, leaves the run unfinished, says how many
planned episodes of how many are unscored and why, and the same command resumes the run
and plays them. Real loopback servers (`serve_locally`) throughout.
"""

from __future__ import annotations

import functools
import re
import signal
from collections.abc import Callable
from pathlib import Path

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from mcpgym_clients import (
    ChatCompletionsClient,
    ConfigurationError,
    EpisodeDriver,
    LocalServers,
    RunStore,
    ServerRequestError,
)
from mcpgym_clients.agents.null import NullAgent
from mcpgym_clients.campaign import CampaignStatus, run_campaign
from mcpgym_clients.cli import app
from mcpgym_clients.commands import _agent
from mcpgym_clients.protocol import AgentResult, EpisodeContext
from mcpgym_clients.selection import VariantKey
from mcpgym_clients.stopping import Stopper
from mcpgym_server import Environment

from .test_cli import toy_installed

__all__ = ["toy_installed"]  # a fixture, used by name

runner = CliRunner()

ANSWER = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "I set the target."},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
}

REFUSALS = {
    # the key or the model refused on every first request (the 4xx breaker: the preflight's
    # GET /models passed)
    "key": (401, {"error": {"message": "Incorrect API key provided"}}),
    # the first prompt over the context window
    "context": (
        400,
        {
            "error": {
                "message": "This model's maximum context length is 4096 tokens. However, you "
                "requested 4745 tokens (4745 in the messages, None in the completion). "
                "Please reduce the length of the messages or completion.",
                "type": "invalid_request_error",
                "code": "context_length_exceeded",
            }
        },
    ),
}


def serve_model(monkeypatch: pytest.MonkeyPatch, answer: list[httpx.Response | None]) -> None:
    """The model API through an injected transport: ``answer[0]`` answers every completion
    request (``None``: a plain final answer); ``GET /models`` always answers."""

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/models"):
            return httpx.Response(200, json={"object": "list", "data": [{"id": "m"}]})
        return answer[0] if answer[0] is not None else httpx.Response(200, json=ANSWER)

    transport = httpx.MockTransport(handler)
    monkeypatch.setattr(
        _agent,
        "ChatCompletionsClient",
        functools.partial(ChatCompletionsClient, transport=transport),
    )


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
def test_a_campaign_stopped_by_the_model_api_stores_every_slot_and_a_rerun_plays_them(
    toy_installed: Environment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, refusal: str
) -> None:
    status, body = REFUSALS[refusal]
    answer: list[httpx.Response | None] = [httpx.Response(status, json=body)]
    serve_model(monkeypatch, answer)
    store = tmp_path / "m.db"
    args = ["eval", "toy", "--model", "m", "--base-url", "http://model.test/v1"]
    args += ["--bands", "easy", "--seeds", "0-5", "--store", str(store)]
    args += ["--infra-retry-wait", "0", "--concurrency", "1"]

    first = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert first.exit_code == 1, first.output  # a configuration error: exit 1, as documented
    lines = first.output.strip().splitlines()
    with RunStore(store) as runs:
        (main,) = [r for r in runs.runs() if r["baseline_of"] is None]
        base_id = runs.baseline_run(main["id"]) or ""
        rows, base = runs.episodes(main["id"]), runs.episodes(base_id)
        assert runs.run(base_id)["finished_at"] is None
    assert main["finished_at"] is None
    # Every planned slot (6 of the agent, 6 of the baseline) ends as exactly one row.
    assert sorted(r["seed"] for r in rows) == list(range(6)), rows
    assert sorted(r["seed"] for r in base) == list(range(6)), base
    not_run = [r for r in rows + base if "not run to its end" in (r["error"] or "")]
    assert all(not r["scored"] and r["termination"] == "infra_error" for r in not_run)
    assert all(
        "the campaign stopped (the first" in r["error"] or "context window" in r["error"]
        for r in not_run
    ), not_run
    unscored = sum(not r["scored"] for r in rows + base)
    if refusal == "key":  # the first 3 episodes failed (model_error), the third stopped it
        assert lines[-2].startswith("error: stopping: the first 3 episodes all failed"), lines
        # the third is stored as it ended (stop 25, F5), not as not run
        assert len(not_run) == 7 and unscored == 10
        third = next(r for r in rows if r["seed"] == 2)
        assert third["termination"] == "model_error" and third["attempts"] == 1, third
        assert "Incorrect API key" in third["error"] and third["transcript"]
        why = "infra_error 7, model_error 3"
    else:  # the first prompt stopped it at once
        assert lines[-2].startswith("error: stopping: the model server's context window"), lines
        assert len(not_run) == 12 and unscored == 12
        why = "infra_error 12"
    assert lines[-1] == (
        f"incomplete: {unscored} of 12 planned episodes are unscored ({why}); run the same "
        f"command again to resume run {main['id']} and retry them"
    ), lines

    answer[0] = None  # the server fixed: the same command resumes the run and plays them
    again = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert again.exit_code == 0, again.output
    said = " ".join(again.output.split())
    assert f"resuming run {main['id']}" in said
    # the slots the stop never played are said apart from those that ran and failed
    assert f"playing {len(not_run)} an earlier stop did not run" in said, said
    assert "infra_error episodes" not in said, said
    with RunStore(store) as runs:
        assert [r["id"] for r in runs.runs() if r["baseline_of"] is None] == [main["id"]]
        rows = runs.episodes(main["id"]) + runs.episodes(base_id)
        assert runs.run(main["id"])["finished_at"] is not None
    assert len(rows) == 12 and all(r["scored"] for r in rows)


def test_the_episodes_the_model_api_breaker_counted_are_stored_as_they_ended(
    toy_installed: Environment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Stop 25, F5: "the first 3 episodes all failed", but with episodes in flight only one
    # row was `model_error`; the other two had run and were stored as not run, attempts 0.
    status, body = REFUSALS["key"]
    serve_model(monkeypatch, [httpx.Response(status, json=body)])
    store = tmp_path / "m.db"
    args = ["eval", "toy", "--model", "m", "--base-url", "http://model.test/v1"]
    args += ["--bands", "easy", "--seeds", "0-7", "--store", str(store)]
    args += ["--infra-retry-wait", "0", "--concurrency", "4", "--no-baseline"]
    first = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert first.exit_code == 1, first.output
    # 3 or, where a fourth in flight failed before the breaker read the third, 4: the
    # episodes the line names are among those stored as model_error
    said = re.search(r"the first (\d) episodes all failed", " ".join(first.output.split()))
    assert said is not None and int(said.group(1)) in (3, 4), first.output
    with RunStore(store) as runs:
        (main,) = runs.runs()
        rows = runs.episodes(main["id"])
    assert len(rows) == 8
    ran = [r for r in rows if not r["error"].startswith("not run to its end")]
    assert len(ran) >= int(said.group(1)), rows  # each one that failed so is stored as it ended
    assert all(r["termination"] == "model_error" and r["attempts"] == 1 for r in ran), ran
    assert all("Incorrect API key" in r["error"] and r["transcript"] for r in ran), ran
    assert all(r["attempts"] == 0 for r in rows if r not in ran)


# -- in process: a refused request, a stop signal ---------------------------------------------


class Stopping(NullAgent):
    """The null agent that, on its ``at``-th episode, calls ``stop`` (then, if ``hang``,
    waits to be cancelled): what stops the campaign."""

    name = "stopping"

    def __init__(self, at: int, stop: Callable[[], None], *, hang: bool = False) -> None:
        self.at, self.stop, self.hang, self.runs = at, stop, hang, 0

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.runs += 1
        if self.runs == self.at:
            self.stop()
            if self.hang:
                await anyio.sleep_forever()
        return await super().run(ctx)


VARIANTS = [VariantKey("set-target", "easy", s) for s in range(6)]


def _driver(servers: LocalServers, env: Environment) -> EpisodeDriver:
    return EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=env,
    )


async def _campaign(
    driver: EpisodeDriver, agent: Stopping, store: RunStore, stopper: Stopper
) -> tuple[CampaignStatus, BaseException | None]:
    """Run the campaign (in the stopper's cancellable scope, as ``mcpgym eval`` does);
    return its status and what it raised."""
    status = CampaignStatus()
    with anyio.fail_after(60), stopper.cancellable():
        try:
            await run_campaign(
                driver,
                agent,
                VARIANTS,
                store,
                concurrency=1,
                show_progress=False,
                stopper=stopper,
                status=status,
            )
        except (ConfigurationError, ServerRequestError) as exc:
            return status, exc
    return status, None


@pytest.mark.anyio
@pytest.mark.parametrize("stop", ["refused", "signal"])
async def test_a_refused_request_or_a_signal_stores_every_slot_and_a_rerun_plays_them(
    servers: LocalServers, toy_env: Environment, tmp_path: Path, stop: str
) -> None:
    store = RunStore(tmp_path / "runs.db")
    stopper = Stopper()
    async with _driver(servers, toy_env) as driver:
        if stop == "refused":  # the grading service refuses the token from the 3rd episode

            def refuse() -> None:
                driver._grading_http.headers["authorization"] = "Bearer revoked"

            agent = Stopping(3, refuse)
        else:  # SIGTERM while the 3rd episode is in flight (the watcher calls stop)
            agent = Stopping(3, lambda: stopper.stop(signal.SIGTERM), hang=True)
        status, raised = await _campaign(driver, agent, store, stopper)
    if stop == "refused":
        assert isinstance(raised, ServerRequestError) and raised.status == 403, raised
        why = "grading server answered 403"
    else:
        assert raised is None and stopper.requested
        why = "interrupted by SIGTERM"
    (main,) = [r for r in store.runs() if r["baseline_of"] is None]
    base_id = store.baseline_run(main["id"]) or ""
    rows = store.episodes(main["id"]) + store.episodes(base_id)
    # 12 planned (6 of the agent, 6 of its baseline): 4 played, 8 stored as not run
    assert sorted((r["agent"], r["seed"]) for r in rows) == sorted(
        (a, s) for a in ("stopping", "null") for s in range(6)
    )
    not_run = [r for r in rows if not r["scored"]]
    assert len(not_run) == 8 and status.not_run == 8 and status.stored == 4
    assert all(
        r["termination"] == "infra_error"
        and r["error"].startswith("not run to its end: the campaign stopped (")
        and why in r["error"]
        for r in not_run
    ), not_run
    assert store.run(main["id"])["finished_at"] is None
    assert store.run(base_id)["finished_at"] is None
    assert status.incomplete == (
        "incomplete: 8 of 12 planned episodes are unscored (infra_error 8); run the same "
        f"command again to resume run {main['id']} and retry them"
    )

    # The same campaign again, nothing stopping it: it resumes the run and plays them.
    async with _driver(servers, toy_env) as driver:
        status, raised = await _campaign(driver, Stopping(0, lambda: None), store, Stopper())
    assert raised is None and status.resumed and status.run_id == main["id"]
    rows = store.episodes(main["id"]) + store.episodes(base_id)
    assert len(rows) == 12 and all(r["scored"] for r in rows)
    assert store.run(main["id"])["finished_at"] is not None
    store.close()


@pytest.mark.anyio
async def test_the_rows_of_slots_left_unplayed_name_the_latest_stop(
    servers: LocalServers, toy_env: Environment, tmp_path: Path
) -> None:
    """Trial (stop 25): a SIGTERM stops the campaign, then a Ctrl-C (SIGINT) stops its
    resume before the slots the first stop left. Their rows said "interrupted by SIGTERM"
    (stored by the first stop and kept): they name the latest stop, which is why they are
    still unplayed; rows of episodes that ran are left as they are."""
    store = RunStore(tmp_path / "runs.db")
    stopper = Stopper()
    async with _driver(servers, toy_env) as driver:
        agent = Stopping(3, lambda: stopper.stop(signal.SIGTERM), hang=True)
        await _campaign(driver, agent, store, stopper)
    (main,) = [r for r in store.runs() if r["baseline_of"] is None]
    base_id = store.baseline_run(main["id"]) or ""
    stopper = Stopper()
    async with _driver(servers, toy_env) as driver:  # the resume plays 2 more, then SIGINT
        agent = Stopping(2, lambda: stopper.stop(signal.SIGINT), hang=True)
        status, raised = await _campaign(driver, agent, store, stopper)
    assert raised is None and status.resumed
    rows = store.episodes(main["id"]) + store.episodes(base_id)
    assert len(rows) == 12
    played = sorted((r["agent"], r["seed"]) for r in rows if r["scored"])
    assert played == sorted((a, s) for a in ("stopping", "null") for s in range(3))
    not_run = [r for r in rows if not r["scored"]]
    assert [r["attempts"] for r in not_run] == [0] * 6
    assert all("interrupted by SIGINT" in r["error"] for r in not_run), [
        r["error"] for r in not_run
    ]
    assert status.not_run == 6
    store.close()
