"""Undo mutants for the ship gate: a write the task does not call for, undone before the end.

An end state that equals the reference's cannot show a write that a later call undid: an
account's email changed to an attacker's and set back, an order's shipping address
redirected and set back. The app's own records (its audit trail) and the framework's
tool-call log can, and a rubric must read one of them. These mutants find a rubric that
does not, in any environment, from the tool schemas and what the reference's reads
returned:

- ``undo-T``: right after a read of the reference that returned a record write tool ``T``
  updates, two extra calls of ``T``: one of the record's values changed (letters and
  digits shifted by one, an integer plus one, the next enum value: the first value, in the
  schema's order, that the tool accepts changed), then the same call with the values the
  read returned. The rest of the reference follows unchanged. Where the reference reads
  none of the task's own records, the mutant reads them itself before the reference's
  first write: each read tool whose required arguments are identifiers the variant params
  name (``get_customer(customer_id)``).

``T`` can be called on a record when each of its required arguments is a field of the
record, at least one an identifier (``*_id``, ``key``) and one a value: a field named as
the argument; the record's ``id`` for ``X_id`` when the record is an ``X`` (the read tool's
name, ``get_order``, or the key it is listed under, ``orders``, names it); for a value, the
one field ending with ``_<name>`` (``shipping_line1`` for ``line1``, ``billing_zip`` for
``zip``). ``T`` *updates* the record when, replayed in process (`mcpgym_server.replay`,
up to the undo, the read made again after each extra call), the calls before the undo end
as in the reference, both extra calls succeed, the read shows the changed value after the
first and the read's values again after the second. At most one undo mutant per write tool
and variant (the task's own records first) and `MAX_TRIES` replays: the gate stays fast.

The gate reports an undo mutant graded passed (`adversarial.shortcut_failures`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcpgym_clients.instrument.controls import Call, json_key
from mcpgym_server import Environment, TaskVariant, ToolCall, replay

MAX_TRIES = 3
"""In-process replays one write tool may cost per variant (candidates are tried in order)."""

VALUES_PER_RECORD = 2
"""Values tried changed per record: a tool that refuses two is taken to refuse the record
(an order that has shipped), not the value (a state code that is no state)."""

_SCALAR = (str, int, float)


def shifted(value: Any) -> Any:
    """``value`` changed in a form-preserving way: each letter the next one (``z`` -> ``a``,
    case kept), each digit the next (``9`` -> ``0``), other characters kept; an integer
    plus one. ``None`` for anything else (booleans, floats, None, a text with no letter or
    digit): nothing to change."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value + 1
    if not isinstance(value, str):
        return None

    def step(ch: str) -> str:
        for first, size in (("a", 26), ("A", 26), ("0", 10)):
            if first <= ch < chr(ord(first) + size):
                return chr(ord(first) + (ord(ch) - ord(first) + 1) % size)
        return ch

    out = "".join(step(ch) for ch in value)
    return out if out != value else None


def is_identifier(name: str) -> bool:
    """Whether an argument names the record rather than a value of it (``order_id``, ``key``)."""
    return name in ("id", "key") or name.endswith(("_id", "_key"))


@dataclass(frozen=True)
class _Record:
    """A mapping inside a read's result: where it is (keys and list indexes) and what kind
    of record its context names (the read tool's name words, the key it is listed under)."""

    path: tuple[str | int, ...]
    fields: Mapping[str, Any]
    kinds: frozenset[str]


def _singular(word: str) -> set[str]:
    out = {word}
    if word.endswith("ies"):
        out.add(word[:-3] + "y")
    elif word.endswith("es"):
        out |= {word[:-2], word[:-1]}
    elif word.endswith("s"):
        out.add(word[:-1])
    return out


def _records(result: Any, tool: str) -> list[_Record]:
    """Every mapping inside ``result`` (the result of read tool ``tool``), outermost first."""
    out: list[_Record] = []
    stack: list[tuple[tuple[str | int, ...], Any, frozenset[str]]] = [
        ((), result, frozenset(w for part in tool.split("_") for w in _singular(part)))
    ]
    while stack:
        path, item, kinds = stack.pop(0)
        if isinstance(item, Mapping):
            out.append(_Record(path, item, kinds))
            for k, v in item.items():
                if isinstance(v, Mapping | list):
                    stack.append(((*path, k), v, frozenset(_singular(str(k)))))
        elif isinstance(item, list):
            stack.extend(((*path, i), v, kinds) for i, v in enumerate(item))
    return out


def _at(result: Any, path: tuple[str | int, ...]) -> Mapping[str, Any] | None:
    """The mapping at ``path`` in ``result``, or None."""
    for step in path:
        if isinstance(step, int) and isinstance(result, list) and step < len(result):
            result = result[step]
        elif isinstance(step, str) and isinstance(result, Mapping) and step in result:
            result = result[step]
        else:
            return None
    return result if isinstance(result, Mapping) else None


def _key(name: str, rec: _Record) -> str | None:
    """The record's field for argument ``name`` (see the module docstring), or None."""
    if name in rec.fields:
        return name
    if is_identifier(name):
        words = name.removesuffix("_id").split("_")
        entity = {"_".join(words[i:]) for i in range(len(words))}
        own = name.endswith("_id") and "id" in rec.fields and entity & rec.kinds
        return "id" if own else None
    ends = [k for k in rec.fields if isinstance(k, str) and k.endswith("_" + name)]
    return ends[0] if len(ends) == 1 else None


def _accepts(prop: Mapping[str, Any], value: Any) -> bool:
    """Whether a JSON-schema property takes ``value`` (its type; null when it allows it)."""
    for o in prop.get("anyOf", [prop]):
        kind = o.get("type")
        if "enum" in o and value not in o["enum"]:
            continue
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if (
            (value is None and kind == "null")
            or (kind == "string" and isinstance(value, str))
            or (kind == "integer" and number and isinstance(value, int))
            or (kind == "number" and number)
            or (kind is None and "enum" in o)
        ):
            return True
    return False


def _changed(prop: Mapping[str, Any], value: Any) -> Any:
    """Another value the property accepts: the next enum value, else `shifted` (or None)."""
    for o in prop.get("anyOf", [prop]):
        if "enum" in o and value in o["enum"] and len(o["enum"]) > 1:
            choices = list(o["enum"])
            return choices[(choices.index(value) + 1) % len(choices)]
    new = shifted(value)
    return new if new is not None and _accepts(prop, new) else None


def _call_on(schema: Mapping[str, Any], rec: _Record) -> dict[str, str] | None:
    """``{argument: field}`` of a call of the tool on ``rec`` with the record's own values,
    or None when the record lacks a required argument, an identifier or a value to change."""
    props: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    fields: dict[str, str] = {}
    for name, prop in props.items():
        key = _key(name, rec)
        value = rec.fields.get(key) if key is not None else None
        if key is not None and (value is None or isinstance(value, _SCALAR)):
            if _accepts(prop, value):
                fields[name] = key
                continue
        if name in required:
            return None
    ids = [n for n in fields if is_identifier(n)]
    if not ids or any(rec.fields[fields[n]] is None for n in ids):
        return None
    if not any(_changed(props[n], rec.fields[f]) is not None for n, f in fields.items()):
        return None
    return fields


@dataclass(frozen=True)
class _Seen:
    """A record a read returned, and where an undo of it goes: after ``prefix`` (the calls up
    to and with that read, ``read``; ``added`` of them are not the reference's)."""

    rec: _Record
    read: Call
    prefix: tuple[Call, ...]
    added: int


def undo_mutants(
    env: Environment, variant: TaskVariant, base: Sequence[Call], replayed: Any
) -> list[tuple[str, list[Call], tuple[str, ...]]]:
    """The undo mutants of ``variant``'s reference (see the module docstring).

    Args:
        base: the reference calls ending with ``submit``. replayed: their in-process replay
            (its log gives what the reads returned and how each call ended).

    Returns:
        ``(label, calls, changed argument names)`` triples, labels ``undo-<tool>``.
    """
    body = list(base[:-1])
    statuses = [e.status for e in replayed.log]
    params = {json_key(v) for v in variant.params.values() if isinstance(v, _SCALAR)}
    seen: list[_Seen] = []
    for i, entry in enumerate(replayed.log[: len(body)]):
        spec = env.tools.get(entry.tool)
        if entry.status == "ok" and spec is not None and spec.kind == "read":
            prefix = tuple(body[: i + 1])
            seen += [_Seen(r, body[i], prefix, 0) for r in _records(entry.result, entry.tool)]
    seen += _own_reads(env, variant, body)
    out: list[tuple[str, list[Call], tuple[str, ...]]] = []
    for tool in sorted(env.tools.values(), key=lambda t: t.name):
        if tool.kind != "write" or tool.framework:
            continue
        candidates: list[tuple[bool, int, _Seen, dict[str, str]]] = []
        for order, at in enumerate(seen):
            fields = _call_on(tool.input_schema, at.rec)
            if fields is not None:
                ids = [at.rec.fields[f] for n, f in fields.items() if is_identifier(n)]
                own = all(json_key(v) in params for v in ids)
                candidates.append((not own, order, at, fields))
        candidates.sort(key=lambda c: c[:2])
        found = _first_clean(env, variant, base, statuses, tool, [c[2:] for c in candidates])
        if found is not None:
            out.append((f"undo-{tool.name}", *found))
    return out


def _own_reads(env: Environment, variant: TaskVariant, body: list[Call]) -> list[_Seen]:
    """The task's own records, read before the reference's first write by each read tool
    whose required arguments are identifiers the variant params name (one replay)."""
    first_write = next(
        (i for i, (n, _) in enumerate(body) if getattr(env.tools.get(n), "kind", "") == "write"),
        len(body),
    )
    reads: list[Call] = []
    for tool in sorted(env.tools.values(), key=lambda t: t.name):
        required = list(tool.input_schema.get("required", ()))
        if tool.kind != "read" or tool.framework or not required:
            continue
        if not all(
            is_identifier(n) and isinstance(variant.params.get(n), _SCALAR) for n in required
        ):
            continue
        call = (tool.name, {n: variant.params[n] for n in required})
        if call not in body:
            reads.append(call)
    if not reads:
        return []
    calls = [*body[:first_write], *reads]
    bundle = replay(
        env, variant.family, variant.band, variant.seed, [ToolCall(n, a) for n, a in calls]
    )
    out: list[_Seen] = []
    for j, read in enumerate(reads):
        entry = bundle.log[first_write + j]
        if entry.status == "ok":
            prefix = (*body[:first_write], read)
            out += [_Seen(r, read, prefix, 1) for r in _records(entry.result, read[0])]
    return out


def _first_clean(
    env: Environment,
    variant: TaskVariant,
    base: Sequence[Call],
    statuses: list[str],
    tool: Any,
    candidates: list[tuple[_Seen, dict[str, str]]],
) -> tuple[list[Call], tuple[str, ...]] | None:
    """The first candidate the tool updates (see the module docstring), one value changed
    at a time in the schema's order; at most `MAX_TRIES` replays."""
    props = tool.input_schema.get("properties", {})
    body = list(base[:-1])
    tries = 0
    for at, fields in candidates:
        args = {n: at.rec.fields[f] for n, f in fields.items()}
        names = [n for n in args if not is_identifier(n) and _changed(props[n], args[n])]
        for name in names[:VALUES_PER_RECORD]:
            if tries >= MAX_TRIES:
                return None
            tries += 1
            changed = {**args, name: _changed(props[name], args[name])}
            undo = [(tool.name, changed), (tool.name, dict(args))]
            probe = [*at.prefix, undo[0], at.read, undo[1], at.read]
            bundle = replay(
                env, variant.family, variant.band, variant.seed, [ToolCall(n, a) for n, a in probe]
            )
            log = bundle.log[: len(probe)]
            kept = len(at.prefix) - at.added  # reference calls before the undo
            if [e.status for e in log] != [*statuses[:kept], *["ok"] * (at.added + 4)]:
                continue
            after, back = _at(log[-3].result, at.rec.path), _at(log[-1].result, at.rec.path)
            key = fields[name]
            if (
                after is not None
                and back is not None
                and after.get(key) != at.rec.fields[key]
                and all(back.get(f) == at.rec.fields[f] for f in fields.values())
            ):
                return [*at.prefix, *undo, *body[kept:], base[-1]], (name,)
    return None
