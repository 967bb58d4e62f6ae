"""Send a 3-message history with a call-only assistant turn in three content forms."""

import json
import sys
import time

import httpx

url = sys.argv[1]
tool = {
    "type": "function",
    "function": {
        "name": "get_order",
        "description": "Look up an order.",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "integer"}},
            "required": ["order_id"],
        },
    },
}
call = [
    {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_order", "arguments": '{"order_id": 7}'},
    }
]
for label, extra in [("omitted", {}), ("null", {"content": None}), ("empty", {"content": ""})]:
    msgs = [
        {"role": "system", "content": "You help."},
        {"role": "user", "content": "Status of order 7?"},
        {"role": "assistant", **extra, "tool_calls": call},
        {"role": "tool", "tool_call_id": "call_1", "content": "order 7: shipped, tracking 1Z999"},
    ]
    body = {"model": "qwen", "messages": msgs, "tools": [tool], "max_tokens": 24, "temperature": 0}
    t = time.time()
    r = httpx.post(url + "/chat/completions", json=body, timeout=600)
    print(
        json.dumps(
            {
                "form": label,
                "seconds": round(time.time() - t, 1),
                "request": body,
                "status": r.status_code,
                "body": r.text,
            }
        )
    )
