"""``swap-i`` mutants: answer field ``i`` with two of the values it states exchanged.

A note or reply can state every value the checks allow and still say which one went where
wrongly: the allocations of a payment swapped between its invoices, a credit's unit price
and total swapped, a bill's net and total swapped, two parcels' tracking numbers (or their
carriers) swapped. Every "states X" and "states nothing else" check sees the same values;
only a check that reads each value in its role (`mcpgym_grading.AnswerMatch` ``roles``)
sees the difference. The mutant keeps everything else of the reference.

The values of a field come in *kinds*, and only two values of the same kind are exchanged:

- amounts (kind ``amount``): what the field states as a money check reads it
  (`mcpgym_grading.amounts_stated`), where the text writes it ``$X.YY``;
- values holding a digit (ids, invoice and tracking numbers, dates, account codes) of the
  variant's params and of what the reference's reads returned, by name ending
  (`controls._suffix`: ``tracking_number`` and ``second_tracking_number`` are both
  ``number``; every ISO date is a ``date``), stated as a whole token (not inside an
  amount or a date);
- categorical values (`candidates.categories`: a carrier) and the other values of their
  column the field states (``UPS`` and ``USPS``; not another carrier's service).

Per kind, the distinct values in the order the text first states them are exchanged in
neighbouring pairs (the first and second, the second and third...), every occurrence of
each. A swap that only reorders the text's lines or sentences (two parcels with the same
carrier, service and date) says the same and is left out; at most `MAX_SWAPS` per field,
taken in turn from each kind.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from mcpgym_clients.instrument.candidates import (
    _snapshot_domains,
    categories,
    money_text,
    subcategory_alternatives,
)
from mcpgym_clients.instrument.controls import Call, _flat_values, _suffix
from mcpgym_grading import amounts_stated
from mcpgym_server import Environment, TaskVariant

__all__ = ["MAX_SWAPS", "Swap", "swap_finding", "swap_text", "swapped_calls", "swaps"]

MAX_SWAPS = 6
"""At most this many swap mutants per answer field (taken in turn from each kind)."""

MIN_VALUE = 3
"""Values with a digit shorter than this are not swapped (``2`` in ``2 x $23.50``)."""

Swap = tuple[str, str, str, str]
"""``(kind, a, b, text)``: the kind of the two values, the values, and the swapped text."""

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
"""A date, of kind ``date`` whatever its name (``issue_date``, ``starts_on``)."""

_TOKEN_L = r"(?<![\w$.,/-])"
_TOKEN_R = r"(?![\w])(?![.,/-]\w)"


def _pattern(kind: str, values: Sequence[str]) -> re.Pattern[str]:
    """One regex matching any of ``values`` as the kind states them: an amount not followed
    by a digit, any other a token not glued to another (``2026`` is not in ``2026-05-31``,
    ``995`` not in ``$1,995.50``). Longer values first."""
    alts = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    if kind == "amount":
        return re.compile(f"(?:{alts})(?![\\d])")
    return re.compile(f"{_TOKEN_L}(?:{alts}){_TOKEN_R}")


def swap_text(text: str, kind: str, a: str, b: str) -> str:
    """``text`` with every occurrence of ``a`` written ``b`` and of ``b`` written ``a`` (as
    `_pattern` finds them for ``kind``: ``amount``, or a token kind)."""
    return _pattern(kind, [a, b]).sub(lambda m: b if m.group(0) == a else a, text)


def _first_positions(text: str, kind: str, values: Sequence[str]) -> list[str]:
    """The distinct ``values`` the text states, in the order it first states them."""
    if not values:
        return []
    seen = dict.fromkeys(m.group(0) for m in _pattern(kind, values).finditer(text))
    return list(seen)


def _pieces(text: str) -> Counter[str]:
    """The text's lines and sentences (a swap that only reorders them says the same)."""
    return Counter(p.strip() for p in re.split(r"\n+|;\s+|(?<=[.!?])\s+", text) if p.strip())


def _kinds(
    env: Environment,
    variant: TaskVariant,
    body: Sequence[Call],
    looked_up: Mapping[str, list[Any]],
    text: str,
) -> dict[str, list[str]]:
    """``{kind: [values the text states, first stated first]}`` (the module docstring)."""
    out: dict[str, list[str]] = {}
    amounts = [money_text(c) for c in dict.fromkeys(amounts_stated(text)) if c > 0]
    out["amount"] = _first_positions(text, "amount", [a for a in amounts if a in text])
    # amounts masked out, so a token never matches inside one
    masked = _pattern("amount", out["amount"]).sub(" ", text) if out["amount"] else text
    by_kind: dict[str, list[str]] = {}
    sources = [*variant.params.items(), *((k, v) for k, vs in looked_up.items() for v in vs)]
    for key, value in sources:
        for v in _flat_values(value):
            if isinstance(v, bool) or not isinstance(v, str | int):
                continue
            s = str(v)
            if len(s) < MIN_VALUE or not any(c.isdigit() for c in s) or s.startswith("$"):
                continue
            kind = "date" if _ISO_DATE.fullmatch(s) else _suffix(key)
            bucket = by_kind.setdefault(kind, [])
            if s not in bucket:
                bucket.append(s)
    for kind, values in by_kind.items():
        if kind not in out:
            out[kind] = _first_positions(masked, kind, values)
    domains = _snapshot_domains(env)
    for value in categories(env, variant, body):
        # a categorical param (a carrier); not an enum argument, not a word such as a
        # status (the decision itself: `flip`'s and `DecisionMatch`'s)
        if value not in domains or value not in variant.params.values() or value.islower():
            continue
        subs = set(subcategory_alternatives(env, value))
        column = [v for v in domains[value] if v not in subs and len(v) >= 2]
        stated = _first_positions(text, "category", [value, *column])
        if len(stated) >= 2:
            out[f"category:{value}"] = stated
    return {k: v for k, v in out.items() if len(v) >= 2}


def swaps(
    env: Environment,
    variant: TaskVariant,
    body: Sequence[Call],
    looked_up: Mapping[str, list[Any]],
    text: str,
) -> list[Swap]:
    """The swaps of field text ``text`` (module docstring): ``(kind, a, b, swapped text)``,
    at most `MAX_SWAPS`, none that only reorders the text's lines or sentences; ``kind`` is
    ``amount``, a name ending (``number``, ``date``) or ``category``."""
    per_kind: list[list[Swap]] = []
    done: set[frozenset[str]] = set()
    before = _pieces(text)
    for kind, values in _kinds(env, variant, body, looked_up, text).items():
        pattern_kind = "category" if kind.startswith("category:") else kind
        mine: list[Swap] = []
        for a, b in zip(values, values[1:], strict=False):
            if frozenset((a, b)) in done:
                continue
            swapped = swap_text(text, pattern_kind, a, b)
            if swapped == text or _pieces(swapped) == before:
                continue
            done.add(frozenset((a, b)))
            mine.append((pattern_kind, a, b, swapped))
        if mine:
            per_kind.append(mine)
    out: list[Swap] = []
    while per_kind and len(out) < MAX_SWAPS:
        for mine in list(per_kind):
            out.append(mine.pop(0))
            if not mine:
                per_kind.remove(mine)
            if len(out) >= MAX_SWAPS:
                break
    return out


def swapped_calls(body: Sequence[Call], submit: Call, i: int, swap: Swap) -> list[Call]:
    """The reference with ``swap``'s two values exchanged (`swap_text`) in each free-text
    argument of answer field ``i`` (``i == len(body)``: the answer given to ``submit``)."""
    kind, a, b = swap[0], swap[1], swap[2]
    if i == len(body):
        name, args = submit
        return [*body, (name, {**args, "answer": swap_text(str(args["answer"]), kind, a, b)})]
    name, args = body[i]
    new = {
        k: swap_text(v, kind, a, b) if isinstance(v, str) and len(v) >= 20 else v
        for k, v in args.items()
    }
    return [*body[:i], (name, new), *body[i + 1 :], submit]


def swap_finding(where: str, label: str, group: str, values: Sequence[str], grade: Any) -> str:
    """The finding line for swap mutant ``label`` (``values``: kind, a, b) graded ``grade``
    (the grade's JSON), or ``""``: a swap is reported when it is graded passed with no
    applicable check failing (nothing reads which value stands where)."""
    if not grade or not grade.get("passed"):
        return ""
    if any(c.get("applicable") and not c.get("passed") for c in grade.get("checks", [])):
        return ""
    kind, a, b = values[0], values[1], values[2]
    what = "value" if kind == "category" else kind
    return (
        f"{where}: a swap passes: field {group} with {a} and {b} exchanged (`{label}`) is "
        f"graded passed at {grade.get('score'):.3f} and no check fails: nothing reads which "
        f"{what} stands where; read each in its role (an `AnswerMatch` with `roles`, "
        "docs/authoring.md)"
    )
