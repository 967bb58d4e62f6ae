"""Amounts bound to their role in a text: `AnswerMatch(roles=...)` (``mode="states"``).

A reply may rightly state two amounts of a case that play different parts: the amount
refunded and the amount passed to billing, the duplicate charge refunded and the earlier
refund that stands. Allowing both amounts anywhere lets a reply that swaps them ("I've
refunded $349.00 ... your request of $89.00 is above the limit") pass, while every figure the
customer reads is wrong. A role binds an amount to the words that say what it is (its
``cues``), and each mention of that amount is read in its clause:

- The text is cut into clauses at sentence ends (``.``, ``!``, ``?``; a dot between digits
  is none, nor the dot of ``vs.``), ``;``, line breaks, and before ``but``, ``while``,
  ``whereas`` and ``, and`` / ``, so``.
- A mention's role is the role of the cue nearest to it in its clause (the gap in characters
  between the two; a cue inside the mention does not count; at equal gaps a cue of one role
  before a shared cue, then the longer cue, ``refunded earlier`` before ``refunded``). No
  cue in the clause: the mention is *unbound*. Two roles' cues equally near and equally
  long: it is *unbound* too.
- A *shared cue* is one several roles list (``refunded``, where the duplicate charge refunded
  now and the refund for a returned item earlier are both refunds): it says the amount is
  one of them, not which. Nearest to a mention, it is decided by a ``for`` phrase right
  after it or after the mention (at most 4 words before ``for``, 4 words from ``for`` to
  the cue) that holds a cue of one of those roles: "the $159.00 you were refunded for the
  returned item", "you were refunded $159.00 for the returned item" (the ``for`` phrase
  names what the refund was for). Undecided, the mention is bound to all of them: the
  expected amount is then in its role, another amount is not (it must be bound to its own
  role alone, or to roles whose cues are its own role's very cues: two lines on one
  account, which no words can tell apart), and the clause counts as cued by each of them
  (below).
- The expected amount, when it has a role: no mention of it may be bound to another role
  (unbound mentions are tolerated: the check asks that it is stated, not in which words,
  so no particular word of the answer becomes required).
- Any other amount with a role (an allowed one): every mention must be bound to its own
  role; unbound or bound to another role, it is *misplaced* and the check fails, as an
  amount that is not allowed fails it. Bound to its own role, it is misplaced all the same
  when its clause holds a cue of the expected role while no mention of the expected amount
  is bound to that role nor stands in that clause ("Billing reviewed it: $349.00 is back
  on your card. As for $89.00, that one is pending": the refund words are on the
  escalated amount, the refund stands with none).
- A role with ``binds_others=False`` (a policy limit's: ``limit``, ``threshold``) binds
  only its own amount: every other amount reads its clause as if that role's cues were not
  there ("Not posted: above the approval limit ($6,662.42)" does not make the bill's total
  the limit), while its own amount still needs one of them nearest; a nearest cue it
  shares with another role ("limit") is its own beside its own amount ("above the $250.00
  limit": the limit, not the escalated amount). Its own amount governed by a comparison or
  rule word ("bills over $5,000.00 need approval"), or named by a limit noun before it
  ("the write-off limit per invoice is $500.00"), is the limit's whatever cue is nearer.
  Bound to its own role, such an amount is misplaced all the same when its clause gives it
  another part (`mcpgym_grading._limit_position`): an alternative word (``or``, ``maybe``,
  ``/``, ``instead of``, ``rather than``, ``unless``, ``if not``, ``vs.``...) between it
  and another amount ("total $6,662.42 or the $5,000.00 limit"); or a place that is not a
  rule's: governed by no comparison, rule word or limit noun ("pay $5,000.00 now (the
  limit)", "Amount entered: the $5,000.00 limit", "Wrote off the $500.00 limit"), or
  equated with a non-limit ("Limit $5,000.00 = bill amount"). What governs the figure is
  read, not which action word is near it: "Refunds above $250.00 need approval" names what
  the limit covers and stands (an action-word rule failed it and was withdrawn, 59669ea).

- Roles whose value is a text (a date, an account code) are read by
  `mcpgym_grading._value_roles`: a mention bound to another role's words only is misplaced.

- An amount in several roles (a payment's one allocation that is the whole payment) stands
  in any of them. Roles whose cues or number differ per variant (the invoice each allocation
  went to) come from a variant param that a `Param` item of ``roles`` names (`resolve_roles`).

A cue is lower-case words matched whole in the text as the money parser reads it (folded,
number words as digits); a trailing ``*`` makes its last word a prefix (``escalat*``). Cues
are the author's statement of what the role is; keep them to words that say that role and
no other (``refunded``, not ``refund``, which a refund *request* also is).

This is a heuristic over surface words, not parsing: it refuses the natural swap and keeps
the natural honest wordings; a reply that says "I have not refunded the $349.00" binds the
amount to the refund cue and is refused (write the negation as a cue of the other role when
a family needs it).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel, ConfigDict, field_validator

from mcpgym_grading._clauses import _cue_pattern, clauses, cue_literal
from mcpgym_grading._limit_position import in_a_rule, limit_position
from mcpgym_grading._money import USD, money_mentions
from mcpgym_grading._money_prepare import prepare
from mcpgym_grading._value_roles import value_outcome
from mcpgym_grading.errors import CheckEvaluationError

if TYPE_CHECKING:
    from mcpgym_grading.rubric import Param


class AmountRole(BaseModel):
    """One amount and the words of its role (see the module docstring).

    ``amount``: integer cents or a `Param` reference (resolved per variant; a null or
    non-positive amount binds nothing); or a text value (a date, an account code, an id;
    null or empty binds nothing), read as a whole token by `mcpgym_grading._value_roles`.
    ``cues``: lower-case words or phrases, a trailing ``*`` makes the last word a prefix;
    at least one. ``binds_others``: False when the cues
    bind only this amount (the nouns of a limit the text may quote beside the amount
    compared with it); other amounts read their clause without them. ``yields_to_sql``
    (default None): a query on the final state (variant params bound) selecting the amounts
    this role yields to: where it selects the role's amount, the role is left out for that
    episode and the check reads that amount as it reads any allowed one (a guard allowing
    the $20.00 goodwill cap only as the cap, where the customer's earlier refund of $20.00
    is an amount the texts may state in its own words).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    amount: Any
    cues: tuple[str, ...]
    binds_others: bool = True
    yields_to_sql: str | None = None

    @field_validator("cues")
    @classmethod
    def _cues_given(cls, cues: tuple[str, ...]) -> tuple[str, ...]:
        if not cues or any(not c.strip() or c != c.lower() for c in cues):
            raise ValueError(
                f"role cues must be non-empty lower-case words, got {cues!r} "
                "(write e.g. ('refunded', 'credited'))"
            )
        return cues


@dataclass(frozen=True)
class Bound:
    """One US-dollar mention of a role-bound amount: its text, amount, and the index of the
    role its clause binds it to (None: unbound), its clause and the roles cued there."""

    text: str
    cents: Fraction
    role: int | None
    clause: int = 0
    cued: frozenset[int] = frozenset()
    """The index of its clause, and the roles with a cue anywhere in that clause."""
    shared: frozenset[int] = frozenset()
    """The roles of an undecided shared cue that binds it (``role`` is then None)."""
    joined: str | None = None
    """Set on a mention of a ``binds_others=False`` role's own amount that its clause gives
    another part than the limit's (`mcpgym_grading._limit_position.limit_position`):
    ``"alternative"``, ``"object"`` or ``"value"``; None where it stands as the limit."""
    restated: bool = False
    """Its clause is a table row (``| line | $1,995.50 |``) or a JSON member (``{"amount":
    "$1,995.50"}``): a restatement, which stands unbound where the same amount is stated in
    its own role elsewhere in the text (round 12's F12b)."""


_FOR = re.compile(r"\bfor\b")
_WORDS = re.compile(r"\S+")
_FOR_WORDS = 4
"""At most this many words between a shared cue (or the mention) and ``for``, and between
``for`` and the cue that decides it."""


_TAG = re.compile(r"[ \t]*\([ \t]*(?:usd|us\$|us dollars?|dollars?)[ \t]*\)")
"""A currency tag in brackets right after an amount (``$149.65 (USD) tax``): the amount's
own tag, read as part of the mention, not a gap between it and its cue (round 12's F12a)."""


_RESTATEMENT = re.compile(r'\s*(?:\||\{?\s*"[^"\n]{1,40}"\s*:)')
"""A clause that is a table row or a JSON member (`Bound.restated`)."""


def _words(text: str) -> int:
    return len(_WORDS.findall(text))


def _decide(
    prepared: str, after: int, single: list[tuple[int, int, int]], roles: frozenset[int]
) -> int | None:
    """The role of the first cue of one of ``roles`` in a ``for`` phrase starting at most
    `_FOR_WORDS` words after ``after`` (``single``: ``(role, start, end)`` cue hits of one
    role each), or None."""
    for f in _FOR.finditer(prepared, after):
        if _words(prepared[after : f.start()]) > _FOR_WORDS:
            return None
        for i, cs, _ce in sorted(single, key=lambda h: h[1]):
            if cs >= f.end() and i in roles and _words(prepared[f.end() : cs]) <= _FOR_WORDS:
                return i
        return None
    return None


Roles = Sequence[tuple[int | str, Sequence[str]] | tuple[int | str, Sequence[str], bool]]
"""Resolved roles: ``(cents, cues)`` or ``(cents, cues, binds_others)`` (default True); a
text in place of the cents is a value role (`mcpgym_grading._value_roles`)."""


def bind(text: str, roles: Roles) -> list[Bound]:
    """Every US-dollar mention in ``text`` of an amount in ``roles`` (``(cents, cues)``
    pairs, or ``(cents, cues, binds_others)``), in order, with the index of the role its
    nearest cue names (see the module docstring: a cue several roles list is shared).
    Linear in the text for a fixed set of cues."""
    amounts = {r[0] for r in roles}
    own_only = {i: r[0] for i, r in enumerate(roles) if len(r) > 2 and not r[2]}
    owners: dict[str, set[int]] = {}
    for i, r in enumerate(roles):
        for c in r[1]:
            owners.setdefault(c, set()).add(i)
    patterns = [(frozenset(ids), _cue_pattern(c), cue_literal(c)) for c, ids in owners.items()]
    out: list[Bound] = []
    known = sorted({int(a) for a in amounts if a == int(a)})
    # cut where the guard reads: HTML character references decoded first (``&dollar;&#x34;...``
    # is one figure, not clauses cut at each ``;``), and a bare figure that is one of the
    # roles' amounts (``429.00``) read as the guard reads it (a whole bare number never)
    for n, clause in enumerate(clauses(html.unescape(text))):
        usd = [  # a multiplier's product (`Mention.product`) is no written figure to bind
            m
            for m in money_mentions(clause, bare=True, candidates=known)
            if m.currency == USD and m.cents > 0 and not m.product and not m.whole_bare
        ]
        mentions = [m for m in usd if m.cents in amounts]
        if not mentions:
            continue
        prepared = prepare(clause)
        spans: list[tuple[int, int]] = []
        pos = 0
        for m in usd:
            st = prepared.find(m.text, pos)
            spans.append((st, st + len(m.text)) if st >= 0 else (pos, pos))
            pos = spans[-1][1]
        hits = [
            (ids, hit.start(), hit.end())
            for ids, pat, literal in patterns
            if literal in prepared  # else no match (`cue_literal`)
            for hit in pat.finditer(prepared)
        ]
        single = [(next(iter(ids)), cs, ce) for ids, cs, ce in hits if len(ids) == 1]
        # a shared cue decided by a for phrase right after it counts as that role's
        decided = {
            (cs, ce): _decide(prepared, ce, single, ids) for ids, cs, ce in hits if len(ids) > 1
        }
        cued_ids: set[int] = set()
        for ids, cs, ce in hits:
            d = None if len(ids) == 1 else decided[(cs, ce)]
            cued_ids.update(ids if d is None else {d})
        cued = frozenset(cued_ids)
        at = 0
        for m in mentions:
            start = prepared.find(m.text, at)
            if start < 0:  # not found verbatim (a listed number): the clause's start
                start, end = at, at
            else:
                end = start + len(m.text)
                at = end
                if (tag := _TAG.match(prepared, end)) is not None:
                    end = tag.end()
            near: tuple[int, bool, int] | None = None
            nearest: list[tuple[frozenset[int], int, int]] = []
            for ids, cs, ce in hits:
                if cs >= start and ce <= end:
                    continue  # a cue inside the mention itself
                if own_only:  # a cue that binds only its own amount binds no other
                    ids = frozenset(i for i in ids if own_only.get(i, m.cents) == m.cents)
                    if not ids:
                        continue
                gap = cs - end if cs >= end else start - ce if ce <= start else 0
                # nearest first; at equal gaps a cue of one role before a shared one (it says
                # which: "refunded $229.00 today"), then the longer cue
                key = (gap, len(ids) > 1, cs - ce)
                if near is None or key < near:
                    near, nearest = key, [(ids, cs, ce)]
                elif key == near:
                    nearest.append((ids, cs, ce))
            role, shared = None, frozenset[int]()
            named = frozenset().union(*(ids for ids, _, _ in nearest)) if nearest else frozenset()
            mine = [i for i in named if own_only.get(i) == m.cents]
            if len(named) == 1:
                role = next(iter(named))
            elif mine:  # a limit noun shared with another role, beside the limit's own amount
                role = mine[0]
            elif len(nearest) == 1:  # one shared cue: a for phrase after it or the mention
                ids, cs, ce = nearest[0]
                role = decided[(cs, ce)]
                if role is None:
                    role = _decide(prepared, max(ce, end), single, ids)
                if role is None:
                    shared = ids
            limit_of = next((i for i, c in own_only.items() if c == m.cents), None)
            if limit_of is not None and role != limit_of and in_a_rule(prepared, (start, end)):
                # the limit's own figure as a rule's standard ("bills over $5,000.00 need
                # approval") or named by a limit noun before it: the limit, whatever cue of
                # another role is nearer
                role, shared = limit_of, frozenset[int]()
            joined = None
            if role is not None and own_only.get(role) == m.cents:
                others = [sp for u, sp in zip(usd, spans, strict=True) if u.cents != m.cents]
                joined = limit_position(prepared, (start, end), others)
            restated = bool(_RESTATEMENT.match(clause))
            out.append(Bound(m.text, m.cents, role, n, cued, shared, joined, restated))
    return out


def role_outcome(text: str, expected: int, roles: Roles) -> tuple[bool, list[str], dict[str, Any]]:
    """Whether the role-bound amounts of ``text`` stand in their roles.

    ``roles``: ``(cents, cues)`` pairs (or ``(cents, cues, binds_others)``), resolved; an
    amount listed in several roles (an allocation that is the whole payment, a unit price
    that is the net of one item) stands in any of them. Returns ``(ok, misplaced, detail)``:
    ``ok`` is True when nothing is misplaced;
    ``misplaced`` lists the mentions that stand outside their role (the expected amount
    bound to another role; another role-bound amount unbound or bound elsewhere).
    """
    texts: list[tuple[str, Sequence[str]]] = []
    amounts: list[tuple[int, Sequence[str], bool]] = []
    for r in roles:
        value, binds = r[0], (r[2] if len(r) > 2 else True)
        if isinstance(value, str):
            texts.append((value, r[1]))
        elif value > 0:
            amounts.append((value, r[1], bool(binds)))
    roles = amounts
    index: dict[int, frozenset[int]] = {}
    for i, r in enumerate(roles):
        index[r[0]] = index.get(r[0], frozenset()) | {i}
    alike = _alike(roles)
    misplaced: list[str] = []
    bound = bind(text, roles)
    own = index.get(expected, frozenset[int]())
    stated_in_role = any(
        int(b.cents) == expected and (b.role in own or own & b.shared) for b in bound
    )
    expected_clauses = {b.clause for b in bound if int(b.cents) == expected}
    in_own_role = {int(b.cents) for b in bound if b.role in index[int(b.cents)]}
    for b in bound:
        if int(b.cents) == expected:
            if (b.role is None or b.role in own) and (not b.shared or own & b.shared):
                continue  # the expected amount unbound: not in a wrong role
        elif b.role is None and not b.shared and b.restated and int(b.cents) in in_own_role:
            continue  # a table row or JSON member restating an amount stated in its role
        elif (
            b.role in index[int(b.cents)] or (b.shared and b.shared <= alike[int(b.cents)])
        ) and b.joined is None:
            if not own or stated_in_role or not own & b.cued or b.clause in expected_clauses:
                continue
            # another amount where the expected role's words are, the expected amount
            # in none of them: the reply gives that role to the wrong amount
        misplaced.append(b.text)
    detail: dict[str, Any] = {"roles": {}}
    for r in roles:
        detail["roles"].setdefault(str(r[0]), []).extend(c for c in r[1])
    if misplaced:
        detail["misplaced"] = misplaced
    if texts:  # the roles of dates, account codes, ids (`_value_roles`)
        _, wrong, value_detail = value_outcome(text, texts)
        misplaced += wrong
        detail |= value_detail
    return not misplaced, misplaced, detail


def _alike(roles: Sequence[tuple[int, Sequence[str], bool]]) -> dict[int, frozenset[int]]:
    """For each amount, the roles whose cues are those of one of its own roles (two lines
    on the same account, both cued by ``6600``): the words cannot tell those roles apart,
    so a shared cue of only such roles binds the amount to its own role (a cue shared with
    a role of other words still leaves it unbound)."""
    by_cues: dict[frozenset[str], set[int]] = {}
    for i, r in enumerate(roles):
        by_cues.setdefault(frozenset(r[1]), set()).add(i)
    out: dict[int, frozenset[int]] = {}
    for r in roles:
        out[r[0]] = out.get(r[0], frozenset()) | by_cues[frozenset(r[1])]
    return out


def _param_roles(value: Any, name: str) -> list[AmountRole]:
    """The roles a variant param lists (see `resolve_roles`)."""
    if isinstance(value, str):  # a JSON text, as SQL may read it with json_each too
        try:
            value = json.loads(value)
        except ValueError:
            pass
    if not isinstance(value, list | tuple):
        raise CheckEvaluationError(
            f"the roles param {name!r} must be a list of [cents, [cues...]] items, got {value!r}"
        )
    out: list[AmountRole] = []
    for item in cast("list[Any]", value):
        try:
            if isinstance(item, dict):
                out.append(AmountRole.model_validate(item))
            else:
                cents, cues, *rest = cast("list[Any]", item)
                binds = {"binds_others": rest[0]} if rest else {}
                out.append(AmountRole(amount=cents, cues=tuple(cues), **binds))
        except (TypeError, ValueError) as exc:
            raise CheckEvaluationError(
                f"the roles param {name!r} holds a bad role {item!r} (write [cents, [cues...]] "
                f"or [cents, [cues...], binds_others]): {exc}"
            ) from None
    return out


def resolve_roles(
    roles: Sequence[AmountRole | Param], params: Mapping[str, Any], resolve: Any
) -> list[tuple[int | str, tuple[str, ...], bool]]:
    """``roles`` with each amount resolved to integer cents by ``resolve(value, params)``
    (the grader's `Param` resolution), as ``(cents, cues, binds_others)``; null amounts are
    left out, and so is a role with ``binds_others=False`` (a policy figure's) whose amount
    is also the amount of a role that binds others (the variant's own): a reply's $20.00
    that is the customer's earlier refund is read in that refund's role, even where the
    goodwill cap is $20.00 too.

    A `Param` item names a variant param holding the variant's own roles, in order: a list
    of ``[cents, [cue, ...]]`` (or ``[cents, [cue, ...], binds_others]``, or `AmountRole`
    fields as a dict), or that list as JSON text (which SQL can read too): roles whose cues
    differ per variant (the invoice number an allocation went to) or whose number does (one
    allocation per invoice paid). A text value in place of the cents (an ISO date, an
    account code) is a value role (`mcpgym_grading._value_roles`), returned as the text.

    Raises:
        CheckEvaluationError: an amount is not integer cents, or a roles param is not such
        a list."""
    expanded: list[AmountRole] = []
    for r in roles:
        if isinstance(r, AmountRole):
            expanded.append(r)
        else:  # a `Param` (not imported: `mcpgym_grading.rubric` imports this module)
            expanded += _param_roles(resolve(r, params), r.name)
    out: list[tuple[int | str, tuple[str, ...], bool]] = []
    for r in expanded:
        v = resolve(r.amount, params)
        if v is None or v == "":
            continue
        if isinstance(v, bool) or not isinstance(v, int | str):
            raise CheckEvaluationError(
                f"a role amount must be integer cents (write `AmountRole(amount=4500, ...)` or "
                f"a `Param` of cents) or a text value (a date, an account code), got {v!r}"
            )
        out.append((v, r.cues, r.binds_others))
    own = {cents for cents, _, binds in out if binds}
    return [r for r in out if r[2] or r[0] not in own]
