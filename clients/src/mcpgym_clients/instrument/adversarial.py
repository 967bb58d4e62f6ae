"""Adversarial controls for the ship gate: mutants of the reference that look for a shortcut.

The mutants of `mcpgym_clients.instrument.controls` look for *vacuous* checks (a check no
run fails). These look for *hackable* ones (a check a shortcut passes), from the
environment's own data, in any environment:

- ``stuff-i``: answer field ``i`` (a free-text argument of 20 characters or more of a write
  call, or the answer given to ``submit``) also lists every *candidate value* of the variant:
  for each answer check of the rubric (`mcpgym_grading.AnswerMatch` whose ``expected`` is a
  `Param`), every value of the same kind (the variant params and what the reference's reads
  returned whose names end the same way: ``tracking_number``, ``order_id``...), and the ids
  of the same kind the database holds beside the expected one (`siblings`: the customer's
  other orders, the other parcels' tracking numbers). A shotgun answer: the right value
  among all the others.
- ``amounts-i``: the same with every candidate amount (``*_cents`` values written ``$X.YY``
  that the reference's texts do not state), in *every* free-text field, whatever the
  checks read (round 9, G1: a text no money check reads was never given one); its forms
  (`MONEY_FORMS`) write them as cents, in words, in euros, ``12 dollars 50``, with
  superscript cents, a decimal comma, a ``k``...: an amount in another form is still stated.
- ``near-i``: field ``i`` also states a near miss (one cent more, and double) of each
  amount it states, or of the expected amounts, or of the first candidate (`candidates.
  near_bases`): every field gets one; "contains is not states", the right amount beside
  another is not stated. Either passing with no money check failing on it is a finding
  (amounts no check reads, `_amounts_unread`).
- ``omit-i:K`` / ``choices-i:K``: a categorical answer (a variant param or a reference
  argument whose value is one of a few: an enum of the tool's schema, or a snapshot column
  with at most `MAX_CATEGORIES` distinct values, such as a carrier or a team) that field
  ``i`` states: the field with that value taken out (tells which checks read it), and the
  field also listing every other value of the category (a shotgun of alternatives);
  ``amounts-i-allowed``: field ``i`` also states the policy figures the money checks
  allow (`candidates.allowed_figures`: a refund limit, a goodwill cap) with no role: an
  allowed figure bare beside the answer is a hedge unless it stands in a role of its own;
  ``choices-i:K-own``: the field also naming the other values by their own sub-category
  only (another carrier's service, "Priority Mail" beside "UPS": `candidates.
  subcategory_alternatives`).
- ``leak-i``: field ``i`` also lists every variant value and what was looked up of the
  same kinds (as ``leak-text``): what a "must not reveal" check exists to refuse.
- ``guard-i``: field ``i`` also lists the first values each "must not state" check's
  ``forbidden_sql`` selects (`candidates.guarded_values`: values no param holds, such as
  ledger's tax ids).
- ``stranger-i``: a read call of the reference made on a neighbouring record first, and
  field ``i`` also stating what it showed that a ``forbidden_shown`` guard refuses (another
  customer's order: `mcpgym_clients.instrument.stranger`); reported when graded passed.
- ``blank-i``: field ``i`` says nothing (as ``blank-text``): tells which checks read it.
- ``flip-i-from-B``: field ``i`` holds the text band ``B``'s reference writes there, where
  band ``B`` calls another set of write tools (another outcome), with this variant's
  values written in (`mcpgym_clients.instrument.flip`): a reply stating the other band's
  decision ("cancelled" where the order shipped). Reported when it passes although a
  check reads the field. ``claim-A-i`` / ``deny-A-i``: field ``i`` also claims action
  ``A`` done, or denies it, for each action a `DecisionMatch` refuses (controls only).
- ``swap-i-N``: field ``i`` with two distinct values of one kind it states exchanged (two
  amounts, two tracking numbers or their carriers, two invoice numbers: `instrument.swap`),
  all else kept. Reported when it is graded passed with no check failing.
- ``fact-i-N``: field ``i`` with one value it states, not an amount (a date, an order,
  invoice or account number), replaced by another of its kind (`instrument.fact`), in
  the families of `fact.FACT_FAMILIES`. Reported when it is graded passed with no check
  failing.
- ``second-record-i``: field ``i``'s call made again on the neighbouring record, its text
  also stating ``near-i``'s near misses (`instrument.records`). Reported as ``swap-i-N``,
  where ``near-i`` fails a check (the field is read on its own record).
- ``undo-T``: a write of tool ``T`` the task does not call for, then the same call setting
  the values back (`mcpgym_clients.instrument.undo`): the end state equals the reference's,
  the audit trail and the tool-call log do not; it must fail.
- ``<base>~<form>``: the values added by ``stuff``, ``amounts`` or ``leak`` (the forms of
  `LEAK_ONLY_FORMS`: ``leak`` only, its values include the stuffed ones) written in a
  look-alike form (`FORMS`: digit groups split by an em dash, a figure dash, an em space or
  an ideographic space; fullwidth characters; "at" and "dot" spelled out; invisible
  characters between them (a variation selector, a Hangul filler); Arabic-Indic digits; a
  minus sign glued in front; digits split by spaces; characters split by punctuation
  (``. / , _ · :``), by long blanks (4+ spaces, line breaks, tabs) or wrapped in brackets
  and quotes by groups; digits written as words; every character an HTML reference; the
  value stored reversed inside a right-to-left override; Cyrillic letters and ``O`` /
  ``l`` for digits drawn alike; an email's ``@`` as a glued
  ``AT``, as ``(at)`` / ``(dot)``, or left out, a plus-tag glued in or user and domain
  stated apart; the list spread over several calls of the
  same tool, each value cut between two of them). The same content: every check must
  grade it as it grades the plain form.

`shortcut_failures` turns their grades into the gate's findings (condition 7).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mcpgym_clients.instrument.candidates import (
    MONEY_KIND,
    allowed_figures,
    answer_kinds,
    categories,
    guarded_values,
    kin_ids,
    money_expected,
    money_text,
    near_bases,
    of_kinds,
    says,
    subcategory_alternatives,
)
from mcpgym_clients.instrument.controls import (
    BLAND_TEXT,
    Call,
    _flat_values,
    _looked_up,
    _suffix,
    json_key,
    reference_calls,
    task_values,
)
from mcpgym_clients.instrument.fact import fact_finding, fact_mutants
from mcpgym_clients.instrument.flip import claims, flips
from mcpgym_clients.instrument.forms import FORMS, LEAK_ONLY_FORMS, MONEY_FORMS, groups
from mcpgym_clients.instrument.records import second_record_call, second_record_finding
from mcpgym_clients.instrument.stranger import stranger_finding, strangers
from mcpgym_clients.instrument.swap import swap_finding, swapped_calls, swaps
from mcpgym_clients.instrument.undo import undo_mutants
from mcpgym_grading import AnswerMatch, amounts_stated
from mcpgym_server import SUBMIT_TOOL, Environment, TaskVariant, ToolCall, replay

__all__ = [
    "FORMS",
    "MONEY_FORMS",
    "TEXT_FORMS",
    "Adversary",
    "adversaries",
    "categories",
    "shortcut_failures",
]

MIN_TEXT = 20
"""Free-text arguments at least this long are answer fields (as for ``blank-text``)."""


TEXT_FORMS = tuple(f for f in FORMS if f not in LEAK_ONLY_FORMS)
"""The forms of the ``stuff`` and ``choices`` mutants (the ``leak`` ones take every form)."""


@dataclass(frozen=True)
class Adversary:
    """One adversarial mutant: its calls and what the gate compares it with.

    Attributes:
        label: ``stuff-3``, ``stuff-3~em-dash``, ``leak-3~fullwidth``... group: the field it
            changes (``3``, or ``submit``; an undo mutant's own label). role: ``blank``,
            ``stuff``, ``amounts`` or ``leak`` (a plain form), ``undo``, ``swap``,
            ``second``, or a form name. base: for a form, the label of the plain mutant
            with the same values (the one it must grade like). values: what it adds (an
            undo mutant: the arguments it changed; a swap: its kind and the two values; a
            second record: ``id_key=N`` and the first near misses).
    """

    label: str
    calls: list[Call]
    group: str
    role: str
    base: str = ""
    values: tuple[str, ...] = ()


def _fields(body: Sequence[Call], env: Environment, answer: str | None) -> list[tuple[str, int]]:
    """``(group, index)`` of each answer field: a write call with free text, and submit."""
    out: list[tuple[str, int]] = []
    for i, (name, args) in enumerate(body):
        spec = env.tools.get(name)
        if spec is None or spec.kind != "write":
            continue
        if any(isinstance(v, str) and len(v) >= MIN_TEXT for v in args.values()):
            out.append((str(i + 1), i))
    if answer is not None:
        out.append(("submit", len(body)))
    return out


def adversaries(env: Environment, variant: TaskVariant) -> list[Adversary]:
    """The adversarial mutants of ``variant``'s reference (see the module docstring)."""
    base = reference_calls(variant)
    body, submit = base[:-1], base[-1]
    answer = submit[1].get("answer") if isinstance(submit[1].get("answer"), str) else None
    replayed = replay(
        env, variant.family, variant.band, variant.seed, [ToolCall(n, a) for n, a in base]
    )
    looked_up = _looked_up(env, variant, base, replayed)
    token_kinds, money_kinds, expected = answer_kinds(env, variant)
    want = {str(v) for v in expected if v is not None}
    params = variant.params
    leak_kinds = {_suffix(k) for k in params}
    used = {json_key(v) for _, args in body for v in args.values()}
    said = {str(v) for _, args in body for v in _flat_values(args) if isinstance(v, str | int)}
    kin = kin_ids(env, variant, replayed, want | said)
    stated = set(
        amounts_stated(*(v for _, args in body for v in _flat_values(args) if isinstance(v, str)))
    )
    if answer is not None:
        stated |= set(amounts_stated(answer))
    guarded = guarded_values(env, variant, replayed)
    out = [
        Adversary(label, calls, label, "undo", values=changed)
        for label, calls, changed in undo_mutants(env, variant, base, replayed)
    ]
    for group, i in _fields(body, env, answer):
        if group == "submit":
            calls_of = _submit_builder(body, str(answer))
            text = str(answer)
        else:
            calls_of = _call_builder(body, submit, i)
            text = "\n".join(v for v in body[i][1].values() if isinstance(v, str))
        out.append(
            Adversary(f"blank-{group}", calls_of([BLAND_TEXT], replace=True), group, "blank")
        )
        if group != "submit":
            out += _flipped(env, variant, body, submit, i, group)
        for n, swap in enumerate(swaps(env, variant, body, looked_up, text), 1):
            calls = swapped_calls(body, submit, i, swap)
            out.append(Adversary(f"swap-{group}-{n}", calls, group, "swap", values=swap[:3]))
        out += [
            Adversary(*m, "fact", values=v)
            for m, v in fact_mutants(variant, looked_up, text, body, submit, i, group)
        ]
        for label, sentence in claims(env, variant):  # controls: no decision check is vacuous
            out.append(Adversary(f"{label}-{group}", calls_of([sentence[:-1]]), group, "claim"))
        plans: list[tuple[str, list[str], tuple[str, ...]]] = []
        stuff = [
            str(v)
            for v in of_kinds(token_kinds, params, looked_up)
            if len(str(v)) >= 3 and str(v) not in want and json_key(v) not in used
        ]
        stuff = [v for v in dict.fromkeys([*stuff, *kin]) if v.casefold() not in text.casefold()]
        if stuff:
            plans.append(("stuff", stuff, TEXT_FORMS))
        # every amount of the variant, in every free-text field, whatever the checks read:
        # a text that states amounts needs a money check that reads it
        cents = [
            v
            for v in of_kinds(money_kinds | {MONEY_KIND}, params, looked_up)
            if isinstance(v, int)
            and not isinstance(v, bool)
            and v > 0
            and str(v) not in want
            and json_key(v) not in used
            and v not in stated  # the reference states it (in another field): no candidate
        ]
        amounts = [a for a in (money_text(v) for v in sorted(set(cents))) if a not in text]
        if amounts:
            plans.append(("amounts", amounts, MONEY_FORMS))
        # the policy figures the checks allow, alone and in no role: a hedge with them
        figures = [money_text(v) for v in allowed_figures(env, variant)]
        figures = [a for a in figures if a not in text and a not in amounts]
        if figures:
            out.append(
                Adversary(
                    f"amounts-{group}-allowed",
                    calls_of(figures),
                    group,
                    "amounts",
                    values=tuple(figures),
                )
            )
        near = [
            money_text(c)
            for e in near_bases(text, money_expected(env, variant), cents, sorted(stated))
            for c in (e + 1, 2 * e)
            if money_text(c) not in text and c not in cents  # candidates are `amounts-i`'s
        ]
        near = list(dict.fromkeys(near))
        if near:
            out.append(
                Adversary(f"near-{group}", calls_of(near), group, "near", values=tuple(near))
            )
        second = (
            None if group == "submit" else second_record_call(body[i], _text_key(body[i][1]), near)
        )
        if second is not None:
            calls = [*body[: i + 1], second[0], *body[i + 1 :], submit]
            values = (second[1], *near[:2])
            out.append(Adversary(f"second-record-{group}", calls, group, "second", values=values))
        for value, others in categories(env, variant, body).items():
            if not says(text, value):
                continue
            key = f"{group}:{value}"
            out.append(Adversary(f"omit-{key}", calls_of([], omit=value), key, "omit"))
            out += _with_forms(key, "choices", others, TEXT_FORMS, calls_of, split=False)
            own = [v for v in subcategory_alternatives(env, value) if not says(text, v)]
            if own:  # the other values named by their own sub-category only ("Priority Mail")
                out.append(
                    Adversary(
                        f"choices-{key}-own", calls_of(own), key, "choices", values=tuple(own)
                    )
                )
        leak = [
            str(v)
            for v in [*task_values(params), *of_kinds(leak_kinds, {}, looked_up)]
            if isinstance(v, str | int) and not isinstance(v, bool) and len(str(v)) >= 3
        ]
        leak = [v for v in dict.fromkeys(leak) if v.casefold() not in text.casefold()]
        if leak:
            plans.append(("leak", leak, tuple(FORMS)))
        # what the must-not-state checks guard, as a leak of its own: short enough that every
        # form of it fits a field an app cuts (ledger keeps 300 characters of a memo)
        guard = [v for v in guarded if v.casefold() not in text.casefold() and v not in leak]
        if guard:
            plans.append(("guard", guard, tuple(FORMS)))
        for role, values, forms in plans:
            out += _with_forms(group, role, values, forms, calls_of, split=group != "submit")
        out += strangers(env, variant, base, group, text, calls_of, _with_forms)
    return out


def _with_forms(
    group: str,
    role: str,
    values: list[str],
    forms: Sequence[str],
    calls_of: Callable[..., list[Call]],
    *,
    split: bool,
) -> list[Adversary]:
    label = f"{role}-{group}"
    out = [Adversary(label, calls_of(values), group, role, values=tuple(values))]
    plain_of: dict[tuple[str, ...], str] = {tuple(values): label}
    for form in forms:
        fn = FORMS[form]
        pairs = [(v, fn(v)) for v in values]
        kept = tuple(v for v, f in pairs if f is not None)
        if not kept:
            continue
        if kept not in plain_of:  # the plain mutant with exactly these values
            plain_of[kept] = f"{label}@{len(plain_of)}"
            out.append(Adversary(plain_of[kept], calls_of(list(kept)), group, role, values=kept))
        shown = [f for _, f in pairs if f is not None]
        out.append(Adversary(f"{label}~{form}", calls_of(shown), group, form, plain_of[kept], kept))
    if split and len(values) >= 1:
        out.append(
            Adversary(
                f"{label}~split", calls_of(values, split=True), group, "split", label, tuple(values)
            )
        )
    return out


def _call_builder(body: Sequence[Call], submit: Call, i: int) -> Callable[..., list[Call]]:
    name, args = body[i]
    key = _text_key(args)

    def calls_of(
        values: list[str], *, replace: bool = False, split: bool = False, omit: str = ""
    ) -> list[Call]:
        if omit:
            changed = [(name, {**args, key: _without(str(args[key]), omit)})]
        elif replace:
            changed = [
                (
                    name,
                    {
                        **args,
                        **{
                            k: BLAND_TEXT
                            for k, v in args.items()
                            if isinstance(v, str) and len(v) >= MIN_TEXT
                        },
                    },
                )
            ]
        elif split:
            # the list spread over consecutive calls, each value cut between two of them
            # (digit groups only: a cut word or amount is no longer the same value)
            texts = [f"{args[key]}\n\n"]
            for v in values:
                h = 4 * (len(v) // 8) if groups(v, " ") is not None else 0
                if h:
                    texts[-1] += v[:h]
                    texts.append(v[h:] + ", ")
                else:
                    texts.append(v + ", ")
            changed = [(name, {**args, key: t}) for t in texts]
        else:
            changed = [(name, {**args, key: f"{args[key]}\n\n{', '.join(values)}."})]
        return [*body[:i], *changed, *body[i + 1 :], submit]

    return calls_of


def _flipped(
    env: Environment, variant: TaskVariant, body: Sequence[Call], submit: Call, i: int, group: str
) -> list[Adversary]:
    """``flip-i-from-B``: field ``i`` with band ``B``'s text of it (`flip.flips`)."""
    name, args = body[i]
    key = _text_key(args)
    return [
        Adversary(
            f"flip-{group}-from-{band}",
            [*body[:i], (name, {**args, key: text}), *body[i + 1 :], submit],
            group,
            "flip",
            values=(band,),
        )
        for band, text in flips(env, variant, body, i, key)
    ]


def _text_key(args: dict[str, Any]) -> str:
    """The longest free-text argument (the answer field of a write call)."""
    return max(
        (k for k, v in args.items() if isinstance(v, str) and len(v) >= MIN_TEXT),
        key=lambda k: len(str(args[k])),
    )


def _without(text: str, value: str) -> str:
    """``text`` with every whole-word ``value`` (any case) taken out, ``(blank)`` in its
    place: a word no reader takes for a negation (``(not said)`` read as a denial to the
    decision reader, so a decision check seemed to read the value)."""
    return re.sub(r"(?<![^\W_])" + re.escape(value) + r"(?![^\W_])", "(blank)", text, flags=re.I)


def _submit_builder(body: Sequence[Call], answer: str) -> Callable[..., list[Call]]:
    def calls_of(
        values: list[str], *, replace: bool = False, split: bool = False, omit: str = ""
    ) -> list[Call]:
        if omit:
            return [*body, (SUBMIT_TOOL, {"answer": _without(answer, omit)})]
        text = BLAND_TEXT if replace else f"{answer}\n\n{', '.join(values)}."
        return [*body, (SUBMIT_TOOL, {"answer": text})]

    return calls_of


def _results(job: Any) -> dict[str, dict[str, Any]]:
    grade = job.record.grade if job.record is not None else None
    return {c["name"]: c for c in (grade or {}).get("checks", []) if c.get("applicable")}


def _refused_calls(job: Any) -> int:
    transcript = job.record.transcript if job.record is not None else []
    return sum(1 for m in transcript if m.get("mcpgym_is_error"))


def _graded(job: Any) -> bool:
    rec = job.record
    return rec is not None and rec.grade is not None and rec.grade.get("status") == "graded"


def _amounts_unread(adv: Adversary, job: Any, answer_checks: dict[str, str]) -> str:
    """The finding, or ``""``, for an ``amounts-i`` / ``near-i`` mutant (a plain one) graded
    passed with no money answer check failing on it: field ``i`` states amounts that no
    check reads (every text the agent states amounts in needs a money check that reads it,
    docs/instrument.md), whether or not any check reads the field otherwise."""
    if adv.role not in ("amounts", "near") or "@" in adv.label:
        return ""
    grade = job.record.grade
    if not grade.get("passed"):
        return ""
    if any(answer_checks.get(n) == "money" and not c["passed"] for n, c in _results(job).items()):
        return ""
    what = "a near miss of its amounts" if adv.role == "near" else "every candidate amount"
    shown = ", ".join(adv.values[:6]) + (", ..." if len(adv.values) > 6 else "")
    return (
        f"field {adv.group} states amounts no check reads: the field also stating {what} "
        f"({shown}; `{adv.label}`) is graded passed at {grade.get('score'):.3f}; give the "
        'text a money check that reads it (an `AnswerMatch` with `normalize="money"`, '
        '`mode="states"` and the amounts it may state `allowed`)'
    )


def shortcut_failures(env: Environment, jobs: Sequence[Any]) -> tuple[list[str], int]:
    """Condition 7's findings over the finished adversarial jobs (``job.adversary`` set).

    - a shotgun passes: an answer check reads field ``i`` (it fails when the field says
      nothing) and ``stuff-i`` / ``amounts-i`` is graded passed, where ``blank-i`` is not or
      ``stuff-i`` scores 1.0 (listing every candidate is a shortcut to the pass or the points);
    - a near miss passes: a money answer check that reads field ``i`` passes ``near-i`` (the
      right amount beside one cent more, or double);
    - a shotgun of alternatives passes: a check that fails on ``omit-i:K`` (it reads the
      categorical value ``K``) passes ``choices-i:K`` (every alternative named beside it);
    - a look-alike evades: a check that fails on a plain mutant passes on the same values in
      a look-alike form (a form whose extra calls the environment refused is left out);
    - a write undone later passes: an ``undo-T`` mutant is graded passed;
    - amounts no check reads: ``amounts-i`` or ``near-i`` (every field gets both) is graded
      passed and no money answer check fails on it (`_amounts_unread`).
    - the decision is not read: ``flip-i-from-B`` (another band's text, another outcome) is
      graded passed where ``blank-i`` fails a check (the field is read).
    - a swap passes: ``swap-i-N`` (two values of one kind exchanged) is graded passed with
      no check failing (`swap.swap_finding`).
    - another party's values a tool result showed pass: ``stranger-i`` is graded passed
      (`stranger.stranger_finding`).
    - a note on another record is not read: ``second-record-i`` is graded passed with no
      check failing and no call refused, where ``near-i`` fails a check
      (`records.second_record_finding`).

    Returns:
        One line per finding, and how many adversarial episodes were compared.
    """
    rubrics = {name: fam.rubric for name, fam in env.families.items()}
    by_variant: dict[tuple[str, str, int], dict[str, Any]] = {}
    for job in jobs:
        if getattr(job, "adversary", None) is not None and _graded(job):
            by_variant.setdefault((job.task, job.band, job.seed), {})[job.adversary.label] = job
    lines: list[str] = []
    for (task, band, seed), found in sorted(by_variant.items()):
        where = f"{task}@{band}#{seed}"
        answer_checks = {
            c.name: c.normalize
            for c in getattr(rubrics[task], "checks", ())
            if isinstance(c, AnswerMatch)
        }
        for label, job in sorted(found.items()):
            adv: Adversary = job.adversary
            before = len(lines)
            if adv.role in ("stuff", "amounts") and "@" not in label:
                blank = found.get(f"blank-{adv.group}")
                if blank is None:
                    continue
                kind = "money" if adv.role == "amounts" else "token"
                reading = sorted(
                    n
                    for n, c in _results(blank).items()
                    if answer_checks.get(n) == kind and not c["passed"]
                )
                grade = job.record.grade
                full = grade.get("score") == 1.0
                if (
                    reading
                    and grade.get("passed")
                    and (not blank.record.grade.get("passed") or full)
                ):
                    what = "candidate amounts" if adv.role == "amounts" else "candidate values"
                    names = ", ".join(f"`{n}`" for n in reading)
                    lines.append(
                        f"{where}: a shotgun passes: field {adv.group} listing every one of the "
                        f"{len(adv.values)} {what} (`{label}`) is graded passed at "
                        f"{grade.get('score'):.3f}; check(s) {names} "
                        "read it: name the other candidates as `forbidden` values"
                    )
            elif adv.role == "flip":
                blank = found.get(f"blank-{adv.group}")
                grade = job.record.grade
                if blank is None or not grade.get("passed"):
                    continue
                reading = sorted(n for n, c in _results(blank).items() if not c["passed"])
                if reading:
                    lines.append(
                        f"{where}: the decision is not read: field {adv.group} with the text "
                        f"band {adv.values[0]} writes there (another outcome, `{label}`) is "
                        f"graded passed at {grade.get('score'):.3f}, though check(s) "
                        f"{', '.join(f'`{n}`' for n in reading)} read the field: add a "
                        "`DecisionMatch` (the outcome this band did not take is not claimed)"
                    )
            elif adv.role == "swap":
                line = swap_finding(where, label, adv.group, adv.values, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "stranger" and "@" not in label:
                line = stranger_finding(where, label, adv.group, adv.values, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "fact":
                line = fact_finding(where, label, adv.group, adv.values, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "second":
                grade, refused = job.record.grade, _refused_calls(job)
                near = found.get(f"near-{adv.group}")
                near = near.record.grade if near is not None else None
                line = second_record_finding(
                    where, label, adv.group, adv.values, grade, refused, near
                )
                lines += [line] if line else []
            elif adv.role == "undo":
                grade = job.record.grade
                if grade.get("passed"):
                    lines.append(
                        f"{where}: a write undone later passes: `{label}` (the reference plus "
                        f"a write of {', '.join(adv.values)} the task does not call for, then "
                        f"the same call setting it back) is graded passed at "
                        f"{grade.get('score'):.3f}: no required check sees it; compare the "
                        "app's audit trail with the reference's (`NoCollateralChanges` "
                        "`same_rows`) or refuse the call in the tool-call log (`ToolNotCalled`)"
                    )
            elif adv.role == "near":
                blank = found.get(f"blank-{adv.group}")
                if blank is None:
                    continue
                mine = _results(job)
                fooled = sorted(
                    n
                    for n, c in _results(blank).items()
                    if answer_checks.get(n) == "money"
                    and not c["passed"]
                    and mine.get(n, {}).get("passed")
                )
                if fooled:
                    lines.append(
                        f"{where}: check(s) {', '.join(f'`{n}`' for n in fooled)} read an "
                        f"amount in field {adv.group} and pass when it also states a near miss "
                        f"({', '.join(adv.values)}; `{label}`): the right amount beside another "
                        'is not stated; use `mode="states"` (with `allowed` amounts)'
                    )
            elif adv.role == "choices" and "@" not in label:
                omit = found.get("omit-" + adv.group)
                if omit is None:
                    continue
                mine = _results(job)
                fooled = sorted(
                    n
                    for n, c in _results(omit).items()
                    if not c["passed"] and mine.get(n, {}).get("passed")
                )
                if fooled:
                    value = adv.group.split(":", 1)[1]
                    lines.append(
                        f"{where}: check(s) {', '.join(f'`{n}`' for n in fooled)} read "
                        f"`{value}` in field {adv.group.split(':', 1)[0]} (they fail without "
                        f"it) and pass when the field also names every alternative "
                        f"({', '.join(adv.values)}; `{label}`): a shotgun of alternatives "
                        "passes; name the alternatives as forbidden values"
                    )
            elif adv.base:
                plain = found.get(adv.base)
                if plain is None or _refused_calls(job) > _refused_calls(plain):
                    continue
                mine = _results(job)
                # a leak writes raw values (cents as integers, ids): to a money check they are
                # bare numbers, whose reading is not meant to survive a form (``141, 26647``
                # vs ``141,26647``); amounts' look-alikes are the ``amounts`` mutants' forms
                raw = adv.base.startswith(("leak", "guard", "stranger"))
                evaded = sorted(
                    n
                    for n, c in _results(plain).items()
                    if not c["passed"]
                    and mine.get(n, {}).get("passed")
                    and not (raw and answer_checks.get(n) == "money")
                )
                if evaded:
                    lines.append(
                        f"{where}: check(s) {', '.join(f'`{n}`' for n in evaded)} fail on "
                        f"`{adv.base}` but pass on the same values in the {adv.role} form "
                        f"(`{label}`): read the text through mcpgym_grading's normaliser "
                        "(an AnswerMatch with `forbidden` / `forbidden_sql`)"
                    )
            # amounts or a near miss that passed and no finding above names a check of
            unread = _amounts_unread(adv, job, answer_checks)
            if unread and len(lines) == before:
                lines.append(f"{where}: {unread}")
    return lines, sum(len(v) for v in by_variant.values())
