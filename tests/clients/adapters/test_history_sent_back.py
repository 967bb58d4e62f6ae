"""History entries every vendor accepts back: no whitespace-only text blocks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcpgym_clients.adapters.base import FunctionCall, ModelTurn

from .conftest import ADAPTERS, PREFIX, Tape, make_agent

CALL = FunctionCall("call_1", "get", '{"key": "a"}')

NATIVE: dict[str, Any] = {
    "anthropic": [
        {"type": "text", "text": "\n\n  "},
        {"type": "tool_use", "id": "call_1", "name": "get", "input": {"key": "a"}},
    ],
    "gemini": {"role": "model", "parts": [{"text": " \n"}, {"functionCall": {"name": "get"}}]},
    "openai-responses": [
        {"type": "message", "content": [{"type": "output_text", "text": "\n "}]},
        {"type": "function_call", "call_id": "call_1", "name": "get", "arguments": "{}"},
    ],
}


def texts(entries: list[Any]) -> list[str]:
    """Every text value anywhere in ``entries``."""
    found: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k in ("text", "content") and isinstance(x, str):
                    found.append(x)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(entries)
    return found


@pytest.mark.parametrize("vendor", ADAPTERS)
@pytest.mark.parametrize("with_native", [False, True])
def test_whitespace_only_text_is_never_sent_back(vendor: str, with_native: bool) -> None:
    adapter = make_agent(vendor, Tape(f"{PREFIX[vendor]}_parallel.json")).adapter
    native = NATIVE.get(vendor) if with_native else None
    turn = ModelTurn("\n\n  ", [CALL], "tool_calls", native=json.loads(json.dumps(native)))
    entries = adapter.assistant_entries(turn)
    assert entries, "the call itself is kept"
    assert all(t.strip() for t in texts(entries)), entries
