"""A model API that keeps refusing (429/503 with a long ``Retry-After``) stops the campaign.

Adversarial round 12 (S8-14): a model API answering every request 429 ``Retry-After: 86400``
made each slot ``infra_error`` at once, but the campaign went on through every slot (a 503),
or the 4xx breaker stopped it as a wrong ``--model``/``--base-url`` with no row stored for
any planned slot (a 429). Now `BREAKER_THRESHOLD` such episode attempts in a row stop it
through the campaign's breaker: exit 3, a line naming the endpoint and the wait asked for,
every planned slot one row, and the same command resumes the run.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from mcpgym_clients import ChatCompletionsClient, RunStore
from mcpgym_clients.adapters.retry import RetryPolicy, watched, with_retries
from mcpgym_clients.breaker import ServiceBreaker
from mcpgym_clients.campaign import EXIT_INCOMPLETE
from mcpgym_clients.cli import app
from mcpgym_clients.commands import _agent
from mcpgym_clients.errors import ModelAPIError
from mcpgym_clients.records import EpisodeRecord, ModelRefusal
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


def serve_model(monkeypatch: pytest.MonkeyPatch, refuse: list[int | None]) -> list[str]:
    """The model API through an injected transport: ``refuse[0]`` is the status of every
    answer to a completion request (with ``Retry-After: 86400``), ``None`` to answer;
    return the paths requested."""
    paths: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        if request.url.path.endswith("/models"):
            return httpx.Response(200, json={"object": "list", "data": [{"id": "m"}]})
        if refuse[0] is None:
            return httpx.Response(200, json=ANSWER)
        body = {"error": {"message": "Rate limit reached for requests per day"}}
        return httpx.Response(refuse[0], json=body, headers={"Retry-After": "86400"})

    transport = httpx.MockTransport(handler)
    monkeypatch.setattr(
        _agent,
        "ChatCompletionsClient",
        functools.partial(ChatCompletionsClient, transport=transport),
    )
    return paths


@pytest.mark.parametrize("status", [429, 503])
def test_a_model_api_that_keeps_refusing_stops_the_campaign_and_a_rerun_resumes(
    toy_installed: Environment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, status: int
) -> None:
    refuse: list[int | None] = [status]
    paths = serve_model(monkeypatch, refuse)
    store = tmp_path / "m.db"
    args = ["eval", "toy", "--model", "m", "--base-url", "http://model.test/v1"]
    args += ["--bands", "easy", "--seeds", "0-5", "--store", str(store)]
    args += ["--infra-retry-wait", "0", "--concurrency", "1"]

    first = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert first.exit_code == EXIT_INCOMPLETE, first.output
    text = " ".join(first.output.split())
    assert re.search(
        "stopped: the model API at http://model.test/v1 keeps refusing requests: 3 episode "
        r"attempts in a row over [0-9.]+ s had every model request refused, the last with "
        f"{status} asking to wait 86,400 s \\(Retry-After\\), longer than the 60 s the harness "
        "waits before a retry",
        text,
    ), text
    assert "Rate limit reached for requests per day" in text
    assert "incomplete: 11 of 12 planned episodes are unscored (infra_error 11)" in text
    # Slot 0's three attempts and slot 1's first two: the breaker counts the retries and
    # the slot's last attempt (the first attempts in flight may hit a passing burst).
    assert paths.count("/v1/chat/completions") == 5
    with RunStore(store) as runs:
        (main,) = [r for r in runs.runs() if r["baseline_of"] is None]
        rows = runs.episodes(main["id"])
        base = runs.episodes(runs.baseline_run(main["id"]) or "")
    # Every planned slot (6 of the agent, 6 of the baseline) ends as one row.
    assert sorted(r["seed"] for r in rows) == list(range(6))
    assert sorted(r["seed"] for r in base) == list(range(6))
    assert all(r["termination"] == "infra_error" for r in rows)
    assert sum("not run to its end: the campaign stopped" in (r["error"] or "") for r in rows) == 5
    assert main["finished_at"] is None

    refuse[0] = None  # the quota is back: the same command resumes the run and finishes it
    again = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert again.exit_code == 0, again.output
    assert f"resuming run {main['id']}" in " ".join(again.output.split())
    with RunStore(store) as runs:
        assert [r["id"] for r in runs.runs() if r["baseline_of"] is None] == [main["id"]]
        rows = runs.episodes(main["id"])
        assert runs.run(main["id"])["finished_at"] is not None
    assert sorted((r["seed"], r["scored"]) for r in rows) == [(s, 1) for s in range(6)]


# -- the rule, piece by piece ---------------------------------------------------------------


def record(agent: str = "openai", **kw: object) -> EpisodeRecord:
    return EpisodeRecord(agent=agent, task="t", band="easy", seed=0, error="e", **kw)  # type: ignore[arg-type]


DAY = ModelRefusal(429, 86_400.0, 60.0, "model API answered 429: quota")


def test_the_breaker_counts_refused_attempts_after_a_wait_and_only_a_model_answer_resets() -> None:
    breaker = ServiceBreaker(3, model_endpoint="http://m/v1")
    refused = record(termination="infra_error", refused=DAY)
    assert breaker.note(refused, after_wait=False) is None  # a first attempt: a burst?
    assert breaker.note(refused, after_wait=True) is None
    # The null baseline (no model request) and another failure leave the count as it is.
    assert breaker.note(record("null", termination="completed"), after_wait=True) is None
    unanswered = record(termination="infra_error", unanswered="env")
    assert breaker.note(unanswered, after_wait=True) is None
    assert breaker.note(refused, after_wait=True) is None
    assert breaker.counts == {"model": 2}  # (the env server's run ended: it answered)
    # An episode the model API answered starts the count again.
    assert breaker.note(record(termination="completed", model_answered=2), after_wait=True) is None
    assert breaker.counts == {}
    for _ in range(2):
        assert breaker.note(refused, after_wait=True) is None
    reason = breaker.note(refused, after_wait=True)
    assert reason is not None and reason.startswith(
        "stopped: the model API at http://m/v1 keeps refusing requests: 3 episode attempts"
    )
    assert "asking to wait 86,400 s (Retry-After), longer than the 60 s" in reason
    assert reason.endswith("(it said: model API answered 429: quota)")


async def _refused_after(
    status: int, retry_after: float
) -> tuple[list[float], int, ModelRefusal | None]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def refuse() -> None:
        raise ModelAPIError(f"model API answered {status}", status=status, retry_after=retry_after)

    async def answer() -> str:
        return "ok"

    policy = RetryPolicy(max_retries=2, max_delay=60.0, sleep=sleep)
    with watched() as activity:
        assert await with_retries(policy, answer) == "ok"
        with pytest.raises(ModelAPIError):
            await with_retries(policy, refuse)
    return waits, activity.answered, activity.refused


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("status", "retry_after", "refused"),
    [(429, 120.0, True), (503, 61.0, True), (529, 3600.0, True), (429, 60.0, False)]
    + [(500, 3600.0, False), (408, 3600.0, False)],
)
async def test_only_a_refusal_asking_beyond_the_wait_cap_is_kept(
    status: int, retry_after: float, refused: bool
) -> None:
    for hard_cap, waited in ((10_000.0, True), (30.0, retry_after <= 30.0)):
        with anyio.fail_after(hard_cap):  # a wait past the episode's hard cap is not made
            waits, answered, refusal = await _refused_after(status, retry_after)
        assert waits == ([min(retry_after, 60.0)] * 2 if waited else [])
        assert answered == 1
        if refused:
            assert refusal == ModelRefusal(
                status, retry_after, 60.0, f"model API answered {status}"
            )
        else:
            assert refusal is None
