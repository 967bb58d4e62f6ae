"""The opt-in parser for tool calls written as text."""

from __future__ import annotations

import pytest

from mcpgym_clients.adapters.text_tool_calls import ParsedToolCall, parse_text_tool_calls

TOOLS = {"get", "put", "submit"}


def test_a_hermes_block_is_a_call() -> None:
    text = 'Checking.\n<tool_call>\n{"name": "get", "arguments": {"key": "a"}}\n</tool_call>'
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == [
        ParsedToolCall(
            "get",
            {"key": "a"},
            "hermes",
            '<tool_call>\n{"name": "get", "arguments": {"key": "a"}}\n</tool_call>',
        )
    ]
    assert parsed.text == "Checking."
    assert parsed.errors == []


def test_several_hermes_blocks_are_calls_in_order() -> None:
    text = (
        '<tool_call>{"name": "get", "arguments": {"key": "a"}}</tool_call>\n'
        '<tool_call>{"name": "put", "arguments": "{\\"key\\": \\"b\\", \\"value\\": \\"2\\"}"}'
        "</tool_call>"
    )
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments) for c in parsed.calls] == [
        ("get", {"key": "a"}),
        ("put", {"key": "b", "value": "2"}),  # arguments given as a JSON string
    ]
    assert parsed.text == ""


def test_a_hermes_block_cut_off_by_a_stop_token_is_still_a_call() -> None:
    parsed = parse_text_tool_calls('<tool_call>\n{"name": "submit", "arguments": {}}', TOOLS)
    assert [(c.name, c.arguments) for c in parsed.calls] == [("submit", {})]


def test_a_hermes_block_may_use_parameters_and_name_any_tool() -> None:
    text = '<tool_call>{"name": "delete_all", "parameters": {"really": true}}</tool_call>'
    parsed = parse_text_tool_calls(text, TOOLS)
    # explicit call: the server answers "unknown tool", the parser does not judge it
    assert [(c.name, c.arguments) for c in parsed.calls] == [("delete_all", {"really": True})]


def test_a_broken_hermes_block_is_reported_not_executed() -> None:
    parsed = parse_text_tool_calls('<tool_call>{"name": "put", "arguments": {</tool_call>', TOOLS)
    assert parsed.calls == []
    assert len(parsed.errors) == 1
    assert parsed.errors[0].startswith("the <tool_call> block is not valid JSON")


def test_a_hermes_block_without_a_name_is_reported() -> None:
    parsed = parse_text_tool_calls('<tool_call>{"arguments": {}}</tool_call>', TOOLS)
    assert parsed.calls == []
    assert parsed.errors == ['a <tool_call> block must hold {"name": "<tool>", "arguments": {...}}']


def test_a_fenced_json_call_is_a_call() -> None:
    text = (
        'I will set it.\n\n```json\n{"name": "put", "arguments": {"key": "t", "value": "1"}}\n```'
    )
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.source) for c in parsed.calls] == [
        ("put", {"key": "t", "value": "1"}, "fenced_json")
    ]
    assert parsed.text == "I will set it."


def test_a_bare_fence_holding_a_list_of_calls_gives_every_call() -> None:
    text = (
        '```\n[{"name": "get", "arguments": {"key": "a"}},'
        ' {"name": "get", "arguments": {"key": "b"}}]\n```'
    )
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [c.arguments for c in parsed.calls] == [{"key": "a"}, {"key": "b"}]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("The answer is 42.", id="plain prose"),
        pytest.param("", id="empty"),
        pytest.param(
            'Result:\n```json\n{"name": "target", "value": "103"}\n```',
            id="json with a name key that is not a call",
        ),
        pytest.param(
            '```json\n{"name": "Alice", "arguments": {"age": 3}}\n```',
            id="call-shaped json naming no tool",
        ),
        pytest.param(
            '```json\n{"name": "put", "arguments": {"key": "a"}, "id": 7}\n```',
            id="extra keys",
        ),
        pytest.param(
            '```json\n[{"name": "get", "arguments": {}}, {"rows": 3}]\n```',
            id="list mixing a call with other json",
        ),
        pytest.param(
            '```json\n{"name": "get", "arguments": [1]}\n```', id="arguments not an object"
        ),
        pytest.param('```json\n{"name": "get", "arguments": {\n```', id="broken json"),
        pytest.param("```python\nput(key='a', value='1')\n```", id="python code"),
        pytest.param(
            "I will use the <tool_call> tag next time.</tool_call>", id="tag mentioned in prose"
        ),
        pytest.param('Use `{"name": "get", "arguments": {}}` to read.', id="inline json, no fence"),
    ],
)
def test_text_that_is_not_a_call_does_not_misfire(text: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == []
    assert parsed.errors == []
    assert parsed.text == text.strip()


def test_none_is_empty() -> None:
    assert parse_text_tool_calls(None, TOOLS) == ([], "", [])
