"""One tiny request to a chatml-function-calling server: record its native tool_calls answer."""

import json
import sys
import time

import httpx

url = sys.argv[1]
tool = {
    "type": "function",
    "function": {
        "name": "get",
        "description": "Read a key.",
        "parameters": {
            "type": "object",
            "properties": {"key": {"type": "string"}},
            "required": ["key"],
        },
    },
}
msgs = [
    {"role": "system", "content": "Call tools to answer."},
    {"role": "user", "content": "What does key a hold?"},
]
body = {
    "model": "qwen",
    "messages": msgs,
    "tools": [tool],
    "max_tokens": 40,
    "temperature": 0,
    "tool_choice": {"type": "function", "function": {"name": "get"}},
}
t = time.time()
r = httpx.post(url + "/chat/completions", json=body, timeout=900)
print(
    json.dumps(
        {
            "seconds": round(time.time() - t, 1),
            "request": body,
            "status": r.status_code,
            "response": r.json(),
        }
    )
)
