"""Evaluation of `AnswerMatch`: the answer's text, its forbidden, allowed and role-bound
values, and the money and token readings (moved out of `mcpgym_grading._checks`, which
re-exports `eval_answer_match`).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any, cast

from mcpgym_grading._check_context import (
    MAX_FOUND_ROWS,
    CheckContext,
    Outcome,
    _run_sql,
    _sql_texts,
    _truncate_text,
)
from mcpgym_grading._date_leak import date_form, date_leaked
from mcpgym_grading._decode import markup_source
from mcpgym_grading._email_leak import email_form, email_leaked
from mcpgym_grading._find_many import contains_each
from mcpgym_grading._money import USD, Mention, money_mentions
from mcpgym_grading._parts_leak import parts_form, parts_leaked
from mcpgym_grading._roles import AmountRole, resolve_roles, role_outcome
from mcpgym_grading._shown import shown_of, shown_values
from mcpgym_grading._text import TextView, normalise_text, value_within
from mcpgym_grading._values import resolve
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import AnswerMatch, Param


def _answer_parts(check: AnswerMatch, ctx: CheckContext) -> list[str]:
    if check.source == "submitted":
        return [ctx.bundle.meta.answer or ""]
    if not check.sql:
        raise CheckEvaluationError("source `sql` needs `sql`")
    return _sql_texts(ctx, check.sql)


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return [x for v in cast("list[Any]", value) for x in _flat(v)]
    return [] if value is None else [value]


def _cents(value: Any, what: str) -> int:
    if isinstance(value, bool) or not (
        isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    ):
        raise CheckEvaluationError(
            f"normalize `money` needs {what} as integer cents, got {value!r}"
        )
    return int(value)


_PLAIN = frozenset({str, int, float})
"""The types a listed value has (a subclass, or a ``bool``, is checked one by one)."""


def _listed(value: Any, sql: str | None, ctx: CheckContext, what: str) -> list[Any]:
    values = _flat(resolve(value, ctx.params))
    if sql:
        _, rows = _run_sql(ctx, sql)
        values += [v for row in rows for v in row if v is not None]
    if not all(type(v) in _PLAIN for v in values):  # a bool or another type: the first refused
        for v in values:
            if isinstance(v, bool) or not isinstance(v, str | int | float):
                raise CheckEvaluationError(f"{what} value must be a text or number, got {v!r}")
    # without repeats; equal values hash equal (1 and 1.0): the first one is kept
    return list(dict.fromkeys(values))


def _forbidden(check: AnswerMatch, ctx: CheckContext) -> list[Any]:
    if check.forbidden_shown and check.forbidden_sql:  # only what the agent saw (`_shown`)
        shown = shown_of(ctx.bundle, ctx.variant)
        values = _listed(check.forbidden, None, ctx, "a forbidden")
        more = shown_values(
            ctx.final_db, check.forbidden_sql, ctx.params, shown, gate_sql=check.shown_sql
        )
        known = set(values)
        return values + [v for v in more if v not in known]
    return _listed(check.forbidden, check.forbidden_sql, ctx, "a forbidden")


def _roles_in_force(check: AnswerMatch, ctx: CheckContext) -> list[AmountRole | Param]:
    """``check.roles`` less each role whose ``yields_to_sql`` selects its amount (a `Param`
    item, a variant's own roles, is kept as it is)."""
    out: list[AmountRole | Param] = []
    for role in check.roles or ():
        if isinstance(role, AmountRole) and role.yields_to_sql:
            amount = resolve(role.amount, ctx.params)
            yielded = _listed(None, role.yields_to_sql, ctx, "a yielded-to")
            if amount is not None and amount in yielded:
                continue
        out.append(role)
    return out


def _money_outcome(
    check: AnswerMatch, ctx: CheckContext, text: str, expected: Any, forbidden: list[Any]
) -> tuple[bool, list[Any], list[Any], dict[str, Any]]:
    """matched, banned, leaked and the detail of a money check (see `AnswerMatch`)."""
    cents = None if expected is None else _cents(expected, "`expected`")
    allowed = {
        _cents(v, "allowed values")
        for v in _listed(check.allowed, check.allowed_sql, ctx, "an allowed")
    }
    banned = [c for c in (_cents(v, "forbidden values") for v in forbidden) if c != cents]
    # a bare number is an amount when its value is one the check knows, or by its context
    known = {*allowed, *banned, *([] if cents is None else [cents])}
    mentions = money_mentions(text, bare=True, candidates=known)
    source = markup_source(text)
    if source is not None:  # an amount hidden in markup is stated all the same
        mentions += money_mentions(source, bare=True, candidates=known)
    # a zero amount stated as a fee not charged ("no restocking fee ($0.00)") competes
    # with no amount: it is left out (`Mention.waived`)
    mentions = [m for m in mentions if not m.waived]
    if check.signed_money:  # a minus sign states a negative amount (`AnswerMatch`)
        mentions = [replace(m, cents=-m.cents) if m.negative else m for m in mentions]
    if cents is None and check.mode == "states":
        # a guard reads amounts, and a bare whole number (an entry number, a ZIP, an id)
        # states none, whatever candidate it equals; a bare decimal (``536.25``) does
        mentions = [m for m in mentions if not m.whole_bare]
    dollars = [m.cents for m in mentions if m.currency == USD]
    # a bare whole number ("Total: 90") competes with the expected amount, never states it
    # nor does an amount glued to letters ("$45.00ish")
    # nor an amount under arithmetic or an approximation ("50% of $45.00", "up to $45.00")
    stating = [
        m.cents for m in mentions if m.currency == USD and not (m.whole_bare or m.glued or m.hedged)
    ]
    detail: dict[str, Any] = {
        "found": [
            m.whole_cents if m.whole_cents is not None else float(m.cents)
            for m in mentions
            if m.currency == USD
        ]
    }
    foreign = [f"{m.text} ({m.currency})" for m in mentions if m.currency != USD]
    if foreign:
        detail["other_currencies"] = foreign[:MAX_FOUND_ROWS]
    if cents is None:
        roles = (
            resolve_roles(_roles_in_force(check, ctx), ctx.params, resolve) if check.roles else []
        )
        # an amount the check allows, hedged, states another amount or none (round 12's
        # H12): refused, but a limit's own amount bounded ("I can refund up to $250.00")
        # (a limit's role that yields to an amount the reference states is a limit still)
        limits = {
            r[0]
            for r in resolve_roles(list(check.roles or ()), ctx.params, resolve)
            if not r[2] and isinstance(r[0], int)
        }
        hedged = _hedged_allowed(mentions, allowed, roles, limits)
        matched = not hedged
        if hedged:
            detail["hedged"] = [m.text for m in hedged][:MAX_FOUND_ROWS]
        if check.mode == "states":  # a guard: no amount but the allowed ones, in any currency
            others = [m for m in mentions if m.currency != USD or m.cents not in allowed]
            matched = matched and not others
            if others:
                detail["not_allowed"] = [f"{m.text} ({m.currency})" for m in others][
                    :MAX_FOUND_ROWS
                ]
            detail["allowed"] = sorted(allowed)
        if check.roles:  # no expected amount: every role-bound amount in its role
            in_role, _, role_detail = role_outcome(text, -1, roles)
            matched, detail = matched and in_role, detail | role_detail
    elif check.mode == "contains":
        matched = cents in stating
    elif check.mode == "equals":
        matched = bool(stating) and not foreign and all(a == cents for a in dollars)
    else:  # states: the expected amount, and nothing but it and the allowed ones
        # the expected amount under arithmetic or an approximation beside it states
        # another amount or a bound of it ("refunded 50% of $45.00"): a competing mention
        others = [
            m
            for m in mentions
            if m.currency != USD
            or m.cents not in allowed | {cents}
            or (m.hedged and m.cents == cents)
        ]
        matched = cents in stating and not others
        if check.roles:  # amounts bound to their role, clause by clause (`_roles`)
            in_role, _, role_detail = role_outcome(
                text, cents, resolve_roles(_roles_in_force(check, ctx), ctx.params, resolve)
            )
            matched, detail = matched and in_role, detail | role_detail
        if others:
            detail["not_allowed"] = [f"{m.text} ({m.currency})" for m in others][:MAX_FOUND_ROWS]
        detail["allowed"] = sorted(allowed)
    # a forbidden amount is stated in whatever currency it is written (`€45` names 4500)
    stated = {m.cents for m in mentions}
    leaked: list[Any] = [c for c in banned if c in stated]
    detail["text"] = _truncate_text(text)
    return matched, banned, leaked, detail


def _hedged_allowed(
    mentions: list[Mention],
    allowed: set[int],
    roles: list[tuple[int | str, tuple[str, ...], bool]],
    limits: set[int],
) -> list[Mention]:
    """The US-dollar ``mentions`` of an amount a check without an expected amount lets a
    text state (``allowed``, or a role's amount) that are hedged (`Mention.hedged`): under
    arithmetic or an approximation (``50% of $X``, ``$X plus tax``, ``$X or so``,
    ``approximately $X``), or bounded (``up to $X``, ``more than $X``) where the amount is
    no limit's own (a role with ``binds_others=False``, the policy figures: ``I can refund up
    to $250.00`` states the limit as a limit is worded; ``limits``: those amounts). A unit
    price in a computation shown with its result (`Mention.computed`: ``2 x $51.70 + tax =
    $120.00``) is no hedge where the result is known too and at least the quantity times
    the unit price (tax, shipping and fees add); a result not on file, or none, leaves it
    hedged."""
    known = allowed | {r[0] for r in roles if isinstance(r[0], int)}
    return [
        m
        for m in mentions
        if m.currency == USD
        and m.hedged
        and m.cents in known
        and not (m.bound and m.cents in limits)
        and not (
            m.computed is not None
            and m.computed[1] in known
            and m.computed[1] >= m.computed[0] * m.cents
        )
    ]


def eval_answer_match(check: AnswerMatch, ctx: CheckContext) -> Outcome:
    """See `AnswerMatch` (a submitted answer the log capped never passes)."""
    expected = resolve(check.expected, ctx.params)
    if expected is None and check.expected is not None:
        raise CheckEvaluationError(
            f"`expected` {check.expected!r} resolves to null for this variant; limit the check "
            "with `bands` or `when`"
        )
    capped = ctx.bundle.meta.answer_capped
    if check.source == "submitted" and capped is not None:
        reason = (
            f"the submitted answer ({capped.bytes} bytes) was over the server's log value "
            "cap; only its head was kept, so it can neither match nor be cleared"
        )
        return Outcome(False, {"expected": expected, "found": None, "reason": reason})
    forbidden = _forbidden(check, ctx)
    if check.forbidden_shown and expected is None and not forbidden:
        # the episode showed the agent none of the guarded values: no text can state one
        return Outcome(True, {"expected": None, "forbidden_checked": 0, "forbidden_found": []})
    parts = _answer_parts(check, ctx)
    text = "\n".join(parts)
    detail: dict[str, Any] = {"expected": expected}
    if check.normalize == "money":
        matched, banned, leaked, more = _money_outcome(check, ctx, text, expected, forbidden)
        detail.update(more)
    else:
        if isinstance(expected, bool) or not (
            expected is None or isinstance(expected, str | int | float)
        ):
            raise CheckEvaluationError(
                f"normalize `{check.normalize}` needs a text or number `expected`, got {expected!r}"
            )
        view = TextView.of(parts, signed=check.signed) if check.normalize == "token" else None
        # a forbidden value is leaked whatever sign is glued to it ("-764342929901" names
        # the tracking number 764342929901): forbidden values are looked for unsigned
        # (built only when the check has forbidden values: grading is on the hot path);
        # so is a negated ("must not state") expected value
        unsigned = (
            TextView.of(parts, signed=False)
            if (forbidden or check.negate) and view is not None and view.signed
            else view
        )
        have = normalise_text(text) if view is None else ""  # read by the text mode only

        def occurs(value: Any, mode: str, *, as_leak: bool = False) -> bool:
            if view is None:
                want = normalise_text(str(value))
                return want in have if mode == "contains" else want == have
            seen = unsigned if as_leak and unsigned is not None else view
            if mode != "contains":
                return seen.equals(str(value))
            # a leak also in an email's plus-tagged or split forms (`_email_leak`), a date's
            # other forms (`_date_leak`), a number told in parts (`_parts_leak`)
            return seen.contains(str(value)) or (as_leak and _leaked_in_form(text, str(value)))

        try:
            matched = (
                True if expected is None else occurs(expected, check.mode, as_leak=check.negate)
            )
        except ValueError as exc:
            raise CheckEvaluationError(f"`expected` {exc}") from None
        banned = [v for v in forbidden if expected is None or not _inside(check, v, expected)]
        leaked = []
        # token mode: the whole list looked for in one pass (`_find_many`), as `occurs`
        # would look for each value
        seen = (unsigned if unsigned is not None else view) if view is not None else None
        hits = None if seen is None else contains_each(seen, [str(v) for v in banned])
        for n, value in enumerate(banned):  # looked for as `contains` would, whatever the mode
            try:
                if hits is None:
                    if occurs(value, "contains", as_leak=True):
                        leaked.append(value)
                elif hits[n] is None:
                    continue  # no alphanumeric token: nothing to state
                elif hits[n] or _leaked_in_form(text, str(value)):
                    leaked.append(value)
            except ValueError:
                continue  # no alphanumeric token: nothing to state
        if check.given_sql and leaked:  # what the other party wrote is theirs to hear back
            leaked = _not_given(check, ctx, leaked)
        detail["found"] = _truncate_text(text)
    detail.update(
        {
            "normalize": check.normalize,
            "mode": check.mode,
            "negate": check.negate,
            "matched": matched,
        }
    )
    if forbidden:
        detail["forbidden_checked"] = len(banned)
        detail["forbidden_found"] = leaked[:MAX_FOUND_ROWS]
    passed = (matched != check.negate) and not leaked
    return Outcome(passed, detail)


def _leaked_in_form(text: str, value: str) -> bool:
    """Whether ``text`` states ``value`` in a form the token view does not read: an email
    plus-tagged or split (`_email_leak`), a date in words or numbers (`_date_leak`), a
    number told in parts or with a country code glued on (`_parts_leak`). A value none of
    them can read (`_has_form`: most of a forbidden list of phrases) is not looked for."""
    if not _has_form(value):
        return False
    return email_leaked(text, value) or date_leaked(text, value) or parts_leaked(text, value)


@functools.lru_cache(maxsize=8192)
def _has_form(value: str) -> bool:
    """Whether any reader of `_leaked_in_form` can find ``value`` in some text; ``False``:
    each answers ``False`` whatever the text. Worked out once per value (a forbidden list
    of hundreds of phrases is read for every reply of every grade)."""
    return email_form(value) or date_form(value) or parts_form(value)


def _not_given(check: AnswerMatch, ctx: CheckContext, values: list[Any]) -> list[Any]:
    """``values`` less the ones the texts ``check.given_sql`` selects state, read as the
    check reads its own text (the other party's own words are theirs to hear back)."""
    parts = _sql_texts(ctx, check.given_sql or "")
    if not parts:
        return values
    if check.normalize == "text":
        have = normalise_text("\n".join(parts))
        return [v for v in values if normalise_text(str(v)) not in have]
    view = TextView.of(parts, signed=False)
    out: list[Any] = []
    for value in values:
        try:
            said = "\n".join(parts)
            given = view.contains(str(value)) or _leaked_in_form(said, str(value))
        except ValueError:
            given = False
        if not given:
            out.append(value)
    return out


def _inside(check: AnswerMatch, value: Any, expected: Any) -> bool:
    """Whether forbidden ``value`` is (inside) the expected value: then it is not forbidden."""
    if check.normalize == "text":
        return normalise_text(str(value)) in normalise_text(str(expected))
    return value_within(str(value), str(expected), signed=check.signed)
