"""§8 probe, in process: what the text-call parser and the looks-like-a-call test say of
each form in fake_openai.FORMS and UNREADABLE (helpdesk tool names).

Usage: ``uv run python adv/round9sys/p8_parse.py``
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import fake_openai as F  # noqa: E402
from mcpgym_clients.adapters.text_tool_calls import looks_like_tool_call, parse_text_tool_calls
from mcpgym_server import load_environment

names = list(load_environment("helpdesk").tools)
for label, forms in (("FORM", F.FORMS), ("UNREADABLE", F.UNREADABLE)):
    for k, text in forms.items():
        p = parse_text_tool_calls(text, names)
        calls = getattr(p, "calls", None)
        print(
            f"{label:10} {k:22} calls={str(calls)[:70]:72} looks_like={looks_like_tool_call(text, names)}"
        )

EXTRA = {
    "py_positional": "get_order(1)",
    "py_nonliteral": "get_order(order_id=oid)",
    "py_unclosed": "get_order(order_id=1",
    "py_noargs_unknown_kw": "get_order(id=1)",
    "py_list_positional": "[get_order(1)]",
    "py_fence_positional": "```python\nget_order(1)\n```",
    "harmony_no_channel": 'to=functions.get_order <|message|>{"order_id": 1}',
    "harmony_assistant_prefix": '<|start|>assistant<|channel|>commentary to=functions.get_order json<|message|>{"order_id":1}<|call|>',
    "kimi_no_section": '<|tool_call_begin|>functions.get_order:0<|tool_call_argument_begin|>{"order_id": 1}<|tool_call_end|>',
    "glm4_fn_newline_json": 'get_order\n{"order_id": 1}',
    "command_r_plain": 'Action: ```json\n[{"tool_name": "get_order", "parameters": {"order_id": 1}}]\n```',
    "json_call_with_id": '{"id": "call_1", "name": "get_order", "arguments": {"order_id": 1}}',
    "openai_tool_calls_json": '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{\\"order_id\\": 1}"}}]}',
    "hermes_list": '<tool_call>[{"name": "get_order", "arguments": {"order_id": 1}}]</tool_call>',
    "action_input_react": 'Action: get_order\nAction Input: {"order_id": 1}',
}
for k, text in EXTRA.items():
    p = parse_text_tool_calls(text, names)
    calls = getattr(p, "calls", None)
    print(
        f"EXTRA      {k:24} calls={str(calls)[:70]:72} looks_like={looks_like_tool_call(text, names)}"
    )

# honest final answers that mention tools or hold JSON: should be answers (not calls, and
# best not "looks like a call", which costs a nudge turn and may flag the episode)
HONEST = {
    "prose_mentions_call": "I checked with get_order(order_id=100525): it shipped with UPS, tracking 1Z999.",
    "json_summary_fence": '```json\n{"order_id": 100525, "carrier": "UPS", "tracking": "1Z999"}\n```',
    "json_summary_bare": '{"order_id": 100525, "carrier": "UPS", "tracking": "1Z999"}',
    "reply_quotes_tool_name": "Done. I used reply_to_customer to send the tracking number and close_ticket to close it.",
    "markdown_code_tool": "Next time you can run `get_order(100525)` in the console.",
    "answer_starts_with_tool_word": "get_order shows the parcel left on June 3 with UPS (1Z999).",
}
for k, text in HONEST.items():
    p = parse_text_tool_calls(text, names)
    calls = getattr(p, "calls", None)
    print(
        f"HONEST     {k:28} calls={str(calls)[:60]:62} looks_like={looks_like_tool_call(text, names)}"
    )
