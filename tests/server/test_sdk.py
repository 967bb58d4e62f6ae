"""The environment SDK: tool declaration, schemas, docstrings, variants, definition errors."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mcpgym_server import (
    Environment,
    EnvironmentDefinitionError,
    InvalidArgumentsError,
    Sandbox,
    Snapshot,
    UnknownBandError,
    UnknownTaskError,
)
from mcpgym_server._tools import build_tool_spec, parse_docstring


def test_docstring_becomes_description_and_arg_descriptions() -> None:
    def refund(sb: Sandbox, order_id: int, amount_cents: int, note: str | None = None) -> dict:
        """Refund part of an order.

        Args:
            order_id: the order number.
            amount_cents: amount in cents,
                strictly positive.
            note: optional note.

        Returns:
            The refund row.
        """
        return {}

    spec = build_tool_spec(refund, kind="write")
    assert spec.description == "Refund part of an order.\n\nReturns:\n    The refund row."
    props = spec.input_schema["properties"]
    assert props["order_id"] == {"description": "the order number.", "type": "integer"}
    assert props["amount_cents"]["description"] == "amount in cents, strictly positive."
    assert spec.input_schema["required"] == ["order_id", "amount_cents"]
    assert spec.input_schema["additionalProperties"] is False


def test_validate_names_every_bad_field() -> None:
    def t(sb: Sandbox, a: int, b: str) -> dict:
        """T."""
        return {}

    spec = build_tool_spec(t, kind="read")
    with pytest.raises(InvalidArgumentsError) as info:
        spec.validate({"a": "x", "c": 1})
    fields = sorted(e["field"] for e in info.value.errors)
    assert fields == ["a", "b", "c"]
    assert "`a`" in str(info.value) and "`b`" in str(info.value)
    with pytest.raises(InvalidArgumentsError, match="JSON object"):
        spec.validate(["not", "a", "dict"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def f(sb, x: int):\n    return 1", "docstring"),
        ("def f(sb, x):\n    '''Doc.'''", "type annotation"),
        ("def f(sb, *xs: int):\n    '''Doc.'''", r"\*args"),
        ("def f():\n    '''Doc.'''", "Sandbox"),
    ],
)
def test_bad_tool_declarations_are_refused(source: str, message: str) -> None:
    ns: dict = {}
    exec(source, ns)  # noqa: S102 - building test functions
    with pytest.raises(EnvironmentDefinitionError, match=message):
        build_tool_spec(ns["f"], kind="read")


def test_parse_docstring_without_args() -> None:
    assert parse_docstring("Just one line.") == ("Just one line.", {})
    assert parse_docstring(None) == ("", {})


def test_environment_rejects_duplicates_and_bad_names(toy_env: Environment) -> None:
    with pytest.raises(EnvironmentDefinitionError, match="declared twice"):

        @toy_env.tool(kind="read", name="get")
        def again(sb: Sandbox) -> dict:
            """Again."""
            return {}

    with pytest.raises(EnvironmentDefinitionError, match="lowercase"):
        Environment(
            name="Bad Name",
            version="1",
            snapshot=Snapshot("x", "y", None),
            clock_start=datetime(2026, 1, 1, tzinfo=UTC),
        )


def test_variants_are_deterministic_and_lookups_name_choices(toy_env: Environment) -> None:
    a = toy_env.variant("set-target", "easy", 3)
    toy_env._variant.cache_clear()
    b = toy_env.variant("set-target", "easy", 3)
    assert a == b and a is not b
    assert a.id == "toy/set-target@easy#3"
    with pytest.raises(UnknownTaskError, match="valid tasks: set-target"):
        toy_env.variant("nope", "easy", 0)
    with pytest.raises(UnknownBandError, match="valid bands: easy, medium"):
        toy_env.variant("set-target", "expert", 0)
    with pytest.raises(ValueError, match="non-negative"):
        toy_env.variant("set-target", "easy", -1)


def test_an_unknown_band_lists_the_bands_easiest_first_not_alphabetically() -> None:
    from mcpgym_server import load_environment

    env = load_environment("helpdesk")
    family = next(f for f in env.families.values() if len(f.bands) == 4)
    with pytest.raises(UnknownBandError) as raised:
        env.variant(family.name, "legendary", 0)
    assert str(raised.value).endswith("valid bands: easy, medium, hard, expert")
    assert raised.value.choices == ["easy", "medium", "hard", "expert"]


def test_submit_is_a_framework_tool(toy_env: Environment) -> None:
    assert toy_env.tools["submit"].framework
    assert set(toy_env.tools) == {"put", "get", "dump", "submit"}


@pytest.mark.parametrize(
    ("arguments", "field", "message"),
    [
        ({"n": 2**63}, "n", "64-bit"),
        ({"n": -(2**63) - 1}, "n", "64-bit"),
        ({"n": 1, "text": "x" * 20_001}, "text", "longer than 20000"),
        ({"n": 1, "text": "\ud800"}, "text", "not valid Unicode"),
        ({"n": 1, "ids": list(range(1001))}, "ids", "more than 1000 items"),
        ({"n": 1, "ids": [1, 2**64]}, "ids.1", "64-bit"),
    ],
)
def test_arguments_the_sandbox_cannot_store_are_refused_before_the_tool_runs(
    arguments: dict, field: str, message: str
) -> None:
    def t(sb: Sandbox, n: int, text: str = "", ids: list[int] | None = None) -> dict:
        """T."""
        raise AssertionError("never reached")

    spec = build_tool_spec(t, kind="read")
    with pytest.raises(InvalidArgumentsError) as info:
        spec.validate(arguments)
    assert [e["field"] for e in info.value.errors] == [field]
    assert message in info.value.errors[0]["message"]
    assert spec.validate({"n": 2**63 - 1, "text": "é" * 20_000})["n"] == 2**63 - 1


def test_lock_changes_with_everything_the_agent_reads(toy_env: Environment) -> None:
    from mcpgym_server import Resource, compute_lock

    before = compute_lock(toy_env)
    toy_env.add_resource(Resource("toy://policy", "policy", "rules", "text/plain", "be nice"))
    with_policy = compute_lock(toy_env)
    toy_env.add_resource(Resource("toy://policy", "policy", "rules", "text/plain", "be kind"))
    edited = compute_lock(toy_env)
    del toy_env._resources["toy://policy"]
    assert len({before, with_policy, edited}) == 3
    assert compute_lock(toy_env) == before
