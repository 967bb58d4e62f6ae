"""A call-only assistant message sent back in the form the server accepts.

No form is accepted by every server (`mcpgym_clients.adapters.call_only`): llama-cpp-python
with ``--chat_format chatml-function-calling`` answers HTTP 500 to the omitted ``content``
on every attempt, which made every episode's second request fail (``infra_error``, then
``model_error`` on a fresh episode) before the model could read a single tool result.
Recorded wire: ``cassettes/local_call_only_refused.json``. Streamed, the same server answers
each attempt with an empty event stream and the unstreamed resend with the 500; the other
forms are tried on the first refusal, before any retry (S20-R7: 12 requests, ~27 s).
Recorded wire: ``cassettes/local_llama_cfc_refused_stream.json``.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pytest

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import ModelAgent

from ..fakes import FakeEpisode
from .conftest import CASSETTES, Tape, Waits, make_agent
from .test_real_text_calls import _Ticket

pytestmark = pytest.mark.anyio

RECORDED = json.loads((CASSETTES / "local_call_only_refused.json").read_text())["interactions"]
CALL, REFUSED, _, ANSWERED = RECORDED


def call_only(body: dict[str, Any]) -> dict[str, Any]:
    """The assistant message with tool calls in a request body."""
    (message,) = [m for m in body["messages"] if m.get("tool_calls")]
    return message


async def test_a_template_that_refuses_an_omitted_content_gets_an_empty_one() -> None:
    tape = Tape.of([CALL, REFUSED, ANSWERED, CALL, ANSWERED])
    waits = Waits()
    agent = make_agent("openai-compatible", tape, waits=waits, max_retries=1)
    with anyio.fail_after(10):
        first = await agent.run(FakeEpisode().context())
        second = await agent.run(FakeEpisode().context())  # the same adapter: form kept
    await agent.aclose()

    assert first.termination == "completed", first.error
    assert first.answer == "The status of order 7 is pending."
    bodies = tape.bodies
    assert "content" not in call_only(bodies[1])
    assert call_only(bodies[2])["content"] == ""  # the other form at once, before any retry
    assert waits.asked == []
    # the next episode sends the accepted form at once
    assert second.termination == "completed", second.error
    assert len(bodies) == 5 and call_only(bodies[4])["content"] == ""
    # the transcript keeps the model's turn as it was (no text), whatever form was sent
    assert first.transcript[2]["content"] is None


async def test_an_outage_is_not_resent_in_other_forms() -> None:
    outage = {"status": 503, "response": {"error": {"message": "loading model"}}}
    tape = Tape.of([CALL, outage, outage])
    agent = make_agent("openai-compatible", tape, max_retries=1)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "infra_error"
    assert len(tape.requests) == 3
    assert all("content" not in call_only(b) for b in tape.bodies[1:])


async def test_a_500_that_no_form_clears_keeps_its_classification() -> None:
    tape = Tape.of([CALL, REFUSED, REFUSED, REFUSED, REFUSED])
    agent = make_agent("openai-compatible", tape, max_retries=1)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "infra_error"
    assert result.error is not None and "no attribute 'content'" in result.error
    sent = [call_only(b).get("content", "omitted") for b in tape.bodies[1:]]
    assert sent == ["omitted", "", None, "omitted"]  # each other form once, then the retry


STREAMED = json.loads((CASSETTES / "local_llama_cfc_refused_stream.json").read_text())[
    "interactions"
]


def _refusing_server(sent: list[dict[str, Any]]) -> httpx.MockTransport:
    """llama-cpp-python's chatml-function-calling as recorded: a request whose call-only
    message has no ``content`` key gets an empty event stream (streamed) or the template's
    500 (unstreamed), every time; other requests get the recorded answers in order."""
    native_call, empty_stream, refused, answered = STREAMED
    answers = [native_call, answered]

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.read())
        sent.append(body)
        calls = [m for m in body["messages"] if m.get("tool_calls")]
        if calls and "content" not in calls[0]:
            item = empty_stream if body.get("stream") else refused
        else:
            item = answers.pop(0)
        return httpx.Response(
            item["status"], content=item["body"].encode(), headers=item["headers"]
        )

    return httpx.MockTransport(handler)


async def test_a_streamed_refusal_tries_the_other_forms_before_any_retry() -> None:
    sent: list[dict[str, Any]] = []
    waits = Waits()
    client = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1",
        transport=_refusing_server(sent),
        retry=RetryPolicy(max_retries=5, sleep=waits),  # the default retries
    )
    agent = ModelAgent(ChatCompletionsAdapter(client, ModelSettings("qwen", 0.0, 0, 300)))
    with anyio.fail_after(10):
        result = await agent.run(_Ticket().context())
    await agent.aclose()

    assert result.termination == "completed", result.error
    forms = [call_only(b).get("content", "omitted") for b in sent[1:]]
    streamed = [b.get("stream", False) for b in sent[1:]]
    # real30: ["omitted"] * 12 (6 attempts, streamed then unstreamed, 5 waits) before ""
    assert forms == ["omitted", "omitted", ""] and streamed == [True, False, True]
    assert waits.asked == []
    assert result.usage.get("retries", 0) == 0


async def test_once_a_form_was_answered_a_500_is_retried_before_other_forms() -> None:
    # the omitted form answered once (turn 2): a later 500 is more likely an outage
    tape = Tape.of([CALL, CALL, REFUSED, REFUSED, ANSWERED])
    waits = Waits()
    agent = make_agent("openai-compatible", tape, waits=waits, max_retries=1)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "completed", result.error
    sent = [b["messages"][-2].get("content", "omitted") for b in tape.bodies[1:]]
    assert sent == ["omitted", "omitted", "omitted", ""] and len(waits.asked) == 1
