"""The opt-in parser for tool calls written as text."""

from __future__ import annotations

import pytest

from mcpgym_clients.adapters.text_tool_calls import (
    ParsedToolCall,
    looks_like_tool_call,
    parse_text_tool_calls,
)

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
        pytest.param(
            "To store it yourself:\n```python\nput(key='a', value='1')\n```",
            id="python code shown beside prose",
        ),
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


# -- the forms real chat templates produce (issue 9 section 8) --------------------------


@pytest.mark.parametrize(
    ("text", "source", "rest"),
    [
        pytest.param(
            '{{"name": "get", "arguments": {"key": "a"}}}',
            "bare_json",
            "",
            id="doubled braces copied from the template, bare",
        ),
        pytest.param(
            '<tool_call>\n{{"name": "get", "arguments": {"key": "a"}}}\n</tool_call>',
            "hermes",
            "",
            id="doubled braces in a tool_call block",
        ),
        pytest.param(
            'Sure.\n```json\n{{"name": "get", "arguments": {{"key": "a"}}}}\n```',
            "fenced_json",
            "Sure.",
            id="every brace doubled, fenced",
        ),
        pytest.param(
            '<tools>\n{"name": "get", "arguments": {"key": "a"}}\n</tools>',
            "hermes",
            "",
            id="tools tags",
        ),
        pytest.param(
            'Let me look it up.\n{"name": "get", "arguments": {"key": "a"}}',
            "bare_json",
            "Let me look it up.",
            id="bare json on its own line",
        ),
        pytest.param(
            '{"type": "function", "name": "get", "parameters": {"key": "a"}}',
            "bare_json",
            "",
            id="bare json, llama style",
        ),
        pytest.param(
            '<function=get>{"key": "a"}</function>',
            "xml_function",
            "",
            id="llama 3.1 function tag",
        ),
        pytest.param(
            '<function name="get">{"key": "a"}</function>',
            "xml_function",
            "",
            id="function tag with a name attribute",
        ),
        pytest.param(
            "<tool_call>\n<function=get>\n<parameter=key>\na\n</parameter>\n</function>\n"
            "</tool_call>",
            "xml_function",
            "<tool_call>\n\n</tool_call>",
            id="qwen3-coder xml parameters",
        ),
        pytest.param(
            "<function name='get'><parameter name='key'>a</parameter></function>",
            "xml_function",
            "",
            id="xml parameters with name attributes",
        ),
    ],
)
def test_template_forms_are_calls(text: str, source: str, rest: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.source) for c in parsed.calls] == [
        ("get", {"key": "a"}, source)
    ]
    assert parsed.errors == []
    assert parsed.text == rest


def test_xml_parameters_keep_json_values_typed() -> None:
    text = (
        "<function=put><parameter=key>n</parameter><parameter=value>[1, 2]</parameter></function>"
    )
    (call,) = parse_text_tool_calls(text, TOOLS).calls
    assert call.arguments == {"key": "n", "value": [1, 2]}


@pytest.mark.parametrize(
    ("text", "looks"),
    [
        ("<tool_call>\nget(key='a')\n</tool_call>", True),
        ('I will call {"name": "get", "arguments": {"key": "a"} now', True),
        ("<function_call>get a</function_call>", True),
        ("<|python_tag|>get.call(key='a')", True),
        ("The order shipped on May 3; tracking number 1Z999.", False),
        ("I used get to read key a: it holds 1.", False),
        ('{"name": "Alice", "arguments": {}}', False),  # names no tool
    ],
)
def test_what_still_looks_like_a_call(text: str, looks: bool) -> None:
    assert looks_like_tool_call(text, TOOLS) is looks


# -- marker and pythonic forms (issue 9 section 8, second round) ------------------------


@pytest.mark.parametrize(
    ("text", "source", "rest"),
    [
        pytest.param(
            '<|python_tag|>{"name": "get", "parameters": {"key": "a"}}',
            "python_tag",
            "",
            id="llama 3.1 python_tag",
        ),
        pytest.param("[get(key='a')]", "pythonic", "", id="llama 3.2 pythonic list"),
        pytest.param("get(key='a')", "pythonic", "", id="a single pythonic call"),
        pytest.param(
            '[TOOL_CALLS][{"name": "get", "arguments": {"key": "a"}}]',
            "mistral",
            "",
            id="mistral TOOL_CALLS list",
        ),
        pytest.param('[TOOL_CALLS]get[ARGS]{"key": "a"}', "mistral", "", id="mistral v11 ARGS"),
        pytest.param(
            '<|tool_call|>[{"name": "get", "arguments": {"key": "a"}}]',
            "granite",
            "",
            id="granite tool_call token",
        ),
        pytest.param(
            'functools[{"name": "get", "arguments": {"key": "a"}}]', "phi", "", id="phi functools"
        ),
        pytest.param(
            '>>>all\nLooking it up.\n>>>get\n{"key": "a"}',
            "functionary",
            ">>>all\nLooking it up.",
            id="functionary",
        ),
        pytest.param(
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get\n```json\n"
            '{"key": "a"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
            "deepseek",
            "",
            id="deepseek v3",
        ),
        pytest.param(
            '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get<｜tool▁sep｜>{"key": "a"}'
            "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            "deepseek",
            "",
            id="deepseek v3.1",
        ),
        pytest.param(
            "Let me check.\n```tool_code\nget(key='a')\n```",
            "pythonic",
            "Let me check.",
            id="gemma tool_code fence",
        ),
        pytest.param(
            '{"type": "function", "function": '
            '{"name": "get", "arguments": "{\\"key\\": \\"a\\"}"}}',
            "bare_json",
            "",
            id="openai nested, arguments as a string",
        ),
        pytest.param(
            '<tool_call>{"type": "function", "function": '
            '{"name": "get", "arguments": {"key": "a"}}}</tool_call>',
            "hermes",
            "",
            id="openai nested in a tag, arguments as an object",
        ),
        pytest.param(
            '<TOOL_CALL>{"name": "get", "arguments": {"key": "a"}}</TOOL_CALL>',
            "hermes",
            "",
            id="upper-case tag",
        ),
        pytest.param(
            '< tool_call >{"name": "get", "arguments": {"key": "a"}}</ tool_call >',
            "hermes",
            "",
            id="tag with spaces",
        ),
    ],
)
def test_marker_and_pythonic_forms_are_calls(text: str, source: str, rest: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.source) for c in parsed.calls] == [
        ("get", {"key": "a"}, source)
    ]
    assert parsed.errors == []
    assert parsed.text == rest


def test_a_pythonic_list_holds_several_calls_with_literals() -> None:
    text = "[get(key='a'), put(key=\"b\", value=2.5), submit(ok=True, note=None, tags=['x'])]"
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments) for c in parsed.calls] == [
        ("get", {"key": "a"}),
        ("put", {"key": "b", "value": 2.5}),
        ("submit", {"ok": True, "note": None, "tags": ["x"]}),
    ]


def test_several_mistral_and_python_tag_calls() -> None:
    v11 = '[TOOL_CALLS]get[ARGS]{"key": "a"}[TOOL_CALLS]put[ARGS]{"key": "b", "value": "1"}'
    assert [c.name for c in parse_text_tool_calls(v11, TOOLS).calls] == ["get", "put"]
    tag = (
        '<|python_tag|>{"name": "get", "parameters": {"key": "a"}}; '
        '{"name": "put", "parameters": {"key": "b", "value": "1"}}'
    )
    assert [c.name for c in parse_text_tool_calls(tag, TOOLS).calls] == ["get", "put"]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("You can call get(key='a') yourself to check.", id="pythonic in prose"),
        pytest.param("Call get(key) to read it.", id="positional mention in prose"),
        pytest.param("[get('a')]", id="positional arguments"),
        pytest.param("[get(key=open('/etc/passwd'))]", id="non-literal argument"),
        pytest.param("[drop_tables(all=True)]", id="names no tool"),
        pytest.param("[get(**{'key': 'a'})]", id="double-star arguments"),
        pytest.param(
            "```python\nget(key='a')\n```\nThat reads the key.", id="python fence beside prose"
        ),
        pytest.param(">>>all\nThe value is 1.", id="functionary prose channel"),
        pytest.param('>>> json\n{"a": 1}', id="a REPL line quoted in an answer"),
        pytest.param("Use functools.reduce([1, 2]) here.", id="functools in prose"),
    ],
)
def test_prose_mentioning_a_function_is_not_run(text: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == []
    assert parsed.errors == []


@pytest.mark.parametrize(
    "text",
    [
        '[TOOL_CALLS][{"name": "drop", "arguments": {}}]',
        '<|python_tag|>{"name": "drop", "parameters": {}}',
        '[TOOL_CALLS]get[ARGS]{"key": ',
    ],
)
def test_a_marker_call_of_no_tool_or_broken_json_is_reported_not_run(text: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == []
    assert len(parsed.errors) == 1


@pytest.mark.parametrize(
    ("text", "looks"),
    [
        ("[TOOL_CALLS]get[ARGS]{broken", True),
        ("<|tool_call|>[{oops", True),
        ("functools[{oops", True),
        (">>>get\nnot json", True),
        ("<｜tool▁calls▁begin｜>garbled", True),
        ("```tool_code\nget('a')\n```", True),
        ("[get('a')]", True),  # positional: not run, but flagged
        ("You can call get(key='a') yourself.", False),
        ("Call get(key) to read it.", False),
        (">>>all\nThe value is 1.", False),
        (">>> print\n{'a': 1}", False),
    ],
)
def test_what_still_looks_like_a_marker_or_pythonic_call(text: str, looks: bool) -> None:
    assert looks_like_tool_call(text, TOOLS) is looks


# -- key-name variants, lenient JSON, python fences (issue 9 section 8, third round) ----


@pytest.mark.parametrize(
    "obj",
    [
        pytest.param('{"tool": "get", "arguments": {"key": "a"}}', id="tool + arguments"),
        pytest.param('{"tool": "get", "tool_input": {"key": "a"}}', id="tool + tool_input"),
        pytest.param('{"tool": "get", "parameters": {"key": "a"}}', id="tool + parameters"),
        pytest.param('{"function": "get", "args": {"key": "a"}}', id="function + args"),
        pytest.param('{"tool_name": "get", "input": {"key": "a"}}', id="tool_name + input"),
        pytest.param('{"name": "get", "args": {"key": "a"}}', id="name + args"),
        pytest.param(
            '{"action": "get", "action_input": {"key": "a"}}', id="langchain action + input"
        ),
        pytest.param(
            '{"type": "tool_use", "name": "get", "input": {"key": "a"}}', id="tool_use block"
        ),
    ],
)
@pytest.mark.parametrize(
    ("wrap", "source"),
    [
        ("{}", "bare_json"),
        ("```json\n{}\n```", "fenced_json"),
        ("<tool_call>{}</tool_call>", "hermes"),
        ("[TOOL_CALLS][{}]", "mistral"),
    ],
)
def test_call_objects_under_other_key_names_are_calls(obj: str, wrap: str, source: str) -> None:
    text = wrap.replace("{}", obj)
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.source) for c in parsed.calls] == [
        ("get", {"key": "a"}, source)
    ]
    assert parsed.errors == [] and parsed.text == ""


@pytest.mark.parametrize(
    ("text", "source"),
    [
        pytest.param(
            "<tool_call>{'name': 'get', 'arguments': {'key': 'a'}}</tool_call>",
            "hermes",
            id="single quotes in a tag",
        ),
        pytest.param(
            '<tool_call>{"name": "get", "arguments": {"key": "a",}}</tool_call>',
            "hermes",
            id="trailing comma in a tag",
        ),
        pytest.param(
            "```json\n{'name': 'get', 'arguments': {'key': 'a'},}\n```",
            "fenced_json",
            id="single quotes and trailing comma in a fence",
        ),
        pytest.param(
            "Looking it up.\n{'name': 'get', 'arguments': {'key': 'a'}}",
            "bare_json",
            id="single quotes on a line of its own",
        ),
        pytest.param(
            "[TOOL_CALLS][{'name': 'get', 'arguments': {'key': 'a'}},]",
            "mistral",
            id="single quotes after a marker",
        ),
        pytest.param(
            "<|python_tag|>{'name': 'get', 'parameters': {'key': 'a'}}",
            "python_tag",
            id="single quotes after python_tag",
        ),
    ],
)
def test_single_quotes_and_trailing_commas_are_read(text: str, source: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.source) for c in parsed.calls] == [
        ("get", {"key": "a"}, source)
    ]
    assert parsed.errors == []


def test_lenient_json_keeps_literal_types() -> None:
    text = "<tool_call>{'name': 'put', 'arguments': {'n': -3, 'ok': true, 'x': None, 'l': [1, 2,]}}"
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls[0].arguments == {"n": -3, "ok": True, "x": None, "l": [1, 2]}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Your order:\n{'id': 7, 'status': 'shipped'}", id="python dict answer"),
        pytest.param("{'name': 'Alice', 'arguments': {'age': 3}}", id="lenient, names no tool"),
        pytest.param('{"tool": "hammer", "input": {"size": 3}}', id="tool key naming no tool"),
        pytest.param(
            '{"name": "get", "tool": "put", "arguments": {}}', id="two name keys, untagged"
        ),
        pytest.param(
            '{"tool": "get", "arguments": {}, "args": {}}', id="two argument keys, untagged"
        ),
        pytest.param('{"action": "Final Answer", "action_input": "42"}', id="langchain final"),
        pytest.param('{"tool": "get"}', id="no arguments key, untagged"),
        pytest.param(
            "{'name': 'get', 'arguments': {'key': open('/etc/passwd')}}",
            id="lenient, not a literal",
        ),
        pytest.param("Note {it's fine} here.", id="braces and an apostrophe in prose"),
        pytest.param('Your order: {"id": 7, "status": "shipped"}', id="inline json answer"),
        pytest.param("I used get earlier and the key holds 1.", id="mentions a tool"),
    ],
)
def test_lenient_reading_never_makes_an_answer_a_call(text: str) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == [] and parsed.errors == []
    assert parsed.text == text.strip()


def test_a_tagged_lenient_body_that_is_not_a_literal_is_reported_not_run() -> None:
    text = "<tool_call>{'name': 'get', 'arguments': {'key': __import__('os')}}</tool_call>"
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == [] and len(parsed.errors) == 1


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        pytest.param("```python\nget(key='a')\n```", [("get", {"key": "a"})], id="python"),
        pytest.param("\n```py\nget(key='a')\n```\n", [("get", {"key": "a"})], id="py"),
        pytest.param(
            "```python\n[get(key='a'), put(key='b', value=1)]\n```",
            [("get", {"key": "a"}), ("put", {"key": "b", "value": 1})],
            id="a list of calls",
        ),
    ],
)
def test_a_python_fence_that_is_the_whole_message_is_a_call(
    text: str, calls: list[tuple[str, dict]]
) -> None:
    parsed = parse_text_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments) for c in parsed.calls] == calls
    assert {c.source for c in parsed.calls} == {"pythonic"} and parsed.text == ""


@pytest.mark.parametrize(
    "text",
    [
        "```python\nimport os\nget(key='a')\n```",
        "```python\ndrop_tables(all=True)\n```",
        "```python\nget(key=open('/etc/passwd'))\n```",
        "```python\nget('a')\n```",
        "Here is how:\n```python\nget(key='a')\n```",
    ],
)
def test_other_python_fences_are_not_run(text: str) -> None:
    assert parse_text_tool_calls(text, TOOLS).calls == []


@pytest.mark.parametrize(
    ("text", "looks"),
    [
        ('{"tool": "get", "arguments": {"key": ', True),
        ("{'function': 'get', 'args': {oops", True),
        ("```python\nget('a')\n```", True),  # positional: not run, but flagged
        ("```python\nget(key=os.environ)\n```", True),
        ('{"tool": "hammer", "input": {}}', False),
        ("Here is how:\n```python\nget('a')\n```", False),
    ],
)
def test_what_still_looks_like_a_call_under_other_keys_or_in_a_fence(
    text: str, looks: bool
) -> None:
    assert looks_like_tool_call(text, TOOLS) is looks
