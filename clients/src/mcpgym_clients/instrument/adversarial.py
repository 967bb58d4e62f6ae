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
- ``dates-i``: a field that states an ISO date also lists the variant's other dates on file
  and the day before and after each date it states (`fact.date_candidates`, at most
  `fact.MAX_DATES`; one plain mutant): a note listing several dates states none of them.
  Reported when it is graded passed with no check failing (`fact.dates_finding`).
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
  ``claim-A-i~F``: the same claim in one frame ``F`` (``After checking, I ...``, ``- [x] ...``,
  ``Done: ...``, ``✅ ...``: `flip.framed_claims`); reported where a check the plain claim
  fails passes it.
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

from mcpgym_clients.instrument._adv_findings import shortcut_failures
from mcpgym_clients.instrument._adversary import (
    MIN_TEXT as MIN_TEXT,
)
from mcpgym_clients.instrument._adversary import (
    Adversary,
    _call_builder,
    _fields,
    _flipped,
    _submit_builder,
    _text_key,
    _with_forms,
)
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
    _flat_values,
    _looked_up,
    _suffix,
    json_key,
    reference_calls,
    task_values,
)
from mcpgym_clients.instrument.fact import date_candidates, fact_mutants
from mcpgym_clients.instrument.flip import claims, framed_claims
from mcpgym_clients.instrument.forms import FORMS, LEAK_ONLY_FORMS, MONEY_FORMS
from mcpgym_clients.instrument.records import second_record_call
from mcpgym_clients.instrument.stranger import strangers
from mcpgym_clients.instrument.swap import swapped_calls, swaps
from mcpgym_clients.instrument.undo import undo_mutants
from mcpgym_grading import amounts_stated
from mcpgym_server import Environment, TaskVariant, ToolCall, replay

__all__ = [
    "FORMS",
    "MONEY_FORMS",
    "TEXT_FORMS",
    "Adversary",
    "adversaries",
    "categories",
    "shortcut_failures",
]

TEXT_FORMS = tuple(f for f in FORMS if f not in LEAK_ONLY_FORMS)
"""The forms of the ``stuff`` and ``choices`` mutants (the ``leak`` ones take every form)."""


def _free_text(args: dict[str, object]) -> str:
    """The free text of a call's arguments (strings of `MIN_TEXT` characters or more): what
    the field says, not its date or id arguments."""
    return "\n".join(v for v in args.values() if isinstance(v, str) and len(v) >= MIN_TEXT)


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
        for label, frame, claim in framed_claims(env, variant):  # the claims in frames
            plain = f"{label}-{group}"
            out.append(
                Adversary(f"{plain}~{frame}", calls_of([claim.rstrip(".")]), group, "frame", plain)
            )
        plans: list[tuple[str, list[str], tuple[str, ...]]] = []
        stuff = [
            str(v)
            for v in of_kinds(token_kinds, params, looked_up)
            if len(str(v)) >= 3 and str(v) not in want and json_key(v) not in used
        ]
        stuff = [v for v in dict.fromkeys([*stuff, *kin]) if v.casefold() not in text.casefold()]
        if stuff:
            plans.append(("stuff", stuff, TEXT_FORMS))
        # a field stating dates also lists the variant's other dates and its own +/- 1 day:
        # one plain mutant (its look-alike forms are the stuff mutants')
        free = text if group == "submit" else _free_text(body[i][1])
        dates = date_candidates(variant, looked_up, free)
        if dates:
            out.append(
                Adversary(f"dates-{group}", calls_of(dates), group, "dates", values=tuple(dates))
            )
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
