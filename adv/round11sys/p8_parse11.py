"""§8 probe, in process (round 11): new tool-call forms from other chat templates, and final
answers that only look like calls. Prints what the text-call parser and the looks-like-a-call
test say of each (helpdesk tool names).

Usage: ``uv run python adv/round11sys/p8_parse11.py``
Kinds: FORM (a real call; expected recovered), UNREADABLE (a call the parser cannot read;
expected looks_like True), HONEST (a final answer; expected no call and looks_like False).
"""

from __future__ import annotations

from mcpgym_clients.adapters.text_tool_calls import looks_like_tool_call, parse_text_tool_calls
from mcpgym_server import load_environment

J = '{"order_id": 1}'
FORMS = {
    # Llama 3.1/3.2 built-in tool form
    "llama3_python_tag_json": '<|python_tag|>{"name": "get_order", "parameters": {"order_id": 1}}',
    "llama3_python_tag_eom": '<|python_tag|>{"name": "get_order", "parameters": {"order_id": 1}}<|eom_id|>',
    "llama3_python_tag_call": "<|python_tag|>get_order.call(order_id=1)",
    "llama3_python_tag_pythonic": "<|python_tag|>get_order(order_id=1)",
    "llama3_json_parameters": '{"name": "get_order", "parameters": {"order_id": 1}}',
    "llama3_type_function_params": '{"type": "function", "name": "get_order", "parameters": {"order_id": 1}}',
    "llama3_function_tag": f"<function=get_order>{J}</function>",
    "llama4_pythonic_list": "[get_order(order_id=1)]",
    # Mistral
    "mistral_v3": f'[TOOL_CALLS] [{{"name": "get_order", "arguments": {J}}}]',
    "mistral_v3_nospace": f'[TOOL_CALLS][{{"name": "get_order", "arguments": {J}}}]',
    "mistral_v7_id": f'[TOOL_CALLS][{{"name": "get_order", "arguments": {J}, "id": "abc123def"}}]',
    "mistral_v11_args": f"[TOOL_CALLS]get_order[ARGS]{J}",
    "mistral_v13_callid": f"[TOOL_CALLS]get_order[CALL_ID]abc123def[ARGS]{J}",
    "mistral_eos": f'[TOOL_CALLS] [{{"name": "get_order", "arguments": {J}}}]</s>',
    # Hermes / Qwen
    "hermes": f'<tool_call>\n{{"name": "get_order", "arguments": {J}}}\n</tool_call>',
    "hermes_two": f'<tool_call>{{"name": "get_order", "arguments": {J}}}</tool_call>\n<tool_call>{{"name": "get_policy", "arguments": {{}}}}</tool_call>',
    "hermes_im_end": f'<tool_call>\n{{"name": "get_order", "arguments": {J}}}\n</tool_call><|im_end|>',
    "hermes_single_quotes": "<tool_call>\n{'name': 'get_order', 'arguments': {'order_id': 1}}\n</tool_call>",
    "hermes_trailing_comma": '<tool_call>\n{"name": "get_order", "arguments": {"order_id": 1,},}\n</tool_call>',
    "hermes_parameters_key": f'<tool_call>{{"name": "get_order", "parameters": {J}}}</tool_call>',
    # Functionary / FireFunction / Granite / Phi / InternLM / Nemotron / xLAM / DeepSeek
    "functionary_v3": f">>>get_order\n{J}",
    "functionary_v31": f"<function=get_order>{J}</function>",
    "firefunction": f'functools[{{"name": "get_order", "arguments": {J}}}]',
    "granite": f'<|tool_call|>[{{"name": "get_order", "arguments": {J}}}]',
    "granite_plain": f'<tool_call>[{{"name": "get_order", "arguments": {J}}}]',
    "phi4_functools": f'functools[{{"name": "get_order", "arguments": {J}}}]',
    "phi4_tool_call_tag": f'<|tool_call|>{{"name": "get_order", "arguments": {J}}}<|/tool_call|>',
    "internlm2": f'<|action_start|><|plugin|>\n{{"name": "get_order", "parameters": {J}}}<|action_end|>',
    "nemotron_toolcall": f'<TOOLCALL>[{{"name": "get_order", "arguments": {J}}}]</TOOLCALL>',
    "xlam": f'{{"tool_calls": [{{"name": "get_order", "arguments": {J}}}]}}',
    "deepseek_v3": (
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_order\n"
        f"```json\n{J}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    ),
    "deepseek_r1_think": (
        "<think>I need the order.</think>\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_order\n"
        f"```json\n{J}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    ),
    "minimax_m2": (
        '<minimax:tool_call>\n<invoke name="get_order">\n<parameter name="order_id">1</parameter>\n'
        "</invoke>\n</minimax:tool_call>"
    ),
    "minimax_m1": f'<tool_calls>\n{{"name": "get_order", "arguments": {J}}}\n</tool_calls>',
    "seed_oss": (
        "<seed:tool_call>\n<function=get_order>\n<parameter=order_id>1</parameter>\n</function>\n"
        "</seed:tool_call>"
    ),
    "claude_xml_invoke": (
        '<function_calls>\n<invoke name="get_order">\n<parameter name="order_id">1</parameter>\n'
        "</invoke>\n</function_calls>"
    ),
    "antml_style_invoke": '<invoke name="get_order"><parameter name="order_id">1</parameter></invoke>',
    "openai_fn_call_obj": '{"function_call": {"name": "get_order", "arguments": "{\\"order_id\\": 1}"}}',
    "openai_tool_calls_list": (
        '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", '
        '"arguments": "{\\"order_id\\": 1}"}}]}'
    ),
    "gemini_function_call": f'{{"functionCall": {{"name": "get_order", "args": {J}}}}}',
    "fence_tool_call_lang": f'```tool_call\n{{"name": "get_order", "arguments": {J}}}\n```',
    "fence_python_kw": "```python\nget_order(order_id=1)\n```",
    "json_name_input": f'{{"name": "get_order", "input": {J}}}',
    "json_tool_name_key": f'{{"tool_name": "get_order", "tool_input": {J}}}',
    "json_action": f'{{"action": "get_order", "action_input": {J}}}',
    "cohere_action_json": f'Action: ```json\n[{{"tool_name": "get_order", "parameters": {J}}}]\n```',
    "gptoss_analysis_then_call": (
        "<|channel|>analysis<|message|>Need order.<|end|><|start|>assistant<|channel|>commentary "
        f"to=functions.get_order <|constrain|>json<|message|>{J}<|call|>"
    ),
    "kimi_k2_two": (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_order:0<|tool_call_argument_begin|>"
        f"{J}<|tool_call_end|><|tool_call_begin|>functions.get_policy:1<|tool_call_argument_begin|>{{}}"
        "<|tool_call_end|><|tool_calls_section_end|>"
    ),
    "fullwidth_brace_hermes": '<tool_call>｛"name": "get_order", "arguments": {"order_id": 1}｝</tool_call>',
    "zero_width_name": '<tool_call>{"name": "get_\u200border", "arguments": {"order_id": 1}}</tool_call>',
}
UNREADABLE = {
    "u_python_tag_broken": '<|python_tag|>{"name": "get_order", "parameters": {"order_id": 1',
    "u_mistral_broken": '[TOOL_CALLS] [{"name": "get_order", "arguments": {"order_id": 1',
    "u_mistral_args_broken": "[TOOL_CALLS]get_order[ARGS]{order_id: one}",
    "u_functionary_broken": ">>>get_order\n{order_id=1}",
    "u_granite_broken": '<|tool_call|>[{"name": "get_order", "arguments": {',
    "u_minimax_broken": '<minimax:tool_call>\n<invoke name="get_order">\n<parameter name="order_id">1',
    "u_deepseek_broken": "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_order\n```json\n{order",
    "u_invoke_broken": '<invoke name="get_order"><parameter name="order_id">1',
    "u_toolcall_nemotron_broken": '<TOOLCALL>[{"name": "get_order", "arguments": {"order_id": ]</TOOLCALL>',
    "u_only_tag": "<tool_call>",
    "u_python_tag_only": "<|python_tag|>",
}
HONEST = {
    "final_json_order": '{"order_id": 1, "status": "shipped", "eta": "2026-12-09"}',
    "final_mentions_python_tag": "I looked up your order; it shipped today. (Internal: no <|python_tag|> calls needed.)",
    "final_quotes_function_name": "The get_order tool shows order 1 shipped on Monday; it should arrive Thursday.",
    "final_markdown_list": "- Order 1: shipped\n- ETA: Thursday\n\nLet me know if there's anything else.",
    "final_code_sample": "To track it yourself, open the app and tap Orders > 1.",
    "final_name_arguments_words": 'Name: "Order 1"; arguments from the customer were considered.',
    "final_json_reply_field": '{"reply": "Your order 1 shipped today and arrives Thursday."}',
    "final_action_word": "Action: none needed. Your order 1 shipped today.",
}


def main() -> None:
    """Print one line per form: label, name, parsed calls, looks-like, and OK/FINDING."""
    names = list(load_environment("helpdesk").tools)
    for label, forms in (("FORM", FORMS), ("UNREADABLE", UNREADABLE), ("HONEST", HONEST)):
        for k, text in forms.items():
            p = parse_text_tool_calls(text, names)
            calls = list(getattr(p, "calls", None) or [])
            looks = looks_like_tool_call(text, names)
            got = [(c.name, c.arguments) for c in calls]
            if label == "FORM":
                ok = any(n == "get_order" and a == {"order_id": 1} for n, a in got)
                verdict = "ok" if ok else ("told(looks)" if looks else "FINDING:unflagged")
            elif label == "UNREADABLE":
                verdict = "ok" if (looks or got) else "FINDING:unflagged"
            else:
                verdict = "ok" if not got and not looks else "FINDING:honest-taken"
            print(f"{label:10} {k:30} {verdict:18} calls={str(got)[:60]:62} looks={looks}")


if __name__ == "__main__":
    main()
