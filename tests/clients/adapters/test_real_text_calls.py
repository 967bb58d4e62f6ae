"""A real model's text tool calls, replayed from the recorded wire through an injected transport.

Qwen2.5-Coder-1.5B behind llama-cpp-python (its GGUF chat template) answered the ticket in a
fenced block whose ``arguments`` are a JSON string with raw line breaks inside the message
body (2 of 3 real order-status episodes): main read no call from it, told the model its
message looked like a call, and the model then submitted without ever replying to the
customer, so the episode was graded as if the model had not written the reply. Recorded
wire: ``cassettes/local_qwen_text_calls.json`` (``adv/round20sys/REAL_MODEL.md``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import anyio
import httpx
import pytest

from mcpgym_clients import EpisodeContext, ToolDef, ToolOutcome
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.adapters.text_tool_calls import parse_text_tool_calls, unread_beside
from mcpgym_clients.agents.model import UNREAD_CALL_FEEDBACK, ModelAgent

from .conftest import CASSETTES, Waits

pytestmark = pytest.mark.anyio

RECORDED = json.loads((CASSETTES / "local_qwen_text_calls.json").read_text())
NAMES = {t["function"]["name"] for t in RECORDED["tools"]}


def _text_of(sse: str) -> str:
    """The message text a recorded SSE body carries."""
    chunks = [json.loads(line[5:]) for line in sse.splitlines() if line.startswith("data: {")]
    return "".join((c["choices"][0]["delta"].get("content") or "") for c in chunks if c["choices"])


class _Ticket:
    """The episode's three tools, answering as the real server did (``get_ticket``)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        self.calls.append((name, dict(arguments)))
        if name == "get_ticket":
            return ToolOutcome(False, RECORDED["tool_result"])
        if name == "reply_to_customer":
            return ToolOutcome(False, json.dumps({"id": 397, "author": "agent"}))
        return ToolOutcome(False, json.dumps({"status": "ended"}))

    def context(self) -> EpisodeContext:
        functions = [t["function"] for t in RECORDED["tools"]]
        tools = [ToolDef(f["name"], f["description"], f["parameters"]) for f in functions]
        return EpisodeContext(
            episode_id="ep_real",
            variant_id="helpdesk/order-status@easy#1",
            instruction=RECORDED["instruction"],
            tools=tools,
            call_tool=self.call_tool,
        )


def _replaying_agent(
    interactions: list[dict[str, Any]] | None = None,
) -> tuple[ModelAgent, list[Any]]:
    sent: list[Any] = []
    bodies = [i["sse"] for i in interactions or RECORDED["interactions"]]

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.read()))
        headers = {"content-type": "text/event-stream; charset=utf-8"}
        return httpx.Response(200, content=bodies.pop(0).encode(), headers=headers)

    client = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1",
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(max_retries=1, sleep=Waits()),
    )
    adapter = ChatCompletionsAdapter(client, ModelSettings("qwen", 0.0, 0, 300))
    return ModelAgent(adapter, parse_text_tool_calls=True), sent


def test_the_recorded_call_with_a_string_of_arguments_and_raw_line_breaks_is_read() -> None:
    text = _text_of(RECORDED["interactions"][1]["sse"])
    assert '"arguments": "{\\"ticket_id\\"' in text  # arguments as a JSON string
    parsed = parse_text_tool_calls(text, NAMES)
    ((name, args),) = [(c.name, c.arguments) for c in parsed.calls]
    assert name == "reply_to_customer" and args["ticket_id"] == 5227
    assert args["body"].startswith("Hello Nathan,\n\nOrder #100545 should arrive")
    assert parsed.text == ""


async def test_a_real_episode_sends_the_reply_the_model_wrote() -> None:
    agent, sent = _replaying_agent()
    ticket = _Ticket()
    with anyio.fail_after(10):
        result = await agent.run(ticket.context())
    await agent.aclose()

    assert result.termination == "completed", result.error
    assert [name for name, _ in ticket.calls] == ["get_ticket", "reply_to_customer", "submit"]
    assert "Nathan" in ticket.calls[1][1]["body"]
    told = [m for m in result.transcript if m.get("mcpgym_harness")]
    assert not told, "the model was told its readable call looked unreadable"
    assert all(UNREAD_CALL_FEEDBACK not in str(m.get("content")) for m in sent[-1]["messages"])
    # the call-only turns went back with their calls, content omitted (the GGUF template's form)
    replayed = [m for m in sent[-1]["messages"] if m["role"] == "assistant"]
    assert [m["tool_calls"][0]["function"]["name"] for m in replayed] == [
        "get_ticket",
        "reply_to_customer",
    ]


def test_a_fence_whose_closing_a_stop_string_cut_leaves_no_text() -> None:
    text = _text_of(RECORDED["interactions"][0]["sse"])
    assert text.startswith("```json\n{") and not text.rstrip().endswith("```")
    parsed = parse_text_tool_calls(text, NAMES)
    assert [(c.name, c.arguments) for c in parsed.calls] == [("get_ticket", {"ticket_id": 5227})]
    assert parsed.text == ""  # not a stray "```json" sent back as the assistant's text


async def test_the_call_only_turn_goes_back_without_a_stray_fence() -> None:
    agent, sent = _replaying_agent()
    with anyio.fail_after(10):
        await agent.run(_Ticket().context())
    await agent.aclose()
    first_call = sent[1]["messages"][2]
    assert first_call["role"] == "assistant" and first_call["tool_calls"]
    assert "content" not in first_call  # call-only: the form the GGUF template accepted


async def test_a_malformed_call_beside_readable_ones_runs_none_and_tells_the_model() -> None:
    # H2: reply_to_customer (its body's closing quote unescaped), then close_ticket and
    # submit; main ran those two and ended the episode without the reply, the model untold
    first, _, last = RECORDED["interactions"]
    assert '"name": "reply_to_customer"' in _text_of(RECORDED["partly_read"]["sse"])
    agent, sent = _replaying_agent([first, RECORDED["partly_read"], last])
    ticket = _Ticket()
    with anyio.fail_after(10):
        result = await agent.run(ticket.context())
    await agent.aclose()

    # main: ["get_ticket", "close_ticket", "submit"], the reply dropped unseen
    assert [name for name, _ in ticket.calls] == ["get_ticket", "submit"]  # the last reply's
    told = [m["content"] for m in result.transcript if m.get("mcpgym_harness")]
    assert len(told) == 1 and "'reply_to_customer'" in told[0] and "none was run" in told[0]
    assert sent[2]["messages"][-1] == {"role": "user", "content": told[0]}
    unread = [m for m in result.transcript if m.get("mcpgym_unread_calls")]
    assert len(unread) == 1 and not unread[0].get("tool_calls")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # the same call quoted again in the prose: nothing unread
        (
            'I will call {"name": "get_ticket"} now.\n'
            '```json\n{"name": "get_ticket", "arguments": {"ticket_id": 5227}}\n```',
            None,
        ),
        # another tool's call that does not parse, beside a readable one
        (
            '{"name": "reply_to_customer", "arguments": "{\\"body\\": \\"Hi"}"}\n'
            '{"name": "close_ticket", "arguments": {"ticket_id": 5227}}',
            "the call of 'reply_to_customer' beside the 1 read could not be read",
        ),
    ],
)
def test_what_counts_as_a_call_left_unread_beside_read_ones(text: str, why: str | None) -> None:
    parsed = parse_text_tool_calls(text, NAMES)
    assert parsed.calls
    assert unread_beside(parsed, NAMES) == why
