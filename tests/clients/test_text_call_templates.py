"""Tool calls in the text forms of gpt-oss, Kimi K2, GLM-4/4.5/4.6, ReAct and MiniMax-M2's
``<invoke>``, and what still looks like a call (adversarial round 9, S8-2, S8-3, S8-4;
round 11, S8-9)."""

from __future__ import annotations

import pytest

from mcpgym_clients.adapters.text_tool_calls import looks_like_tool_call, parse_text_tool_calls

TOOLS = {"get", "put", "get_order", "submit"}
ARGS = '{"order_id": 7}'


@pytest.mark.parametrize(
    ("text", "source", "rest"),
    [
        pytest.param(
            f"<|channel|>commentary to=functions.get_order <|constrain|>json<|message|>{ARGS}"
            "<|call|>",
            "harmony",
            "",
            id="gpt-oss harmony",
        ),
        pytest.param(
            f"<|start|>assistant<|channel|>commentary to=functions.get_order json<|message|>"
            f"{ARGS}<|call|>",
            "harmony",
            "",
            id="harmony with the assistant prefix",
        ),
        pytest.param(
            f"to=functions.get_order <|message|>{ARGS}", "harmony", "", id="harmony, no channel"
        ),
        pytest.param(
            "<|channel|>commentary to=functions.get_order<|message|>{'order_id': 7,}<|end|>",
            "harmony",
            "",
            id="harmony, lenient JSON, closed by <|end|>",
        ),
        pytest.param(
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_order:0"
            f"<|tool_call_argument_begin|>{ARGS}<|tool_call_end|><|tool_calls_section_end|>",
            "kimi",
            "",
            id="Kimi K2",
        ),
        pytest.param(
            f"<|tool_call_begin|>functions.get_order:3<|tool_call_argument_begin|>{ARGS}"
            "<|tool_call_end|>",
            "kimi",
            "",
            id="Kimi K2 without the section",
        ),
        pytest.param(f"get_order\n{ARGS}", "glm", "", id="GLM-4 name then JSON"),
        pytest.param(
            "<tool_call>get_order\n<arg_key>order_id</arg_key>\n<arg_value>7</arg_value>\n"
            "</tool_call>",
            "glm",
            "",
            id="GLM-4.5 arg_key/arg_value",
        ),
        pytest.param(
            f"<tool_call><name>get_order</name><arguments>{ARGS}</arguments></tool_call>",
            "glm",
            "",
            id="name and arguments tags",
        ),
        pytest.param(
            f"<tool_call>get_order\n{ARGS}\n</tool_call>", "glm", "", id="tag, name, JSON"
        ),
        pytest.param(
            f"Thought: I need the order.\nAction: get_order\nAction Input: {ARGS}",
            "react",
            "Thought: I need the order.",
            id="ReAct",
        ),
        pytest.param(
            f"Action: get_order\nAction Input: {ARGS}\nObservation:",
            "react",
            "Observation:",
            id="ReAct with an invented observation",
        ),
        pytest.param(
            '<minimax:tool_call>\n<invoke name="get_order">\n<parameter name="order_id">7'
            "</parameter>\n</invoke>\n</minimax:tool_call>",
            "invoke",
            "",
            id="MiniMax-M2",
        ),
        pytest.param(
            '<function_calls>\n<invoke name="get_order">\n<parameter name="order_id">7'
            "</parameter>\n</invoke>\n</function_calls>",
            "invoke",
            "",
            id="function_calls and invoke",
        ),
        pytest.param(
            "Let me look.\n<invoke name=get_order><parameter name=order_id>7</invoke>",
            "invoke",
            "Let me look.",
            id="bare invoke, unquoted, unclosed parameter",
        ),
    ],
)
def test_template_forms_are_recovered(text: str, source: str, rest: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.source) for c in parsed.calls] == [
        ("get_order", {"order_id": 7}, source)
    ]
    assert parsed.errors == []
    assert parsed.text == rest


def test_glm45_values_are_json_where_they_read_and_text_otherwise() -> None:
    text = (
        "<tool_call>put\n<arg_key>key</arg_key>\n<arg_value>target</arg_value>\n"
        "<arg_key>value</arg_key>\n<arg_value>103</arg_value>\n</tool_call>"
    )
    (call,) = parse_text_tool_calls(text, TOOLS).calls
    assert call.arguments == {"key": "target", "value": 103}


def test_invoke_values_and_two_calls_come_in_order() -> None:
    text = (
        '<minimax:tool_call><invoke name="put"><parameter name="key">target</parameter>'
        '<parameter name="value">103</parameter></invoke><invoke name="get">'
        '<parameter name="key">a</parameter></invoke></minimax:tool_call>'
    )
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments) for c in parsed.calls] == [
        ("put", {"key": "target", "value": 103}),
        ("get", {"key": "a"}),
    ]
    assert parsed.text == ""


def test_two_kimi_calls_in_one_section_come_in_order() -> None:
    text = (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get:0"
        '<|tool_call_argument_begin|>{"key": "a"}<|tool_call_end|><|tool_call_begin|>'
        'functions.put:1<|tool_call_argument_begin|>{"key": "b", "value": "1"}'
        "<|tool_call_end|><|tool_calls_section_end|>"
    )
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [c.name for c in parsed.calls] == ["get", "put"]
    assert parsed.text == ""


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "<|channel|>commentary to=functions.get_order <|message|>order 7<|call|>",
            id="harmony, arguments not JSON",
        ),
        pytest.param(
            f"<|channel|>commentary to=functions.hammer <|message|>{ARGS}<|call|>",
            id="harmony, no such tool",
        ),
        pytest.param(
            "<|tool_call_begin|>functions.get_order:0<|tool_call_argument_begin|>{order: "
            "<|tool_call_end|>",
            id="Kimi, broken JSON",
        ),
        pytest.param(
            "<tool_call>hammer\n<arg_key>x</arg_key><arg_value>1</arg_value></tool_call>",
            id="GLM-4.5, no such tool",
        ),
        pytest.param("Action: get_order\nAction Input: order 7", id="ReAct, input not JSON"),
        pytest.param(
            '<invoke name="hammer"><parameter name="x">1</parameter></invoke>',
            id="invoke, no such tool",
        ),
        pytest.param(
            '<invoke name="get_order">order 7</invoke>', id="invoke, text that is no parameter"
        ),
    ],
)
def test_an_unreadable_template_call_is_reported_and_looks_like_a_call(text: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == [] and parsed.errors
    assert looks_like_tool_call(text, TOOLS)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("get_order(7)", id="positional pythonic"),
        pytest.param("[get_order(7), get(key)]", id="a list with positional and names"),
        pytest.param("get_order(order_id=oid)", id="a non-literal argument"),
        pytest.param("get_order\n{order_id: 7", id="GLM-4, broken JSON"),
        pytest.param("<|channel|>commentary to=functions.get_order", id="harmony cut short"),
        pytest.param("Action: get_order\n", id="ReAct without an input"),
        pytest.param("<minimax:tool_call>\n<invoke", id="MiniMax-M2 cut short"),
    ],
)
def test_unreadable_call_shapes_look_like_calls(text: str) -> None:
    assert parse_text_tool_calls(text, TOOLS).calls == []
    assert looks_like_tool_call(text, TOOLS)


@pytest.mark.parametrize(
    "text",
    [
        "I checked with get_order(order_id=7): it shipped with UPS, tracking 1Z999.",
        "get_order shows the parcel left on June 3 with UPS (1Z999).",
        "Next time you can run `get_order(7)` in the console.",
        '{"order_id": 7, "carrier": "UPS", "tracking": "1Z999"}',
        '```json\n{"order_id": 7, "carrier": "UPS"}\n```',
        "Done. I used get_order to look it up and put to store it.",
        "Action: Final Answer\nAction Input: your order shipped with UPS",
        "Action: I looked the order up; it shipped.",
        'Order 7:\n{"carrier": "UPS"}',
        "The get_order tool returned:\n" + ARGS,
        "Your parcel goes to=functions street, flat 7.",
        "print(get_order(7)) is how you would do it in Python; it shipped.",
        "Please send the invoice; I will invoke the refund policy if it arrived damaged.",
    ],
)
def test_honest_answers_stay_answers(text: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == [] and parsed.errors == []
    assert not looks_like_tool_call(text, TOOLS)
