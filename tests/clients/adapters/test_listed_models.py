"""An unknown model's 404 names the models the server lists (fix28, T12).

Before, ``--model llama3`` against an Ollama-like server answered ``model API answered 404:
model "llama3" not found, try pulling it first``: clear, but not which names would do,
though the preflight had just read them from ``GET /models``.
"""

from __future__ import annotations

import json

import httpx
import pytest

from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient, listed_model_ids
from mcpgym_clients.errors import ModelAPIError

NOT_FOUND = {"error": {"message": 'model "llama3" not found, try pulling it first'}}


def _server(request: httpx.Request) -> httpx.Response:
    if request.method == "GET":
        return httpx.Response(200, json={"data": [{"id": "qwen3:8b"}, {"id": "gemma3:4b"}]})
    if json.loads(request.content).get("model") == "qwen3:8b":
        return httpx.Response(404, json={"error": {"message": "no such route"}})
    return httpx.Response(404, json=NOT_FOUND)


@pytest.mark.anyio
async def test_an_unknown_models_404_names_the_listed_models() -> None:
    client = ChatCompletionsClient(
        base_url="http://local.test/v1", transport=httpx.MockTransport(_server), stream=False
    )
    try:
        assert await client.check() == 200
        with pytest.raises(ModelAPIError) as info:
            await client.create({"model": "llama3", "messages": []})
        assert str(info.value).endswith(
            "not found, try pulling it first (the server lists: qwen3:8b, gemma3:4b)"
        )
        # a listed model's 404 is another problem: no list
        with pytest.raises(ModelAPIError) as info:
            await client.create({"model": "qwen3:8b", "messages": []})
        assert "the server lists" not in str(info.value)
    finally:
        await client.aclose()


def test_only_the_openai_shape_of_models_is_read() -> None:
    assert listed_model_ids('{"data": [{"id": "a"}, {"x": 1}, "b"]}') == ["a"]
    assert listed_model_ids('{"models": []}') == [] and listed_model_ids("<html>") == []
