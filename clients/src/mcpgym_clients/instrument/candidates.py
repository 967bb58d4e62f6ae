"""Candidate values of a variant for the adversarial mutants (`instrument.adversarial`).

What a shotgun answer would list beside the right one, read from the environment's own
data: the amounts the money checks expect, the categorical values (a carrier, a team) and
their alternatives, the kinds of value each answer check reads, ids of the same kind in
the reference's final database, and what the "must not state" checks guard.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from mcpgym_clients.instrument.controls import Call, _flat_values, _suffix
from mcpgym_clients.instrument.siblings import siblings
from mcpgym_grading import AnswerMatch, Param, amounts_stated, register_sql_functions
from mcpgym_server import Environment, TaskVariant

__all__ = [
    "GUARDED_PER_CHECK",
    "MAX_CATEGORIES",
    "MONEY_KIND",
    "NO_RECORD_CENTS",
    "answer_kinds",
    "applies",
    "categories",
    "guarded_values",
    "kin_ids",
    "money_expected",
    "money_text",
    "near_bases",
    "of_kinds",
    "says",
]

MAX_CATEGORIES = 30
"""A snapshot column with at most this many distinct texts holds a category (a carrier, a
team, a status): each of its values is a categorical answer, the others its alternatives."""

GUARDED_PER_CHECK = 3
"""How many of the values a "must not state" check guards the leak mutant adds (`_guarded`):
enough to show the check refuses them, few enough that every look-alike form of them
fits the environment's free-text fields (ledger keeps 300 characters of a memo)."""


MONEY_KIND = "cents"
"""The name ending of an amount (``refund_cents``, ``total_cents``): every value of this kind
is a candidate amount of the variant (`instrument.adversarial`'s ``amounts-i``), in every
free-text field, whatever the rubric's checks read."""


NO_RECORD_CENTS = 123456
"""The amount a near miss is made of where a variant has none at all ($1,234.56)."""


def near_bases(
    text: str,
    expected: Sequence[int],
    candidates: Sequence[int],
    elsewhere: Sequence[int] = (),
) -> list[int]:
    """The amounts (integer cents, > 0) a near miss is made of for a field holding ``text``:
    the amounts it states (read as a money `AnswerMatch` reads them), and the ``expected``
    ones it states; a text stating none takes the expected amounts, or else those the
    reference states ``elsewhere`` (its other texts), or else the first candidate amount,
    or else `NO_RECORD_CENTS`: every field gets a near miss, whatever the checks read."""
    stated = [c for c in amounts_stated(text) if c > 0]
    said = [e for e in expected if money_text(e) in text]
    out = list(dict.fromkeys([*stated, *said]))
    if out:
        return out
    for pool in (expected, elsewhere, candidates):
        found = sorted({c for c in pool if c > 0})
        if found:
            return found if pool is not candidates else found[:1]
    return [NO_RECORD_CENTS]


def money_text(cents: int) -> str:
    """``$1,234.50`` for 123450 cents (the plain form the mutants add)."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def applies(check: AnswerMatch, variant: TaskVariant) -> bool:
    """Whether ``check`` grades ``variant``: its band is listed (or none are) and its
    ``when`` param, if any, is set."""
    if check.bands is not None and variant.band not in check.bands:
        return False
    return not check.when or bool(variant.params.get(check.when))


def money_expected(env: Environment, variant: TaskVariant) -> list[int]:
    """The amounts (integer cents) the variant's applicable money answer checks expect."""
    rubric = env.families[variant.family].rubric
    out: list[int] = []
    for check in getattr(rubric, "checks", ()):
        if not isinstance(check, AnswerMatch) or not applies(check, variant):
            continue
        if check.normalize != "money" or not isinstance(check.expected, Param):
            continue
        value = variant.params.get(check.expected.name)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out.append(value)
    return sorted(set(out))


def allowed_figures(env: Environment, variant: TaskVariant) -> list[int]:
    """The literal amounts (integer cents) the variant's applicable money answer checks
    allow beside the expected one (``allowed``, not a `Param`): the policy figures a text
    may quote (a refund limit, a goodwill cap), which must stand in a role of their own."""
    rubric = env.families[variant.family].rubric
    out: set[int] = set()
    for check in getattr(rubric, "checks", ()):
        if not isinstance(check, AnswerMatch) or not applies(check, variant):
            continue
        if check.normalize != "money" or check.allowed is None:
            continue
        listed = check.allowed if isinstance(check.allowed, list | tuple) else [check.allowed]
        out |= {v for v in listed if isinstance(v, int) and not isinstance(v, bool) and v > 0}
    return sorted(out)


_DOMAINS: dict[tuple[str, str | None], dict[str, list[str]]] = {}


def _snapshot_domains(env: Environment) -> dict[str, list[str]]:
    """``{value: [every value of its column]}`` over the snapshot's text columns with at
    most `MAX_CATEGORIES` distinct values (cached per environment and snapshot)."""
    key = (env.name, env.snapshot.sha256)
    if key in _DOMAINS:
        return _DOMAINS[key]
    out: dict[str, list[str]] = {}
    subs: dict[str, list[str]] = {}
    db = sqlite3.connect(":memory:")
    try:
        db.deserialize(env.snapshot.data)
        tables = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for table in tables:
            small = []
            for col in [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]:
                values = [
                    r[0]
                    for r in db.execute(
                        f'SELECT DISTINCT "{col}" FROM "{table}" WHERE typeof("{col}") = '
                        f"'text' LIMIT {MAX_CATEGORIES + 1}"
                    )
                ]
                if 2 <= len(values) <= MAX_CATEGORIES:
                    small.append(col)
                    for v in values:
                        out.setdefault(v, [])
                        out[v] += [x for x in values if x not in out[v]]
            for col in small:
                for sub in small:
                    if sub != col:
                        _add_subcategories(db, table, col, sub, out, subs)
    finally:
        db.close()
    _DOMAINS[key] = out
    SUBCATEGORIES[key] = subs
    return out


def subcategory_alternatives(env: Environment, value: str) -> list[str]:
    """The other values' own sub-category names of categorical ``value`` (a shipment's
    service of another carrier, for a carrier: `_add_subcategories`); ``[]`` if none."""
    _snapshot_domains(env)
    return list(SUBCATEGORIES.get((env.name, env.snapshot.sha256), {}).get(value, []))


_NAME_LIKE = re.compile(r"(?=.*[A-Za-z]{2})[A-Za-z0-9]+(?: [A-Za-z0-9]+){0,2}")
"""A short name ("UPS", "2nd Day Air"): one to three words, no code punctuation."""
MAX_SUBCATEGORY_HEADS = 10
"""A column refined by another (`_add_subcategories`) has at most this many values."""
SUBCATEGORIES: dict[tuple[str, str | None], dict[str, list[str]]] = {}
"""Per environment and snapshot: ``{value: [the other values' own sub-category names]}``."""


def _add_subcategories(
    db: sqlite3.Connection,
    table: str,
    col: str,
    sub: str,
    out: dict[str, list[str]],
    subs: dict[str, list[str]],
) -> None:
    """Where column ``sub`` of ``table`` refines ``col`` (most of its values occur under one
    value of ``col`` only: a shipment's ``service`` under its ``carrier``), each value of
    ``col`` also has the other values' own ``sub`` values as alternatives ("Priority Mail"
    names USPS, an alternative to "UPS"), in ``out`` and alone in ``subs``; a ``sub`` value
    shared by several is none. Only short names refine (`_NAME_LIKE`, no all-capital
    codes), at most one ``sub`` value shared, every value of ``col`` refined: a one-to-one
    pair (a code and its name), dates or free text refine nothing."""
    pairs = db.execute(
        f'SELECT DISTINCT "{col}", "{sub}" FROM "{table}" WHERE typeof("{col}") = \'text\' '
        f"AND typeof(\"{sub}\") = 'text'"
    ).fetchall()
    owners: dict[str, set[str]] = {}
    for c, d in pairs:
        owners.setdefault(d, set()).add(c)
    own = {d: next(iter(cs)) for d, cs in owners.items() if len(cs) == 1}
    heads = {c for c, _ in pairs}
    if (
        len(owners) <= len(heads)  # no refinement: a 1:1 pair (a code and its name)
        or len(owners) - len(own) > 1  # at most one value shared ("Ground")
        or {*own.values()} != heads  # every value refined
        or any(d.isupper() for d in owners)  # codes ("EXEMPT"), not names
        or len(heads) > MAX_SUBCATEGORY_HEADS
        or len(owners) > 3 * len(heads)
        or not all(_NAME_LIKE.fullmatch(v) for v in [*heads, *owners])  # names, not codes
    ):
        return
    for value in heads:
        theirs = [d for d, c in sorted(own.items()) if c != value]
        alts = out.setdefault(value, [])
        alts += [d for d in theirs if d not in alts]
        subs.setdefault(value, [])
        subs[value] += [d for d in theirs if d not in subs[value]]


def categories(
    env: Environment, variant: TaskVariant, body: Sequence[Call]
) -> dict[str, list[str]]:
    """``{value: [its alternatives]}``: the categorical values of the variant (a str param
    found in a small snapshot column, `_snapshot_domains`; a reference argument with an enum
    schema) and the other values of their category."""
    out: dict[str, list[str]] = {}
    domains = _snapshot_domains(env)
    for value in variant.params.values():
        if isinstance(value, str) and len(value) >= 2 and value in domains:
            out[value] = [v for v in domains[value] if v != value and len(v) >= 2]
    for name, args in body:
        spec = env.tools.get(name)
        if spec is None:
            continue
        props = spec.input_schema.get("properties", {})
        for arg, prop in props.items():
            value = args.get(arg)
            enums = [o["enum"] for o in prop.get("anyOf", [prop]) if "enum" in o]
            if isinstance(value, str) and enums and value in enums[0]:
                out.setdefault(value, [])
                out[value] += [
                    v for v in enums[0] if isinstance(v, str) and v != value and v not in out[value]
                ]
    return {k: v for k, v in out.items() if v}


def says(text: str, value: str) -> bool:
    """Whether ``text`` holds ``value`` as a whole word (case-insensitive)."""
    return re.search(r"(?<![^\W_])" + re.escape(value) + r"(?![^\W_])", text, re.I) is not None


def answer_kinds(env: Environment, variant: TaskVariant) -> tuple[set[str], set[str], list[Any]]:
    """The kinds (name endings) of the values the applicable answer checks expect: token
    kinds, money kinds, and the expected values themselves."""
    rubric = env.families[variant.family].rubric
    tokens: set[str] = set()
    money: set[str] = set()
    expected: list[Any] = []
    for check in getattr(rubric, "checks", ()):
        if not isinstance(check, AnswerMatch) or not applies(check, variant):
            continue
        if not isinstance(check.expected, Param) or check.normalize == "text":
            continue
        (money if check.normalize == "money" else tokens).add(_suffix(check.expected.name))
        expected.append(variant.params.get(check.expected.name))
    return tokens, money, expected


def of_kinds(
    kinds: set[str], params: Mapping[str, Any], looked_up: Mapping[str, list[Any]]
) -> list[Any]:
    """The distinct str/int values of ``params`` and ``looked_up`` (name -> values the
    reference's reads returned) whose names end in one of ``kinds`` (or are one)."""
    found: list[Any] = []
    sources = [*params.items(), *((k, v) for k, vs in looked_up.items() for v in vs)]
    for key, value in sources:
        if _suffix(key) not in kinds and key not in kinds:
            continue
        for v in _flat_values(value):
            if v is None or isinstance(v, bool) or not isinstance(v, str | int):
                continue
            if v not in found:
                found.append(v)
    return found


def kin_ids(env: Environment, variant: TaskVariant, bundle: Any, exclude: set[str]) -> list[str]:
    """Ids of the same kind as each expected token answer, drawn from the reference's final
    database (`siblings`: the customer's other orders, the other parcels' tracking numbers)
    and not used by the reference: the candidates a shotgun answer lists beside the right
    one, which the reference's reads seldom return."""
    rubric = env.families[variant.family].rubric
    checks = [
        c
        for c in getattr(rubric, "checks", ())
        if isinstance(c, AnswerMatch)
        and applies(c, variant)
        and c.normalize == "token"
        and isinstance(c.expected, Param)
        and not c.negate
    ]
    if not checks:
        return []
    out: list[str] = []
    db = bundle.open_final_db()
    try:
        for check in checks:
            assert isinstance(check.expected, Param)
            value = variant.params.get(check.expected.name)
            if isinstance(value, str | int) and not isinstance(value, bool):
                out += siblings(db, value, check.expected.name, exclude=exclude)
    finally:
        db.close()
    return list(dict.fromkeys(out))


def guarded_values(env: Environment, variant: TaskVariant, bundle: Any) -> list[str]:
    """What the rubric's "must not state" checks refuse, read from the reference's final
    database: every value the ``forbidden_sql`` of an applicable `AnswerMatch` with no
    expected value selects (a party's tax id, another customer's email). A value the
    variant's params do not hold (no generator draws the tax ids) is leaked all the same,
    so such a check is shown to fail on a leak of what it guards."""
    checks = [
        c
        for c in getattr(env.families[variant.family].rubric, "checks", ())
        if isinstance(c, AnswerMatch)
        and c.expected is None
        and c.forbidden_sql
        and applies(c, variant)
    ]
    if not checks:
        return []
    out: list[str] = []
    db = bundle.open_final_db()
    register_sql_functions(db)  # a guard reads texts through them (`mcpgym_unquoted`...)
    try:
        for check in checks:
            try:
                rows = db.execute(str(check.forbidden_sql), dict(variant.params)).fetchall()
            except (sqlite3.Error, ValueError):
                continue  # the check reports its own SQL error when graded
            values = [str(r[0]) for r in rows if r and isinstance(r[0], str | int)]
            out += values[:GUARDED_PER_CHECK]
    finally:
        db.close()
    return list(dict.fromkeys(out))
