"""A native tool call streamed by llama-cpp-python, replayed from the recorded wire.

llama-cpp-python's function-calling chat formats send the call's whole name again in every
chunk (with each piece of its arguments); main joined the names: ``get_ticketget_ticket...``
(12 times), an unknown tool, so every streamed native call from that server was an error.
Recorded wire: ``cassettes/local_llama_cfc_stream.json`` (``adv/round20sys/REAL_MODEL.md``).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

from mcpgym_clients.adapters.streaming import assemble

from .conftest import CASSETTES
from .test_real_text_calls import _replaying_agent, _Ticket

pytestmark = pytest.mark.anyio

RECORDED = json.loads((CASSETTES / "local_llama_cfc_stream.json").read_text())["interactions"]


async def _lines(body: str) -> AsyncIterator[str]:
    for line in body.splitlines():
        yield line


async def test_a_name_repeated_in_every_chunk_is_one_name() -> None:
    sse = RECORDED[0]["sse"]
    assert sse.count('"name": "get_ticket"') > 2  # the server repeats it
    with anyio.fail_after(5):
        data: dict[str, Any] = await assemble(_lines(sse), where="test")
    (call,) = data["choices"][0]["message"]["tool_calls"]
    assert call["function"]["name"] == "get_ticket"
    assert json.loads(call["function"]["arguments"]) == {"ticket_id": 5227}
    assert data["choices"][0]["finish_reason"] == "tool_calls"


async def test_the_streamed_native_call_runs_as_the_tool_it_names() -> None:
    agent, sent = _replaying_agent(RECORDED)
    ticket = _Ticket()
    with anyio.fail_after(10):
        result = await agent.run(ticket.context())
    await agent.aclose()
    assert ticket.calls[0] == ("get_ticket", {"ticket_id": 5227})  # main: an unknown tool
    assert sent[1]["messages"][2]["tool_calls"][0]["function"]["name"] == "get_ticket"
    assert result.termination == "completed" and result.answer == "submit"  # its last reply
