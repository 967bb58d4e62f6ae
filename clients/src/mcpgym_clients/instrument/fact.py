"""``fact-i-N`` mutants: answer field ``i`` with one value it states, not an amount, replaced
by another value of the same kind.

A reply or note can keep every amount right and state another fact wrong: another
estimated delivery date, another order or invoice number, another account code, another
card's last four digits (round 10's F1, F2, F5). A check that reads only amounts, or only
that the right value is there somewhere, sees nothing; a check that reads each value of a
kind as one of the episode's own (`mcpgym_grading` value roles, ``mcpgym_misstated``)
fails it. The mutant keeps everything else of the reference.

The values come as `instrument.swap` finds them (the variant's params and what the
reference's reads returned, by name ending; every ISO date a ``date``), stated as whole
tokens outside the amounts in the field's free text; a value with a space (a product's
name, a subject) is none. For each stated value the replacement is, in order:

- another value of its kind from the same sources the text does not state, of the same
  shape (digits where it has digits: another order of the customer, another date read);
- else, and also where that other value is one of the variant's params (the original order
  for the replacement: a check reading that the right value is there already fails it), the
  value with its last digit changed (``100510`` -> ``100511``; a date's day moved by one,
  ``2026-06-15`` -> ``2026-06-14``), a value of the same column no row holds: what a check
  that every value is the episode's own must fail.

Two kinds are read in words (`_word_facts`): the name a greeting uses (``Hi Olivia`` ->
``Hi Alex``) and a card brand (``Visa`` -> ``Mastercard``), what a check closing those
kinds by their vocabulary fails (helpdesk ``replies-state-own-words``).

At most `MAX_FACTS` per field, taken in turn from each kind, and the word facts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from mcpgym_clients.instrument.candidates import money_text
from mcpgym_clients.instrument.controls import Call, _flat_values, _suffix
from mcpgym_clients.instrument.swap import MIN_VALUE, _first_positions, _pattern
from mcpgym_grading import amounts_stated
from mcpgym_server import TaskVariant

__all__ = [
    "FACT_FAMILIES",
    "MAX_DATES",
    "MAX_FACTS",
    "Fact",
    "date_candidates",
    "dates_finding",
    "fact_calls",
    "fact_finding",
    "fact_mutants",
    "facts",
]

FACT_FAMILIES = frozenset(
    {
        "order-status",
        "cancel-order",
        "change-shipping-address",
        "duplicate-charge",
        "exchange-size",
        "refund-above-limit",
        "refund-damaged-item",
        "apply-customer-payment",
        "write-off-bad-debt",
        "accrue-expense",
        "closed-period-posting",
        "correct-misposted-entry",
        "credit-returned-item",
        "enter-vendor-bill",
        "reconcile-bank-lines",
    }
)
"""The families the gate makes ``fact-i`` mutants for: those whose rubrics read the kinds
(a family is added once `adv/round10gate/gate_family.py` passes condition 7 with it)."""

MAX_FACTS = 4
"""At most this many fact mutants per answer field (taken in turn from each kind)."""

Fact = tuple[str, str, str, str]
"""``(kind, old, new, text)``: the kind, the value stated, its replacement, the new text."""

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _shape(value: str) -> str:
    return re.sub(r"[0-9]", "9", value)


def _derived(value: str, known: frozenset[str] = frozenset()) -> str:
    """``value`` with its last digit changed (a date: its day moved by one, back first),
    avoiding the values in ``known`` (the variant's and the reads': ``188`` -> ``189`` where
    189 is another line of the episode would be no made-up value)."""
    if _ISO_DATE.fullmatch(value):
        day = date.fromisoformat(value)
        for step in (-1, 1, -2, 2, -3, 3) if day.day > 1 else (1, 2, 3, 4):
            other = (day + timedelta(days=step)).isoformat()
            if other not in known:
                return other
        return other
    i = [i for i, c in enumerate(value) if c.isdigit()][-1]
    for step in range(1, 10):
        other = value[:i] + str((int(value[i]) + step) % 10) + value[i + 1 :]
        if other not in known:
            return other
    return other


def _by_kind(variant: TaskVariant, looked_up: Mapping[str, list[Any]]) -> dict[str, list[str]]:
    """``{kind: values}`` of the params and the reads, as `instrument.swap` takes them."""
    out: dict[str, list[str]] = {}
    sources = [*variant.params.items(), *((k, v) for k, vs in looked_up.items() for v in vs)]
    for key, value in sources:
        for v in _flat_values(value):
            if isinstance(v, bool) or not isinstance(v, str | int):
                continue
            s = str(v)
            if len(s) < MIN_VALUE or not any(c.isdigit() for c in s) or s.startswith("$"):
                continue
            if re.search(r"\s", s):  # a name or a subject with a number in it: no value
                continue
            kind = "date" if _ISO_DATE.fullmatch(s) else _suffix(key)
            bucket = out.setdefault(kind, [])
            if s not in bucket:
                bucket.append(s)
    return out


_BRANDS = ("Visa", "Mastercard", "Amex", "Discover")
_GREETED = re.compile(r"^[^\S\n]*(?:hi|hello|hey|dear)[^\S\n]+([A-Z][a-z]+)\b", re.M | re.I)


def _word_facts(text: str) -> list[Fact]:
    """The facts ``text`` states in words: the name its greeting uses (as ``name``: written
    ``Alex``, or ``Sam`` for an Alex) and the first card brand it names (as ``brand``: the
    next of `_BRANDS`)."""
    out: list[Fact] = []
    if (m := _GREETED.search(text)) is not None:
        old = m.group(1)
        new = "Sam" if old == "Alex" else "Alex"
        out.append(("name", old, new, _pattern("name", [old]).sub(new, text)))
    for i, brand in enumerate(_BRANDS):
        if _pattern("brand", [brand]).search(text):
            new = _BRANDS[(i + 1) % len(_BRANDS)]
            out.append(("brand", brand, new, _pattern("brand", [brand]).sub(new, text)))
            break
    return out


def facts(variant: TaskVariant, looked_up: Mapping[str, list[Any]], text: str) -> list[Fact]:
    """The fact mutants of field text ``text`` (module docstring): ``(kind, old, new,
    text)``, at most `MAX_FACTS` and the word facts; ``kind`` is a name ending (``id``,
    ``number``), ``date``, ``name`` or ``brand``."""
    amounts = [money_text(c) for c in dict.fromkeys(amounts_stated(text)) if c > 0]
    amounts = [a for a in amounts if a in text]
    masked = _pattern("amount", amounts).sub(" ", text) if amounts else text
    per_kind: list[list[Fact]] = []
    own = {str(v) for value in variant.params.values() for v in _flat_values(value)}
    by_kind = _by_kind(variant, looked_up)
    known = frozenset(own.union(*by_kind.values()))
    for kind, values in by_kind.items():
        stated = _first_positions(masked, kind, values)
        mine: list[Fact] = []
        for old in stated:
            others = [
                v
                for v in values
                if v not in stated and _shape(v) == _shape(old) and old not in v and v not in old
            ]
            news = [others[0]] if others else []
            if not others or others[0] in own:  # the episode's own: also one it holds nowhere
                news.append(_derived(old, known))
            for new in news:
                replaced = _pattern(kind, [old]).sub(new, text)
                if replaced != text:
                    mine.append((kind, old, new, replaced))
        if mine:
            per_kind.append(mine)
    out: list[Fact] = []
    while per_kind and len(out) < MAX_FACTS:
        for mine in list(per_kind):
            out.append(mine.pop(0))
            if not mine:
                per_kind.remove(mine)
            if len(out) >= MAX_FACTS:
                break
    return out + _word_facts(text)


MAX_DATES = 6
"""At most this many dates a ``dates-i`` mutant adds (the gate runs in CI: few mutants)."""


def date_candidates(
    variant: TaskVariant, looked_up: Mapping[str, list[Any]], text: str
) -> list[str]:
    """The dates a ``dates-i`` mutant adds to field text ``text``: none unless the text
    states an ISO date; else the day before and after each date it states, then the
    variant's other dates on file (its params and what the reference's reads returned, as
    `_by_kind` takes them) that the text does not state, at most `MAX_DATES`. A note that
    lists them beside its own dates (the accrual's, the payment's) states no date: a check
    that reads each date in its role must fail it.
    """
    stated = list(dict.fromkeys(_ISO_DATE.findall(text)))
    if not stated:
        return []
    on_file = [d for d in _by_kind(variant, looked_up).get("date", []) if d not in stated]
    moved = [
        (date.fromisoformat(d) + timedelta(days=step)).isoformat()
        for d in stated
        for step in (-1, 1)
        if _valid(d)
    ]
    picked = [d for d in dict.fromkeys([*moved, *on_file]) if d not in text]
    return picked[:MAX_DATES]


def _valid(value: str) -> bool:
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def dates_finding(where: str, label: str, group: str, values: Sequence[str], grade: Any) -> str:
    """The finding line for ``dates-i`` mutant ``label`` (``values``: the dates it added)
    graded ``grade`` (the grade's JSON), or ``""``: reported when graded passed with no
    applicable check failing (a text listing several dates beside its own is not read as
    misstating any)."""
    if not grade or not grade.get("passed"):
        return ""
    if any(c.get("applicable") and not c.get("passed") for c in grade.get("checks", [])):
        return ""
    return (
        f"{where}: a shotgun of dates passes: field {group} also listing the dates "
        f"{', '.join(values)} (`{label}`) is graded passed at {grade.get('score'):.3f} and "
        "no check fails: nothing reads the field's dates as stated; give its dates value "
        "roles (`mcpgym_grading._value_roles`: a date beside no role's words misstates)"
    )


def fact_calls(body: Sequence[Call], submit: Call, i: int, fact: Fact) -> list[Call]:
    """The reference with ``fact``'s value replaced in each free-text argument of answer
    field ``i`` (``i == len(body)``: the answer given to ``submit``)."""
    kind, old, new = fact[0], fact[1], fact[2]

    def sub(text: str) -> str:
        return _pattern(kind, [old]).sub(new, text)

    if i == len(body):
        name, args = submit
        return [*body, (name, {**args, "answer": sub(str(args["answer"]))})]
    name, args = body[i]
    changed = {k: sub(v) if isinstance(v, str) and len(v) >= 20 else v for k, v in args.items()}
    return [*body[:i], (name, changed), *body[i + 1 :], submit]


def fact_finding(where: str, label: str, group: str, values: Sequence[str], grade: Any) -> str:
    """The finding line for fact mutant ``label`` (``values``: kind, old, new) graded
    ``grade`` (the grade's JSON), or ``""``: reported when graded passed with no applicable
    check failing (nothing reads whether the value is the episode's own)."""
    if not grade or not grade.get("passed"):
        return ""
    if any(c.get("applicable") and not c.get("passed") for c in grade.get("checks", [])):
        return ""
    kind, old, new = values[0], values[1], values[2]
    return (
        f"{where}: a wrong fact passes: field {group} with the {kind} {old} written {new} "
        f"(`{label}`) is graded passed at {grade.get('score'):.3f} and no check fails: "
        "nothing reads whether the value is the episode's own; give the field's values "
        "of that kind value roles (`mcpgym_grading._value_roles`: a role's kind is closed)"
    )


def fact_mutants(
    variant: TaskVariant,
    looked_up: Mapping[str, list[Any]],
    text: str,
    body: Sequence[Call],
    submit: Call,
    i: int,
    group: str,
) -> list[tuple[tuple[str, list[Call], str], tuple[str, ...]]]:
    """``((label, calls, group), values)`` of each fact mutant of field ``i`` (text
    ``text``), none outside `FACT_FAMILIES`: what `adversarial` registers."""
    if variant.family not in FACT_FAMILIES:
        return []
    if i < len(body):  # the free text `fact_calls` rewrites, not an id or a ZIP argument
        text = "\n".join(v for v in body[i][1].values() if isinstance(v, str) and len(v) >= 20)
    return [
        ((f"fact-{group}-{n}", fact_calls(body, submit, i, f), group), f[:3])
        for n, f in enumerate(facts(variant, looked_up, text), 1)
    ]
