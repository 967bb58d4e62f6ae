"""What each adapter sends: tool declarations, result pairing, history, settings, auth."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx2
import pytest

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.openai_chat import chat_turn
from mcpgym_clients.agents.vendors import VENDORS, build_adapter
from mcpgym_clients.errors import ModelAPIError

from ..fakes import FakeEpisode
from .conftest import CASSETTES, MODEL, Tape, make_agent

pytestmark = pytest.mark.anyio


async def run(vendor: str, cassette: str, **kw: Any) -> tuple[Tape, Any, FakeEpisode]:
    tape = Tape(cassette)
    agent = make_agent(vendor, tape, **kw)
    episode = FakeEpisode()
    with anyio.fail_after(10):
        result = await agent.run(episode.context())
    await agent.aclose()
    return tape, result, episode


async def test_openai_sends_strict_tools_and_answers_every_call_by_id() -> None:
    tape, result, _ = await run("openai", "openai_parallel.json", max_tokens=500, seed=7)
    method, url, headers, first = tape.requests[0]
    assert (method, url) == ("POST", "https://api.openai.com/v1/chat/completions")
    assert headers["authorization"] == "Bearer sk-test"
    assert first["max_completion_tokens"] == 500 and first["seed"] == 7
    put = next(t["function"] for t in first["tools"] if t["function"]["name"] == "put")
    assert put["strict"] is True
    assert put["parameters"]["additionalProperties"] is False
    submit = next(t["function"] for t in first["tools"] if t["function"]["name"] == "submit")
    # optional -> required and nullable (strict mode has no optional properties)
    assert submit["parameters"]["required"] == ["answer"]
    assert submit["parameters"]["properties"]["answer"]["type"] == ["string", "null"]
    second = tape.bodies[1]["messages"]
    calls = second[2]["tool_calls"]
    assert "content" not in second[2]  # call-only: no content key (never null)
    assert [m["tool_call_id"] for m in second[3:]] == [c["id"] for c in calls]
    assert second[4]["content"].startswith("Error")
    assert result.usage["cached_tokens"] == 256 + 384


async def test_openai_responses_pairs_function_call_outputs_and_drops_empty_text() -> None:
    tape, _, _ = await run("openai-responses", "responses_parallel.json", max_tokens=300)
    first, _, third = tape.bodies
    assert tape.requests[0][1] == "https://api.openai.com/v1/responses"
    assert first["instructions"].endswith("A key-value store.")
    assert first["max_output_tokens"] == 300 and "seed" not in first
    assert {t["name"]: t["strict"] for t in first["tools"]} == {
        "get": True,
        "put": True,
        "submit": True,
    }
    items = third["input"]
    kinds = [i.get("type", i.get("role")) for i in items]
    # the empty message of turn 2 is not sent back
    assert kinds == ["user"] + ["function_call"] * 2 + ["function_call_output"] * 2 + [
        "function_call",
        "function_call_output",
    ]
    assert [i["call_id"] for i in items[1:3]] == [i["call_id"] for i in items[3:5]]
    assert items[4]["output"].startswith("Error")


async def test_anthropic_sends_all_results_in_one_user_message_with_is_error() -> None:
    tape, result, _ = await run("anthropic", "anthropic_parallel.json", seed=3)
    method, url, headers, first = tape.requests[0]
    assert url == "https://api.anthropic.com/v1/messages"
    # this SDK version sends the key as a bearer token; older ones as x-api-key
    assert "sk-test" in headers.get("x-api-key", headers.get("authorization", ""))
    assert first["max_tokens"] == 4096 and "seed" not in first
    assert first["system"].endswith("A key-value store.")
    assert all(t["input_schema"]["type"] == "object" for t in first["tools"])
    second, third = tape.bodies[1]["messages"], tape.bodies[2]["messages"]
    results = second[-1]
    assert results["role"] == "user"
    assert [b["type"] for b in results["content"]] == ["tool_result", "tool_result"]
    uses = [b for b in second[-2]["content"] if b["type"] == "tool_use"]
    assert [b["tool_use_id"] for b in results["content"]] == [b["id"] for b in uses]
    assert "is_error" not in results["content"][0]
    assert results["content"][1]["is_error"] is True
    # turn 2 began with an empty text block: never sent back
    assert [b["type"] for b in third[-2]["content"]] == ["tool_use"]
    assert result.usage["cached_tokens"] == 512 + 768
    assert result.usage["prompt_tokens"] == 812 + 1003 + 512 + 1121 + 768
    settings = make_agent("anthropic", Tape("anthropic_refusal.json"), seed=3).settings()
    assert settings["seed"] is None and settings["max_tokens"] == 4096


async def test_gemini_answers_by_name_in_order_and_keeps_thought_signatures() -> None:
    tape, result, _ = await run("gemini", "gemini_parallel.json", seed=5, max_tokens=256)
    method, url, headers, first = tape.requests[0]
    assert url.endswith("/models/gemini-2.5-flash:generateContent")
    assert headers["x-goog-api-key"] == "sk-test"
    assert first["generationConfig"] == {"seed": 5, "maxOutputTokens": 256}
    decls = first["tools"][0]["functionDeclarations"]
    assert decls[0]["parameters"]["type"] == "OBJECT"
    contents = tape.bodies[2]["contents"]
    model_turn, answers = contents[1], contents[2]
    assert model_turn["role"] == "model"
    assert "thoughtSignature" in model_turn["parts"][0]
    assert answers["role"] == "user"
    responses = [p["functionResponse"] for p in answers["parts"]]
    assert [r["name"] for r in responses] == ["get", "get"]
    assert responses[0]["response"] == {"output": {"key": "a", "value": "1"}}
    assert set(responses[1]["response"]) == {"error"}
    # turn 2 began with an empty text part: never sent back
    assert [list(p) for p in contents[3]["parts"]] == [["functionCall", "thoughtSignature"]]
    assert result.usage["reasoning_tokens"] == 95 + 40
    assert result.usage["completion_tokens"] == 30 + 95 + 24 + 40 + 25


async def test_repeated_call_ids_across_turns_get_fresh_ones() -> None:
    tape, result, episode = await run("openai-compatible", "local_repeated_ids.json")
    assert result.termination == "completed"
    assert len(episode.calls) == 3
    third = tape.bodies[2]["messages"]
    turn1_ids = [c["id"] for c in third[2]["tool_calls"]]
    turn2_ids = [c["id"] for c in third[5]["tool_calls"]]
    assert turn1_ids == ["call_0", "call_1"]
    assert turn2_ids == ["call_0_t2_1"]  # "call_0" again would pair with turn 1's result
    assert third[6]["tool_call_id"] == "call_0_t2_1"
    assert "content" not in third[2]  # "" from the server is never sent back as text
    ids = [m["tool_call_id"] for m in result.transcript if m["role"] == "tool"]
    assert len(ids) == len(set(ids)) == 3
    assert json.dumps(result.transcript)  # JSON-ready


async def test_a_malformed_gemini_call_is_reported_to_the_model_which_goes_on() -> None:
    tape, result, episode = await run("gemini", "gemini_malformed.json")
    assert result.termination == "completed" and episode.calls == []
    assert result.transcript[2]["mcpgym_finish_reason"] == "MALFORMED_FUNCTION_CALL"
    feedback = tape.bodies[1]["contents"][-1]
    assert feedback["role"] == "user"
    assert "MALFORMED_FUNCTION_CALL" in feedback["parts"][0]["text"]


def _answering(routes: dict[str, tuple[int, Any]], seen: list[str]) -> httpx2.MockTransport:
    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(f"{request.method} {request.url.path}")
        for suffix, (status, body) in routes.items():
            if request.url.path.endswith(suffix):
                return httpx2.Response(status, json=body)
        return httpx2.Response(404, json={"error": {"message": "Not Found"}})

    return httpx2.MockTransport(handler)


@pytest.mark.parametrize(
    ("vendor", "routes", "expected", "status"),
    [
        ("openai", {}, ["GET /v1/models", "POST /v1/chat/completions"], 404),
        ("openai-responses", {}, ["GET /v1/models", "POST /v1/responses"], 404),
        (
            "openai",
            {"/models": (401, {"error": {"message": "Incorrect API key provided"}})},
            ["GET /v1/models"],
            401,
        ),
        ("anthropic", {}, ["GET /v1/models"], 404),
        ("gemini", {}, ["GET /v1beta/models/gemini-2.5-flash"], 404),
        ("openai", {"/models": (200, {"object": "list", "data": []})}, ["GET /v1/models"], None),
    ],
)
async def test_the_sdk_preflight_catches_a_wrong_path_or_key(
    vendor: str, routes: dict[str, Any], expected: list[str], status: int | None
) -> None:
    seen: list[str] = []
    adapter = build_adapter(
        VENDORS[vendor],
        ModelSettings(MODEL[vendor]),
        api_key="sk-test",
        base_url=None,
        transport=_answering(routes, seen),
    )
    with anyio.fail_after(10):
        if status is None:
            await adapter.check()
        else:
            with pytest.raises(ModelAPIError) as info:
                await adapter.check()
            assert info.value.status == status
    await adapter.aclose()
    assert [s.replace("/v1/", "/v1beta/") if vendor == "gemini" else s for s in seen] == expected


def test_cost_is_recorded_where_the_api_reports_it() -> None:
    # OpenRouter and LiteLLM proxies add usage.cost (USD) to Chat Completions responses
    data = json.loads((CASSETTES / "local_repeated_ids.json").read_text())["interactions"][2]
    body = data["response"]
    assert "cost_usd" not in chat_turn(body).usage
    body["usage"]["cost"] = 0.000412
    usage = chat_turn(body).usage
    assert usage["cost_usd"] == 0.000412 and usage["total_tokens"] == 470
