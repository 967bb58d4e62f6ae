"""Wire details: Responses records no seed, Gemini answers with the call id it sent and
round-trips nested free-form objects and integer enums, Chat Completions arguments that
are not an object are answered as an error."""

from __future__ import annotations

from typing import Any

from mcpgym_clients.adapters.base import FunctionCall
from mcpgym_clients.adapters.chat_completions import parse_response
from mcpgym_clients.adapters.schemas import gemini_parameters, gemini_restore
from mcpgym_clients.agents.model import _decode_arguments
from mcpgym_clients.protocol import ToolDef, ToolOutcome

from .conftest import Tape, make_agent


def test_openai_responses_records_no_seed_it_never_sends() -> None:
    agent = make_agent("openai-responses", Tape("responses_parallel.json"), seed=7)
    assert agent.settings()["seed"] is None


def test_gemini_function_responses_carry_the_call_id_the_api_sent() -> None:
    adapter = make_agent("gemini", Tape("gemini_parallel.json")).adapter
    ok = ToolOutcome(False, "{}", {"value": 1})
    sent = adapter.result_entries([(FunctionCall("fc-abc", "get", "{}"), ok)])
    made_up = adapter.result_entries([(FunctionCall("gemini_0", "get", "{}"), ok)])
    assert sent[0]["parts"][0]["function_response"]["id"] == "fc-abc"
    assert "id" not in made_up[0]["parts"][0]["function_response"]


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "priority": {"enum": [1, 2, 3]},
        "flag": {"enum": [True, False, "maybe"]},
        "meta": {"type": "object"},
        "nested": {
            "type": "object",
            "properties": {
                "extra": {"type": "object", "additionalProperties": True},
                "levels": {"type": "array", "items": {"enum": [10, 20]}},
            },
        },
        "maybe_obj": {"anyOf": [{"type": "object"}, {"type": "null"}]},
    },
}


def test_gemini_nested_free_form_objects_and_integer_enums_round_trip() -> None:
    declared = gemini_parameters(SCHEMA)
    assert declared is not None
    assert declared["properties"]["nested"]["properties"]["extra"]["type"] == "STRING"
    sent = {
        "priority": "2",
        "flag": "True",
        "meta": '{"a": 1}',
        "nested": {"extra": '{"b": [1, 2]}', "levels": ["20", "10"]},
        "maybe_obj": '{"c": null}',
    }
    assert gemini_restore(SCHEMA, sent) == {
        "priority": 2,
        "flag": True,
        "meta": {"a": 1},
        "nested": {"extra": {"b": [1, 2]}, "levels": [20, 10]},
        "maybe_obj": {"c": None},
    }
    adapter = make_agent("gemini", Tape("gemini_parallel.json")).adapter
    tool = ToolDef("t", "", SCHEMA)
    assert adapter.prepare_arguments(tool, sent)["nested"]["levels"] == [20, 10]
    # what cannot be restored is left for the server's validation to answer
    assert gemini_restore(SCHEMA, {"priority": "9", "meta": "not json"}) == {
        "priority": "9",
        "meta": "not json",
    }


def test_chat_completions_arguments_that_are_not_an_object_are_answered_as_an_error() -> None:
    def reply(arguments: Any) -> dict[str, Any]:
        call = {"id": "c1", "type": "function", "function": {"name": "get"}}
        if arguments is not ...:
            call["function"]["arguments"] = arguments
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return {"choices": [{"message": message, "finish_reason": "tool_calls"}]}

    for bad in ([1, 2], 42, True):
        (call,) = parse_response(reply(bad), turn=1).tool_calls
        args, outcome = _decode_arguments(call)
        assert outcome is not None and "must be a JSON object" in outcome.text
    for fine, expected in (({"key": "a"}, {"key": "a"}), (None, {}), (..., {})):
        (call,) = parse_response(reply(fine), turn=1).tool_calls
        assert _decode_arguments(call) == (expected, None)
