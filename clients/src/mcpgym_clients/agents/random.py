"""The `random` agent: a seeded monkey that makes schema-valid calls to random tools.

It is a control, not a baseline anyone should beat by much: ``mcpgym validate`` requires
it to pass fewer than 5% of the variants (a rubric a random agent passes measures
nothing), and its runs are control runs for the vacuous-check condition. To reach real
entities rather than only "not found" errors it draws integer and text arguments mostly
from what the episode has shown it (numbers and words of the instruction and of earlier
results), as random testers of stateful APIs do (QuickCheck-style state machine testing:
Claessen and Hughes, ICFP 2000; RESTler, Atlidakis et al., ICSE 2019).

Its choices depend only on ``seed``, the variant id and the results it gets, so two runs
of the same variant on a deterministic environment make the same calls.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from mcpgym_clients.errors import InfraError
from mcpgym_clients.protocol import (
    Agent,
    AgentResult,
    EpisodeContext,
    assistant_call_message,
    tool_message,
)

_INT = re.compile(r"\d{1,12}")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,30}")
_POOL_LIMIT = 400


class _Pools:
    """Integers and words seen so far in the episode."""

    def __init__(self) -> None:
        self.ints: list[int] = []
        self.words: list[str] = []

    def harvest(self, value: Any) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int):
            self._add(self.ints, value)
        elif isinstance(value, str):
            for m in _INT.findall(value):
                self._add(self.ints, int(m))
            for w in _WORD.findall(value):
                self._add(self.words, w)
        elif isinstance(value, Mapping):
            for v in value.values():
                self.harvest(v)
        elif isinstance(value, list | tuple):
            for v in value:
                self.harvest(v)

    @staticmethod
    def _add(pool: list[Any], item: Any) -> None:
        if len(pool) < _POOL_LIMIT and item not in pool:
            pool.append(item)


def random_value(schema: Mapping[str, Any], rng: random.Random, pools: _Pools, defs: Any) -> Any:
    """A random value valid for a JSON Schema (the subset pydantic emits for tool arguments).

    Handles ``$ref`` into ``$defs``, ``anyOf``/``oneOf``, ``enum``, ``const``, the scalar
    types with ``minimum``/``maximum``/``minLength``/``maxLength``, arrays and objects.
    Integers and strings come from ``pools`` four times out of five.
    """
    if "$ref" in schema:
        target = defs.get(str(schema["$ref"]).rsplit("/", 1)[-1], {})
        return random_value(target, rng, pools, defs)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"] or schema[key]
            return random_value(rng.choice(options), rng, pools, defs)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(list(schema["enum"]))
    kind = schema.get("type", "string")
    if isinstance(kind, list):
        kind = rng.choice([k for k in kind if k != "null"] or kind)
    if kind == "integer":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        value = (
            rng.choice(pools.ints) if pools.ints and rng.random() < 0.8 else rng.randint(0, 10**6)
        )
        if lo is not None:
            value = max(int(lo), value)
        if hi is not None:
            value = min(int(hi), value)
        return value
    if kind == "number":
        return round(rng.uniform(schema.get("minimum", 0), schema.get("maximum", 1000)), 2)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "array":
        count = rng.randint(schema.get("minItems", 0), min(schema.get("maxItems", 3), 3))
        items = schema.get("items", {})
        return [random_value(items, rng, pools, defs) for _ in range(count)]
    if kind == "object":
        return _random_object(schema, rng, pools, defs)
    words = pools.words or ["hello"]
    text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
    if rng.random() < 0.2:
        text = str(rng.choice(pools.ints)) if pools.ints else text
    lo, hi = int(schema.get("minLength", 0)), schema.get("maxLength")
    text = text.ljust(lo, "x")
    return text[: int(hi)] if hi is not None else text


def _random_object(
    schema: Mapping[str, Any], rng: random.Random, pools: _Pools, defs: Any
) -> dict[str, Any]:
    required = set(schema.get("required", ()))
    out: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        if name in required or rng.random() < 0.5:
            out[name] = random_value(prop, rng, pools, defs)
    return out


class RandomAgent(Agent):
    """Makes 1 to ``max_calls`` schema-valid calls to random tools, then submits.

    Args:
        seed: the agent's seed; with the variant id it seeds the episode's generator.
        max_calls: most tool calls per episode (besides ``submit``).
    """

    name = "random"

    def __init__(self, seed: int = 0, max_calls: int = 10) -> None:
        self.seed = seed
        self.max_calls = max_calls

    def settings(self) -> dict[str, Any]:
        """``{"seed", "max_calls"}``."""
        return {"seed": self.seed, "max_calls": self.max_calls}

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Call random tools with random arguments; submit a random answer (or none)."""
        rng = random.Random(f"{self.seed}|{ctx.variant_id}")
        pools = _Pools()
        pools.harvest(ctx.instruction)
        tools = sorted((t for t in ctx.tools if t.name != ctx.submit_tool), key=lambda t: t.name)
        transcript: list[dict[str, Any]] = [{"role": "user", "content": ctx.instruction}]
        calls = rng.randint(1, self.max_calls) if tools else 0
        try:
            for i in range(1, calls + 1):
                tool = rng.choice(tools)
                schema = tool.input_schema
                args = _random_object(schema, rng, pools, schema.get("$defs", {}))
                transcript.append(assistant_call_message(f"rnd-{i}", tool.name, args))
                outcome = await ctx.call_tool(tool.name, args)
                transcript.append(tool_message(f"rnd-{i}", outcome))
                pools.harvest(outcome.structured if outcome.structured else outcome.text)
            answer = None
            if rng.random() < 0.5 and pools.words:
                answer = " ".join(rng.choice(pools.words) for _ in range(rng.randint(1, 8)))
            submit_args = {} if answer is None else {"answer": answer}
            transcript.append(assistant_call_message("rnd-submit", ctx.submit_tool, submit_args))
            outcome = await ctx.call_tool(ctx.submit_tool, submit_args)
            transcript.append(tool_message("rnd-submit", outcome))
        except InfraError as exc:
            return AgentResult("infra_error", transcript, error=str(exc))
        return AgentResult("completed", transcript, answer=answer)
