"""Every built-in environment's tool list through every adapter, checked against the vendors'
rules (`vendor_rules`), plus schemas built to hit each conversion."""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any, Literal

import jsonschema
import pytest
from google.genai import types as genai_types
from pydantic import BaseModel, Field

from mcpgym_clients.adapters.anthropic import AnthropicAdapter
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.gemini import GeminiAdapter
from mcpgym_clients.adapters.openai_chat import OpenAIChatAdapter
from mcpgym_clients.adapters.openai_responses import OpenAIResponsesAdapter
from mcpgym_clients.adapters.schemas import (
    gemini_parameters,
    inline_refs,
    openai_parameters,
    strip_added_nulls,
)
from mcpgym_clients.protocol import ToolDef
from mcpgym_server import Environment, load_environment
from mcpgym_server.runtime import tool_definitions
from tests.toyenv import FAMILIES, make_toy_env

from .vendor_rules import anthropic_problems, gemini_problems, openai_problems


class Colour(IntEnum):
    RED = 1
    BLUE = 2


class Address(BaseModel):
    line1: str
    zip: str = Field(pattern=r"^\d{5}$")
    country: Literal["US"] = "US"


class Item(BaseModel):
    sku: str
    qty: int = Field(1, ge=1)
    tags: list[str] = []


class Hard(BaseModel):
    """Nested models (references), const, int enums, optional objects, free-form dicts."""

    address: Address
    billing: Address | None = None
    items: list[Item]
    colour: Colour = Colour.RED
    kind: Literal["gift"]
    email: str | None = Field(None, json_schema_extra={"format": "email"})
    extra: dict[str, int] = {}
    note: str | int | None = None


EXTRA_TOOLS = [
    ToolDef("hard", "Every conversion at once.", Hard.model_json_schema()),
    ToolDef("no_args", "A tool without arguments.", {"type": "object", "properties": {}}),
    ToolDef("bare", "An input schema with nothing in it.", {}),
    ToolDef(
        "either",
        "Top-level oneOf.",
        {
            "type": "object",
            "oneOf": [
                {"properties": {"id": {"type": "integer"}}, "required": ["id"]},
                {"properties": {"email": {"type": "string"}}, "required": ["email"]},
            ],
        },
    ),
]


@pytest.fixture(scope="module")
def tool_lists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[ToolDef]]:
    envs: dict[str, Environment] = {
        "helpdesk": load_environment("helpdesk"),
        "toy": make_toy_env(
            tmp_path_factory.mktemp("toy"), families=FAMILIES, extra_tool=True, list_keys=True
        ),
    }
    lists = {
        name: [ToolDef(t.name, t.description or "", t.input_schema) for t in tool_definitions(env)]
        for name, env in envs.items()
    }
    lists["synthetic"] = EXTRA_TOOLS
    return lists


def _adapters() -> dict[str, Any]:
    settings = ModelSettings("m")

    class Sdk:  # declare_tools needs no client; only the base URL is read
        base_url = "https://api.example"

        class messages:  # noqa: N801
            @staticmethod
            async def create(**kw: Any) -> None: ...

    return {
        "openai": OpenAIChatAdapter(Sdk(), settings),
        "openai-responses": OpenAIResponsesAdapter(Sdk(), settings),
        "anthropic": AnthropicAdapter(Sdk(), settings),
        "gemini": GeminiAdapter(Sdk(), settings),
    }


def test_every_tool_list_is_accepted_by_every_vendor(
    tool_lists: dict[str, list[ToolDef]],
) -> None:
    adapters = _adapters()
    problems: list[str] = []
    strict_count = 0
    for env, tools in tool_lists.items():
        assert tools, env
        for vendor, adapter in adapters.items():
            declared = adapter.declare_tools(tools)
            if vendor == "openai":
                items = [d["function"] for d in declared]
                check = openai_problems
            elif vendor == "openai-responses":
                items = declared
                check = openai_problems
            elif vendor == "anthropic":
                items, check = declared, anthropic_problems
            else:
                items, check = declared[0]["function_declarations"], gemini_problems
                for d in items:  # the SDK's own model accepts it
                    genai_types.FunctionDeclaration.model_validate(d)
            assert [i["name"] for i in items] == [t.name for t in tools]
            for item in items:
                strict_count += bool(item.get("strict"))
                problems += [f"{env}/{vendor}/{item['name']}: {p}" for p in check(item)]
    assert problems == []
    assert strict_count > 0


def test_helpdesk_tools_are_all_strict_and_reference_calls_round_trip() -> None:
    env = load_environment("helpdesk")
    tools = {t.name: t for t in tool_definitions(env)}
    strict = {name: openai_parameters(t.input_schema) for name, t in tools.items()}
    assert all(is_strict for _, is_strict in strict.values())
    for fam in env.families.values():
        for band in fam.bands:
            for call in env.variant(fam.name, band, 0).reference:
                params = strict[call.name][0]
                sent = {**dict.fromkeys(params["properties"]), **dict(call.arguments)}
                jsonschema.validate(sent, params)  # what a strict model may send
                assert strip_added_nulls(tools[call.name].input_schema, sent) == dict(
                    call.arguments
                )


def test_the_hard_schema_converts_for_each_vendor() -> None:
    schema = Hard.model_json_schema()
    params, strict = openai_parameters(schema)
    assert not strict  # dict[str, int] is a free-form object: sent non-strict, unchanged
    assert params == {**schema}
    inlined = inline_refs(schema)
    assert "$defs" not in json.dumps(inlined) and "$ref" not in json.dumps(inlined)
    g = gemini_parameters(schema)
    assert g is not None
    props = g["properties"]
    assert props["billing"]["nullable"] is True and props["billing"]["type"] == "OBJECT"
    assert props["kind"].items() >= {"type": "STRING", "enum": ["gift"], "format": "enum"}.items()
    assert props["colour"]["enum"] == ["1", "2"]  # ints become strings, noted in the text
    assert "format" not in props["email"] and props["email"]["nullable"] is True
    assert props["extra"]["type"] == "STRING"  # free-form object travels as JSON text
    assert props["items"]["items"]["properties"]["qty"]["type"] == "INTEGER"
    assert [b["type"] for b in props["note"]["anyOf"]] == ["STRING", "INTEGER"]
    assert gemini_parameters({"type": "object", "properties": {}}) is None


def test_strict_mode_accepts_optional_nested_objects_with_nulls() -> None:
    class Inner(BaseModel):
        a: int
        b: str | None = None

    class Outer(BaseModel):
        inner: Inner | None = None
        limit: int = 10

    schema = Outer.model_json_schema()
    params, strict = openai_parameters(schema)
    assert strict and openai_problems({"parameters": params, "strict": True}) == []
    sent = {"inner": {"a": 1, "b": None}, "limit": None}
    jsonschema.validate(sent, params)
    # leaving b or limit out means the same as the null strict mode made the model write
    assert strip_added_nulls(schema, sent) == {"inner": {"a": 1}}

    class Choice(BaseModel):
        size: int | None = 5  # null is a choice of its own here: kept

    assert strip_added_nulls(Choice.model_json_schema(), {"size": None}) == {"size": None}
