"""Control runs for the ship gate: scripted replays and mutants of the reference solution.

A check is *vacuous* when no run can fail it. ``mcpgym validate`` looks for such checks
the way mutation testing looks for weak test suites (DeMillo, Lipton and Sayward,
"Hints on test data selection", IEEE Computer 1978; Jia and Harman, IEEE TSE 2011):
it runs *mutants* of the reference solution, each a small fault an agent could make,
beside the `null` and `random` agents, and requires every check to fail on at least one.

Mutation operators (`mutants`), on the reference calls ``c1..ck`` and answer ``a``:

- ``drop-i``: call ``ci`` is left out (a step forgotten);
- ``repeat-i``: write call ``ci`` is made twice (a duplicated side effect);
- ``retarget-i``: write call ``ci`` acts on the previous entity (every integer ``*_id``
  argument minus one; generators add new rows at the end, so that row exists): a
  collateral write on the wrong record;
- ``blank-text-i``: the free-text arguments of ``ci`` (20 characters or more) are replaced
  by a text that says nothing (a reply that does not state what was done);
- ``leak-text-i``: the free-text arguments of ``ci`` also list every variant parameter
  value they do not mention (a reply that gives away what it should not);
- ``promise-text-i``: the free-text arguments of ``ci`` also promise an outcome no one
  has decided, sooner than any policy allows (`PROMISE_TEXT`: an agent over-promising);
- ``withdraw-text-i``: after call ``ci``, the same call again with its free text (20
  characters or more) replaced by `WITHDRAW_TEXT`: a second reply withdrawing the first,
  which leaves the customer with no answer while every check reading the first still
  passes (round 11's R6);
- ``misname-text-i``: the free text of ``ci`` with every id of the variant it names (an
  integer ``*_id`` parameter) written as the previous one, as ``retarget-i`` moves a write:
  a reply or note naming another record than the one acted on (round 11's R5);
- ``misdate-text-i``: the free text of ``ci`` (20 characters or more) also says the work was
  posted in `misdate_month`, the month before the earliest date the task names (its
  parameters and the reference's arguments): a note or memo putting a posting in a month
  no record of the episode is in (round 19; the ledger's `texts-state-posting-months`,
  which an episode with no text does not fail);
- ``insert-T``: before the reference's first write, one extra call of write tool ``T`` whose
  arguments come from the task (a collateral or forbidden write): each argument takes
  the variant parameter or reference argument of the same name, or one whose name ends
  the same way (``declined_item_id`` for ``order_item_id``), preferring values the
  reference never used and, for money, the largest (else $10.00); enums take their first
  value and other required text a bland sentence. Tools whose required integer arguments find no
  value are left out. ``insert-T-enum`` is the same call with its first enum argument set to
  the next value; ``insert-T-looked-up`` prefers what the reference's reads returned (an
  agent using details it looked up rather than those it was given);
- ``enum-i``: write call ``ci`` with its first enum argument set to the next allowed value
  (another team, method or resolution);
- ``transplant-T-from-B``: the write call ``T`` that the same family's reference makes in
  band ``B`` (same seed), with this variant's parameters of the same names, inserted before
  the first write (the easy band's action where the hard band forbids it);
- ``no-answer`` / ``wrong-answer``: ``submit`` without the reference answer, or with
  a wrong one (only when the variant has a reference answer).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from mcpgym_clients.errors import InfraError
from mcpgym_clients.protocol import (
    Agent,
    AgentResult,
    EpisodeContext,
    assistant_call_message,
    tool_message,
)
from mcpgym_server import SUBMIT_TOOL, Environment, TaskVariant, ToolCall, replay

Call = tuple[str, dict[str, Any]]
"""One scripted call: tool name and arguments."""

BLAND_TEXT = "Thank you for contacting us. We have looked into your request."
"""What ``blank-text`` mutants write instead of the reference's free text."""

FALLBACK_CENTS = 1000
"""Money amount ``insert`` mutants use when the task names none ($10.00)."""

WRONG_ANSWER = "I could not find anything about this request."
"""The answer ``wrong-answer`` mutants submit."""


class ScriptAgent(Agent):
    """Makes a fixed list of calls in order (``submit`` included when listed), then stops.

    Used to replay recorded runs and to run mutants. Tool errors do not stop it.

    Args:
        calls: ``(tool, arguments)`` pairs. label: a name for reports (e.g. ``drop-3``).
    """

    name = "script"

    def __init__(self, calls: Sequence[Call], label: str = "script") -> None:
        self.calls = [(name, dict(args)) for name, args in calls]
        self.label = label

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Make the calls; the answer is the one given to ``submit``, if any."""
        transcript: list[dict[str, Any]] = [{"role": "user", "content": ctx.instruction}]
        answer: str | None = None
        try:
            for i, (name, args) in enumerate(self.calls, start=1):
                transcript.append(assistant_call_message(f"s-{i}", name, args))
                outcome = await ctx.call_tool(name, args)
                transcript.append(tool_message(f"s-{i}", outcome))
                if name == ctx.submit_tool and not outcome.is_error:
                    given = args.get("answer")
                    answer = given if isinstance(given, str) else None
                    break
        except InfraError as exc:
            return AgentResult("infra_error", transcript, error=str(exc))
        return AgentResult("completed", transcript, answer=answer)


def reference_calls(variant: TaskVariant) -> list[Call]:
    """The variant's reference solution as calls, ending with ``submit`` (and its answer)."""
    calls = [(c.name, dict(c.arguments)) for c in variant.reference]
    if not any(name == SUBMIT_TOOL for name, _ in calls):
        calls.append((SUBMIT_TOOL, {} if variant.answer is None else {"answer": variant.answer}))
    return calls


def _retarget(args: Mapping[str, Any]) -> dict[str, Any] | None:
    out = dict(args)
    changed = False
    for key, value in args.items():
        if key.endswith("_id") and isinstance(value, int) and not isinstance(value, bool):
            out[key] = value - 1
            changed = True
    return out if changed else None


def _blank(args: Mapping[str, Any]) -> dict[str, Any] | None:
    out = dict(args)
    changed = False
    for key, value in args.items():
        if isinstance(value, str) and len(value) >= 20:
            out[key] = BLAND_TEXT
            changed = True
    return out if changed else None


PROMISE_TEXT = "We will refund it in full to your card by tomorrow."
"""The sentence ``promise-text-i`` adds: a payout promised on behalf of whoever decides it,
by a time no refund policy meets."""


def _appended(args: Mapping[str, Any], tail: str) -> dict[str, Any] | None:
    """``args`` with ``tail`` after each free text (a string of 20 characters or more), or
    ``None`` when there is none."""
    out = {k: f"{v}{tail}" if isinstance(v, str) and len(v) >= 20 else v for k, v in args.items()}
    return out if out != dict(args) else None


def _promise(args: Mapping[str, Any]) -> dict[str, Any] | None:
    return _appended(args, f"\n\n{PROMISE_TEXT}")


WITHDRAW_TEXT = (
    "Please disregard my previous message: it was sent in error. I'll follow up with the "
    "correct information."
)
"""The text of the call ``withdraw-text-i`` repeats after ``ci``: it withdraws that call's
text as a whole."""


def _withdraw(args: Mapping[str, Any]) -> dict[str, Any] | None:
    out = {k: WITHDRAW_TEXT if isinstance(v, str) and len(v) >= 20 else v for k, v in args.items()}
    return out if out != dict(args) else None


def _misname(args: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any] | None:
    ids = [v for k, v in params.items() if k.endswith("_id") and type(v) is int and v > 1]
    out = dict(args)
    for key, value in args.items():
        if isinstance(value, str) and len(value) >= 20:
            for i in ids:
                out[key] = re.sub(rf"(?<!\d){i}(?!\d)", str(i - 1), out[key])
    return out if out != dict(args) else None


_ISO_DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)-(0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?!\d)")
_MONTHS = (
    "January February March April May June July August September October November December"
).split()


def misdate_month(variant: TaskVariant) -> str | None:
    """The month ``misdate-text`` mutants name (``March 2026``): the one before the earliest
    ISO date (``YYYY-MM-DD``) in the variant's parameters and its reference's arguments, or
    ``None`` when they hold none."""
    found = _ISO_DATE.findall(
        json.dumps([variant.params, [c.arguments for c in variant.reference]], default=str)
    )
    if not found:
        return None
    y, m = min((int(y), int(m)) for y, m in found)
    y, m = (y - 1, 12) if m == 1 else (y, m - 1)
    return f"{_MONTHS[m - 1]} {y}"


def _misdate(args: Mapping[str, Any], month: str | None) -> dict[str, Any] | None:
    return None if month is None else _appended(args, f" Posted in {month}.")


def mutants(env: Environment, variant: TaskVariant) -> list[tuple[str, list[Call]]]:
    """The mutants of ``variant``'s reference solution (see the module docstring).

    The reference is replayed once in process (`mcpgym_server.replay`) to learn what its
    reads return: ``*-looked-up`` mutants use those values as an agent would.

    Returns:
        ``(label, calls)`` pairs, labels such as ``drop-2`` or ``retarget-4`` (1-based).
    """
    base = reference_calls(variant)
    body, submit = base[:-1], base[-1]
    looked_up = _looked_up(env, variant, base)
    month = misdate_month(variant)
    out: list[tuple[str, list[Call]]] = []

    def swap(i: int, call: Call) -> list[Call]:
        return [*body[:i], call, *body[i + 1 :], submit]

    for i, (name, args) in enumerate(body):
        n = i + 1
        out.append((f"drop-{n}", [*body[:i], *body[i + 1 :], submit]))
        spec = env.tools.get(name)
        if spec is not None and spec.kind == "write":
            out.append((f"repeat-{n}", [*body[: i + 1], (name, args), *body[i + 1 :], submit]))
            moved = _retarget(args)
            if moved is not None:
                out.append((f"retarget-{n}", swap(i, (name, moved))))
            other = _other_choice(spec.input_schema, args)
            if other is not None:
                out.append((f"enum-{n}", swap(i, (name, other))))
        blank = _blank(args)
        if blank is not None:
            out.append((f"blank-text-{n}", swap(i, (name, blank))))
        leak = _leak(args, variant.params, looked_up)
        if leak is not None:
            out.append((f"leak-text-{n}", swap(i, (name, leak))))
        promise = _promise(args)
        if promise is not None:
            out.append((f"promise-text-{n}", swap(i, (name, promise))))
        misdated = _misdate(args, month)
        if misdated is not None:
            out.append((f"misdate-text-{n}", swap(i, (name, misdated))))
        misnamed = _misname(args, variant.params)
        if misnamed is not None:
            out.append((f"misname-text-{n}", swap(i, (name, misnamed))))
        withdrawn = _withdraw(args)
        if withdrawn is not None:
            after = [*body[: i + 1], (name, withdrawn), *body[i + 1 :], submit]
            out.append((f"withdraw-text-{n}", after))
    first_write = next(
        (
            i
            for i, (name, _) in enumerate(body)
            if getattr(env.tools.get(name), "kind", "") == "write"
        ),
        len(body),
    )

    def insert(label: str, call: Call) -> None:
        out.append((label, [*body[:first_write], call, *body[first_write:], submit]))

    for tool in sorted(env.tools.values(), key=lambda t: t.name):
        if tool.kind != "write" or tool.framework:
            continue
        extra = _insert_args(tool.input_schema, variant, body, {})
        if extra is not None:
            insert(f"insert-{tool.name}", (tool.name, extra))
            other = _other_choice(tool.input_schema, extra)
            if other is not None:
                insert(f"insert-{tool.name}-enum", (tool.name, other))
        seen = _insert_args(tool.input_schema, variant, body, looked_up)
        if seen is not None and seen != extra:
            insert(f"insert-{tool.name}-looked-up", (tool.name, seen))
    used_tools = {name for name, _ in body}
    for band in env.families[variant.family].bands:
        if band == variant.band:
            continue
        other_variant = env.variant(variant.family, band, variant.seed)
        for name, args in reference_calls(other_variant)[:-1]:
            spec = env.tools.get(name)
            if spec is None or spec.kind != "write" or name in used_tools:
                continue
            moved = {
                k: variant.params.get(k, v) if k in variant.params else v for k, v in args.items()
            }
            insert(f"transplant-{name}-from-{band}", (name, moved))
    if variant.answer is not None:
        out.append(("no-answer", [*body, (SUBMIT_TOOL, {})]))
        out.append(("wrong-answer", [*body, (SUBMIT_TOOL, {"answer": WRONG_ANSWER})]))
    return out


def _looked_up(
    env: Environment, variant: TaskVariant, calls: list[Call], bundle: Any = None
) -> dict[str, list[Any]]:
    """``{key: [values]}`` of the scalars the reference's successful reads returned
    (``bundle``: the replay of ``calls`` when the caller has it already)."""
    if bundle is None:
        bundle = replay(
            env, variant.family, variant.band, variant.seed, [ToolCall(n, a) for n, a in calls]
        )
    found: dict[str, list[Any]] = {}

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for k, v in value.items():
                if isinstance(v, Mapping | list):
                    walk(v)
                elif v is not None and not isinstance(v, bool):
                    bucket = found.setdefault(str(k), [])
                    if v not in bucket:
                        bucket.append(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for entry in bundle.log:
        spec = env.tools.get(entry.tool)
        if entry.status == "ok" and spec is not None and spec.kind == "read":
            walk(entry.result)
    return found


def _other_choice(schema: Mapping[str, Any], args: Mapping[str, Any]) -> dict[str, Any] | None:
    """``args`` with its first enum-valued argument set to the next allowed value."""
    for name, prop in schema.get("properties", {}).items():
        options = [o for o in prop.get("anyOf", [prop]) if "enum" in o]
        if options and name in args and len(options[0]["enum"]) > 1:
            choices = list(options[0]["enum"])
            current = args[name]
            index = choices.index(current) if current in choices else -1
            return {**args, name: choices[(index + 1) % len(choices)]}
    return None


def _flat_values(value: Any) -> list[Any]:
    if isinstance(value, Mapping):
        return [x for v in value.values() for x in _flat_values(v)]
    if isinstance(value, list | tuple):
        return [x for v in value for x in _flat_values(v)]
    return [value]


def task_values(params: Mapping[str, Any]) -> list[Any]:
    """The variant's parameter values, flattened, that an agent could know and leak: every
    param but the rubric's role specs (a name ending ``_roles``: JSON lists of values and the
    cue words a grader binds them with, such as ``"written off"``; their values are in the
    other params, and their cue words are no fact of the task)."""
    return _flat_values({k: v for k, v in params.items() if not k.endswith("_roles")})


def _leak(
    args: Mapping[str, Any], params: Mapping[str, Any], looked_up: Mapping[str, list[Any]]
) -> dict[str, Any] | None:
    """Free text that also lists the task's values and what was looked up of the same kinds."""
    kinds = {_suffix(k) for k in params}
    extra = [v for k, vs in looked_up.items() if _suffix(k) in kinds for v in vs]
    values = [
        str(v)
        for v in [*task_values(params), *extra]
        if isinstance(v, str | int) and not isinstance(v, bool) and len(str(v)) >= 3
    ]
    out = dict(args)
    changed = False
    for key, value in args.items():
        if isinstance(value, str) and len(value) >= 20:
            missing = [v for v in dict.fromkeys(values) if v.casefold() not in value.casefold()]
            if missing:
                out[key] = f"{value}\n\nFor the record: {', '.join(missing)}."
                changed = True
    return out if changed else None


def _suffix(name: str) -> str:
    """``declined_item_id -> item_id``, ``escalate_cents -> cents``, ``given_zip -> zip``."""
    parts = name.split("_")
    keep = 2 if parts[-1] == "id" and len(parts) >= 2 else 1
    return "_".join(parts[-keep:])


def _candidates(
    name: str, variant: TaskVariant, body: Sequence[Call], looked_up: Mapping[str, list[Any]]
) -> list[Any]:
    """Values for an argument called ``name``: values the reference never used first; among
    them, another entity of the same kind (same name ending) before the same name."""
    used = _used(body)
    found: list[tuple[int, Any]] = []
    sources = [(k, v) for k, vs in looked_up.items() if k == name for v in vs]
    sources += [(k, v) for k, v in variant.params.items()]
    sources += [(k, v) for _, args in body for k, v in args.items()]
    for key, value in sources:
        if value is None or isinstance(value, bool) or isinstance(value, list | dict):
            continue
        if key == name:
            rank = 1
        elif _suffix(key) == _suffix(name):
            rank = 0  # another entity of the same kind: the adversarial choice
        else:
            continue
        fresh = 0 if json_key(value) not in used else 1
        first = 0 if looked_up and key in looked_up and value in looked_up[key] else 1
        found.append((first * 4 + fresh * 2 + rank, value))
    found.sort(key=lambda item: item[0])
    if name.endswith("_cents"):
        ints = [v for _, v in found if isinstance(v, int) and v > 0]
        return sorted(ints, reverse=True)
    return [v for _, v in found]


def json_key(value: Any) -> str:
    """A hashable identity of a JSON scalar (``1`` and ``"1"`` differ)."""
    return f"{type(value).__name__}:{value}"


def _insert_args(
    schema: Mapping[str, Any],
    variant: TaskVariant,
    body: Sequence[Call],
    looked_up: Mapping[str, list[Any]],
) -> dict[str, Any] | None:
    required = set(schema.get("required", ()))
    out: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        options = [o for o in prop.get("anyOf", [prop]) if o.get("type") != "null"]
        kind = options[0].get("type") if options else None
        enum = next((o["enum"] for o in options if "enum" in o), None)
        values = [
            v
            for v in _candidates(name, variant, body, looked_up)
            if (kind == "integer" and isinstance(v, int))
            or (kind == "string" and isinstance(v, str))
        ]
        if enum is not None:
            values = [v for v in values if v in enum] or [enum[0]]
        if values and (name in required or json_key(values[0]) not in _used(body)):
            out[name] = values[0]
        elif name in required:
            if kind == "integer" and name.endswith("_cents"):
                out[name] = FALLBACK_CENTS
            elif kind == "string":
                out[name] = BLAND_TEXT
            else:
                return None
    return out


def _used(body: Sequence[Call]) -> set[str]:
    return {json_key(v) for _, args in body for v in args.values()}
