"""A call-only assistant message sent back in the form the server accepts.

No form is accepted by every server (`mcpgym_clients.adapters.call_only`): llama-cpp-python
with ``--chat_format chatml-function-calling`` answers HTTP 500 to the omitted ``content``
on every attempt, which made every episode's second request fail (``infra_error``, then
``model_error`` on a fresh episode) before the model could read a single tool result.
Recorded wire: ``cassettes/local_call_only_refused.json``.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from ..fakes import FakeEpisode
from .conftest import CASSETTES, Tape, Waits, make_agent

pytestmark = pytest.mark.anyio

RECORDED = json.loads((CASSETTES / "local_call_only_refused.json").read_text())["interactions"]
CALL, REFUSED, _, ANSWERED = RECORDED


def call_only(body: dict[str, Any]) -> dict[str, Any]:
    """The assistant message with tool calls in a request body."""
    (message,) = [m for m in body["messages"] if m.get("tool_calls")]
    return message


async def test_a_template_that_refuses_an_omitted_content_gets_an_empty_one() -> None:
    tape = Tape.of(RECORDED + [CALL, ANSWERED])
    waits = Waits()
    agent = make_agent("openai-compatible", tape, waits=waits, max_retries=1)
    with anyio.fail_after(10):
        first = await agent.run(FakeEpisode().context())
        second = await agent.run(FakeEpisode().context())  # the same adapter: form kept
    await agent.aclose()

    assert first.termination == "completed", first.error
    assert first.answer == "The status of order 7 is pending."
    bodies = tape.bodies
    assert "content" not in call_only(bodies[1]) and "content" not in call_only(bodies[2])
    assert call_only(bodies[3])["content"] == ""  # sent again once, no retry waits for it
    assert len(waits.asked) == 1
    # the next episode sends the accepted form at once
    assert second.termination == "completed", second.error
    assert len(bodies) == 6 and call_only(bodies[5])["content"] == ""
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
    assert sent == ["omitted", "omitted", "", None]  # each other form tried once
