"""A local model server's behaviours (issue 9 section 8), each classified right.

Against `fake_llama.FakeLlamaServer`, a real HTTP server on loopback that behaves like
llama-cpp-python (500 on ``content: null``, its context-overflow error, one generation at
a time, streaming that stops when the client leaves), and recorded responses through an
injected transport where only the answers matter.
"""

from __future__ import annotations

import uuid
from typing import Any

import anyio
import pytest

from mcpgym_clients import EpisodeDriver, LocalServers, RunStore, VariantKey, run_campaign
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import UNPARSED_TOOL_CALL, ModelAgent
from mcpgym_clients.campaign import infra_backoff
from mcpgym_clients.errors import ConfigurationError
from mcpgym_server import Environment

from ..fakes import FakeEpisode
from .conftest import Tape, Waits
from .fake_llama import NULL_CONTENT_ERROR, FakeLlamaServer, Reply

NO_BACKOFF = infra_backoff(0.0)

pytestmark = pytest.mark.anyio

GET_A = '<tool_call>\n{"name": "get", "arguments": {"key": "a"}}\n</tool_call>'


def local_agent(
    base_url: str, *, timeout: float = 10.0, max_retries: int = 2, **loop: Any
) -> ModelAgent:
    """The ``openai-compatible`` agent as the CLI builds it (streaming, default cap)."""
    client = ChatCompletionsClient(
        base_url=base_url, timeout=timeout, max_retries=max_retries, retry_backoff=0.0
    )
    loop.setdefault("parse_text_tool_calls", True)
    return ModelAgent(ChatCompletionsAdapter(client, ModelSettings("qwen", 0.0)), **loop)


async def test_a_call_only_turn_is_sent_back_in_a_form_llama_cpp_accepts() -> None:
    server = FakeLlamaServer([Reply(GET_A), Reply("Key a holds 1.")])
    async with server.running():
        agent = local_agent(server.base_url)
        episode = FakeEpisode()
        with anyio.fail_after(20):
            result = await agent.run(episode.context())
        await agent.aclose()
    assert [s.outcome for s in server.served] == ["completed", "completed"]
    assert (result.termination, result.answer) == ("completed", "Key a holds 1.")
    assert episode.calls == [("get", {"key": "a"})]
    resent = server.served[1].body["messages"][2]
    assert resent["role"] == "assistant" and "content" not in resent
    assert resent["tool_calls"][0]["function"]["name"] == "get"


def _call_turn() -> dict[str, Any]:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get", "arguments": '{"key": "a"}'},
    }
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"response": {"choices": [{"finish_reason": "tool_calls", "message": message}]}}


def _server_error() -> dict[str, Any]:
    body = {"error": {"message": NULL_CONTENT_ERROR, "type": "internal_server_error"}}
    return {"status": 500, "response": body}


async def _episodes(tape: Tape, count: int) -> list[Any]:
    retry = RetryPolicy(max_retries=2, sleep=Waits())
    client = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1", transport=tape.httpx_transport(), retry=retry
    )
    agent = ModelAgent(ChatCompletionsAdapter(client, ModelSettings("qwen")))
    results = []
    with anyio.fail_after(10):
        for _ in range(count):  # the campaign retries an infra_error as a fresh episode
            results.append(await agent.run(FakeEpisode().context()))
    await agent.aclose()
    return results


async def test_a_server_error_repeated_on_a_fresh_episode_is_ours_not_an_outage() -> None:
    # each episode: the first request answered, the second refused alike on all 3 attempts
    # and in both other forms of its call-only message (`call_only`: sent once each)
    tape = Tape.of(2 * ([_call_turn()] + [_server_error()] * 5))
    first, fresh = await _episodes(tape, 2)
    assert first.termination == "infra_error"  # once, it may be an outage
    assert fresh.termination == "model_error"
    assert NULL_CONTENT_ERROR in fresh.error and "not an outage" in fresh.error


def _tabby_aborted() -> dict[str, Any]:
    # TabbyAPI before 2026-06 (endpoints/OAI/utils/chat_completion.py): a failed generation,
    # an overflow included, is a 503 naming the request's fresh id
    detail = (
        f"Chat completion {uuid.uuid4().hex} aborted. Maybe the model was unloaded? "
        "Please check the server console."
    )
    return {"status": 503, "response": {"detail": detail}}


async def test_a_server_error_naming_a_fresh_request_id_each_time_is_still_alike() -> None:
    # each episode: the first request answered, the second refused on all 3 attempts,
    # each refusal with its own request id
    tape = Tape.of(2 * ([_call_turn()] + [_tabby_aborted() for _ in range(3)]))
    first, fresh = await _episodes(tape, 2)
    assert first.termination == "infra_error"
    assert fresh.termination == "model_error", fresh.error
    assert "Maybe the model was unloaded" in fresh.error and "not an outage" in fresh.error


async def test_an_outage_stays_infra_error_on_the_fresh_episode() -> None:
    # the server answers one request, then refuses everything alike: nothing in between
    # (the first episode's 3 attempts and 2 other call-only forms, the fresh one's 3)
    tape = Tape.of([_call_turn()] + [_server_error()] * 8)
    first, fresh = await _episodes(tape, 2)
    assert (first.termination, fresh.termination) == ("infra_error", "infra_error")


async def test_a_first_prompt_over_the_context_stops_with_the_figures() -> None:
    server = FakeLlamaServer(n_ctx=120)
    async with server.running():
        agent = local_agent(server.base_url)
        with anyio.fail_after(20), pytest.raises(ConfigurationError) as caught:
            await agent.run(FakeEpisode().context())
        await agent.aclose()
    # streamed, the overflow is an empty 200 stream; asked again unstreamed, its 400
    assert [(s.stream, s.outcome) for s in server.served] == [(True, "400"), (False, "400")]
    assert server.served[0].body["max_tokens"] == 2048
    text = str(caught.value)
    assert "context window is too small" in text and "3 tools" in text
    assert "prompt tokens vs a context window of 120" in text
    assert "--n_ctx" in text


async def test_an_abandoned_streamed_attempt_stops_before_the_retry_is_served() -> None:
    # the first generation stalls (no token for longer than the request timeout)
    server = FakeLlamaServer([Reply(stall=True, interval=0.02), Reply("Done.")])
    async with server.running():
        # 2 s, not less: the retry's own first token must come within it on a loaded machine
        agent = local_agent(server.base_url, timeout=2.0)
        with anyio.fail_after(20):
            result = await agent.run(FakeEpisode().context())
        await agent.aclose()
    first, retry = server.served
    assert first.stream and first.outcome == "disconnected"  # the server stopped it
    assert retry.started >= first.ended  # the retry did not queue behind a live generation
    assert (result.termination, result.answer) == ("completed", "Done.")
    assert result.usage["retries"] == 1


async def test_a_slow_stream_that_keeps_coming_is_not_abandoned() -> None:
    text = "The key a holds the value 1, as read with get."  # 12 tokens, 0.1 s each
    server = FakeLlamaServer([Reply(text, interval=0.1)])
    async with server.running():
        agent = local_agent(server.base_url, timeout=0.5)  # less than the whole reply
        with anyio.fail_after(20):
            result = await agent.run(FakeEpisode().context())
        await agent.aclose()
    assert [s.outcome for s in server.served] == ["completed"]  # no retry stacked on it
    assert server.served[0].ended - server.served[0].started > 0.5
    assert (result.termination, result.answer) == ("completed", text)


async def test_a_final_message_that_still_looks_like_a_call_is_told_once_then_flagged() -> None:
    unreadable = "<tool_call>\nget(key='a')\n</tool_call>"  # a call, in no form we read
    server = FakeLlamaServer([Reply(unreadable), Reply(unreadable)])
    async with server.running():
        agent = local_agent(server.base_url)
        with anyio.fail_after(20):
            result = await agent.run(FakeEpisode().context())
        await agent.aclose()
    assert len(server.served) == 2
    told = server.served[1].body["messages"][-1]
    assert told["role"] == "user" and "looks like a tool call" in told["content"]
    assert result.termination == "completed" and result.answer == unreadable
    assert result.error is not None and result.error.startswith(UNPARSED_TOOL_CALL)
    assert result.transcript[-1]["mcpgym_unparsed_tool_call"] is True


async def test_a_call_recovered_after_the_reminder_runs() -> None:
    unreadable = "<tool_call>\nget(key='a')\n</tool_call>"
    fixed = '{{"name": "get", "arguments": {"key": "a"}}}'  # braces doubled, no fence
    server = FakeLlamaServer([Reply(unreadable), Reply(fixed), Reply("a holds 1")])
    async with server.running():
        agent = local_agent(server.base_url)
        episode = FakeEpisode()
        with anyio.fail_after(20):
            result = await agent.run(episode.context())
        await agent.aclose()
    assert episode.calls == [("get", {"key": "a"})]
    assert (result.termination, result.answer, result.error) == ("completed", "a holds 1", None)


@pytest.mark.parametrize(
    "written",
    [
        pytest.param('[TOOL_CALLS]get[ARGS]{"key": "a"}', id="mistral v11"),
        pytest.param("[get(key='a')]", id="llama 3.2 pythonic"),
        pytest.param(
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get\n```json\n"
            '{"key": "a"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
            id="deepseek",
        ),
    ],
)
async def test_a_template_call_form_runs_through_the_loop(written: str) -> None:
    server = FakeLlamaServer([Reply(written), Reply("a holds 1")])
    async with server.running():
        agent = local_agent(server.base_url)
        episode = FakeEpisode()
        with anyio.fail_after(20):
            result = await agent.run(episode.context())
        await agent.aclose()
    assert episode.calls == [("get", {"key": "a"})]
    assert (result.termination, result.answer, result.error) == ("completed", "a holds 1", None)


async def test_a_pythonic_call_that_cannot_be_read_is_told_once_then_flagged() -> None:
    positional = "[get('a')]"  # pythonic, but positional: not run
    server = FakeLlamaServer([Reply(positional), Reply(positional)])
    async with server.running():
        agent = local_agent(server.base_url)
        episode = FakeEpisode()
        with anyio.fail_after(20):
            result = await agent.run(episode.context())
        await agent.aclose()
    assert episode.calls == []
    assert "looks like a tool call" in server.served[1].body["messages"][-1]["content"]
    assert result.error is not None and result.error.startswith(UNPARSED_TOOL_CALL)
    assert result.transcript[-1]["mcpgym_unparsed_tool_call"] is True


# -- through a campaign (the toy environment on loopback) -------------------------------


async def test_a_campaign_stops_at_a_first_prompt_over_the_context(
    servers: LocalServers, toy_env: Environment
) -> None:
    fake = FakeLlamaServer(n_ctx=120)
    variants = [VariantKey("set-target", "easy", s) for s in (0, 1, 2)]
    async with fake.running():
        agent = local_agent(fake.base_url)
        async with EpisodeDriver(
            servers.env_url,
            servers.grading_url,
            servers.grading_token,
            control_token=servers.control_token,
        ) as driver:
            with RunStore(":memory:") as store, anyio.fail_after(30):
                with pytest.raises(ConfigurationError, match="context window of 120"):
                    await run_campaign(
                        driver, agent, variants, store, concurrency=2, show_progress=False
                    )
                scored = [e for e in store.episodes(store.runs()[0]["id"]) if e["scored"]]
        await agent.aclose()
    assert scored == []  # nothing scored the null score behind a misconfigured server


async def test_a_campaign_stores_a_repeated_server_error_as_model_error(
    servers: LocalServers, toy_env: Environment
) -> None:
    tape = Tape.of(2 * ([_call_turn()] + [_server_error()] * 5))  # 3 attempts + 2 forms
    retry = RetryPolicy(max_retries=2, sleep=Waits())
    client = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1", transport=tape.httpx_transport(), retry=retry
    )
    agent = ModelAgent(ChatCompletionsAdapter(client, ModelSettings("qwen")))
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(30):
            result = await run_campaign(
                driver,
                agent,
                [VariantKey("set-target", "easy", 0)],
                store,
                infra_retries=2,
                show_progress=False,
                infra_backoff=NO_BACKOFF,  # retries at once: the waits are tested apart
            )
    await agent.aclose()
    (row,) = result.records
    assert row.termination == "model_error"  # not an outage: not retried forever, not scored
    assert row.error is not None and NULL_CONTENT_ERROR in row.error
    assert len(tape.requests) == 12  # two episodes of 1 + 3 + 2 requests, not three of them
