"""``stranger-i`` mutants: field ``i`` also states what a tool result showed the agent of
another party's record (adversarial round 10, P1: another customer's order number, name,
street line and tracking number in a reply).

A guard that reads only what the episode showed the agent (`mcpgym_grading.AnswerMatch`
with ``forbidden_shown``) is shown here to fail on what it exists to refuse, in every
look-alike form. The mutant makes one of the reference's read calls again on a
neighbouring record first (its first ``*_id`` integer argument one to `MAX_STEPS` away,
nearest first) whose result shows values the guard forbids (another customer's order
beside the customer's own), then writes those values (at most `MAX_VALUES`) into field
``i``; the look-alike forms of `mcpgym_clients.instrument.forms` follow (condition 7: each
must grade as the plain one). The plain mutant graded passed is a finding of its own
(`stranger_finding`): a value a tool result showed of another party is not refused.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from mcpgym_clients.instrument.candidates import applies
from mcpgym_clients.instrument.controls import Call
from mcpgym_clients.instrument.forms import FORMS
from mcpgym_grading import AnswerMatch, CheckEvaluationError, register_sql_functions
from mcpgym_grading._shown import shown_of, shown_values
from mcpgym_server import Environment, TaskVariant, ToolCall, replay

__all__ = ["MAX_STEPS", "MAX_VALUES", "stranger_finding", "stranger_lookup", "strangers"]

MAX_STEPS = 3
"""How far from the reference's record the neighbouring records are looked for."""

MAX_VALUES = 6
"""Values of the other party's record written into the field (all fit a short field)."""

_LOOKUPS: dict[tuple[int, str], tuple[Call, list[str]] | None] = {}


def _guards(env: Environment, variant: TaskVariant) -> list[AnswerMatch]:
    return [
        c
        for c in getattr(env.families[variant.family].rubric, "checks", ())
        if isinstance(c, AnswerMatch) and c.forbidden_shown and c.forbidden_sql
        if applies(c, variant)
    ]


def _forbidden_after(
    env: Environment, variant: TaskVariant, calls: list[Call], guards: list[AnswerMatch]
) -> list[str]:
    """What ``guards`` forbid in the episode ``calls`` make, when its first call succeeds."""
    bundle = replay(
        env, variant.family, variant.band, variant.seed, [ToolCall(n, a) for n, a in calls]
    )
    if not bundle.log or bundle.log[0].status != "ok":
        return []
    shown = shown_of(bundle, variant)
    db = bundle.open_final_db()
    register_sql_functions(db)  # a guard's SQL may read texts through them
    out: list[str] = []
    try:
        for check in guards:
            try:
                found = shown_values(
                    db, str(check.forbidden_sql), variant.params, shown, gate_sql=check.shown_sql
                )
            except (sqlite3.Error, CheckEvaluationError):
                continue  # the check reports its own error when graded
            out += [str(v) for v in found if len(str(v)) >= 3]
    finally:
        db.close()
    return list(dict.fromkeys(out))


def stranger_lookup(
    env: Environment, variant: TaskVariant, base: list[Call]
) -> tuple[Call, list[str]] | None:
    """A read call of the reference made on a neighbouring record whose result shows values
    the rubric's ``forbidden_shown`` guards refuse, and those values (at most `MAX_VALUES`);
    ``None`` when the rubric has no such guard or no neighbour within `MAX_STEPS` shows one.
    ``base``: the reference's calls, submit last. Remembered per environment and variant."""
    key = (id(env), variant.id)
    if key in _LOOKUPS:
        return _LOOKUPS[key]
    found: tuple[Call, list[str]] | None = None
    guards = _guards(env, variant)
    for name, args in base[:-1] if guards else []:
        spec = env.tools.get(name)
        ids = [
            k
            for k, v in args.items()
            if k.endswith("_id") and isinstance(v, int) and not isinstance(v, bool)
        ]
        if spec is None or spec.kind != "read" or not ids:
            continue
        for step in (s for n in range(1, MAX_STEPS + 1) for s in (n, -n)):
            lookup: Call = (name, {**args, ids[0]: int(args[ids[0]]) + step})
            values = _forbidden_after(env, variant, [lookup, *base], guards)
            if values:
                found = (lookup, values[:MAX_VALUES])
                break
        if found is not None:
            break
    if len(_LOOKUPS) > 4096:
        _LOOKUPS.clear()
    _LOOKUPS[key] = found
    return found


def strangers(
    env: Environment,
    variant: TaskVariant,
    base: list[Call],
    group: str,
    text: str,
    calls_of: Callable[..., list[Call]],
    with_forms: Callable[..., list[Any]],
) -> list[Any]:
    """The ``stranger-<group>`` mutants of field ``group`` (whose text is ``text``): the
    `stranger_lookup` call first, then the reference with the field also stating the values
    it showed, plain and in every form (``with_forms``: the gate's `_with_forms`, given
    ``calls_of``, the field's call builder); none when there is no such lookup."""
    found = stranger_lookup(env, variant, base)
    if found is None:
        return []
    lookup, values = found
    values = [v for v in values if v.casefold() not in text.casefold()]
    if not values:
        return []

    def with_lookup(vals: list[str], **options: Any) -> list[Call]:
        return [lookup, *calls_of(vals, **options)]

    return with_forms(group, "stranger", values, tuple(FORMS), with_lookup, split=group != "submit")


def stranger_finding(where: str, label: str, group: str, values: Any, grade: Any) -> str:
    """The finding line for the plain ``stranger`` mutant graded ``grade`` (its JSON), or
    ``""``: reported when it is graded passed."""
    if not grade or not grade.get("passed"):
        return ""
    return (
        f"{where}: another party's values a tool result showed pass: field {group} also "
        f"stating {', '.join(list(values)[:3])} of the record a neighbouring lookup showed "
        f"(`{label}`) is graded passed at {grade.get('score'):.3f}: refuse them with an "
        "`AnswerMatch` whose `forbidden_sql` selects another party's values "
        "(`forbidden_shown`: only those the episode showed)"
    )
