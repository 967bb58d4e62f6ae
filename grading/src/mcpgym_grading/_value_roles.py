"""Values that are not amounts bound to their role in a text (an `AmountRole` whose value is
a text: a date, an account code, an id).

A note may rightly state two dates of the work (an accrual dated 2026-05-31 and its reversal
dated 2026-06-01; the date a posting was asked for and the date it was posted on) or two
accounts (the expense debited and 2100 credited). Both allowed, they can trade places ("accrued
on 2026-06-01, reversed on 2026-05-31") and every value is still an allowed one. A *value
role* binds such a value to the words of its role (its cues), read clause by clause as
`mcpgym_grading._roles` reads amounts (the same clauses and cue matching):

- A mention is the value as written, a whole token (``2100`` is not in ``$2,100.00`` nor in
  ``21000``; ``2026-05-01`` not in ``2026-05-011``), in the text as the money reader
  prepares it (folded, lower-case).
- Each cue in a clause belongs to the value mention nearest it (the gap in characters; at
  equal gaps to each of them): in "reversal of the 2026-05-31 accrual on 2026-06-01" both
  cues are the first date's, none the second's; in "6600 $800.00 against 2100" ``against``
  is 2100's, not 6600's. A cue after a mention with a phrase break between (a comma, colon
  or bracket, ``and``, ``then``...: "2026-05-31 and reversed on 2026-06-01") is not that
  mention's. A mention's role is the role of the nearest cue it holds (at equal
  gaps the longer cue).
- A mention whose nearest such cue belongs only to other roles than the value's own is
  *misplaced* and the text fails; a mention with no such cue (unbound) or with a cue of its
  own role among the nearest passes: the check asks that a value is not given another
  role's words, not that the text uses any word. A value in several roles (a bill posted on
  its own date) stands in any of them.
- Where the roles hold ISO dates, a date or month the text states before the first role
  date's month fails too (`_unnamed_dates`): the earlier months listed beside the right one
  are a shotgun; later dates (a due date) stay free.
- Each value's *kind* is closed (`_kind`: its shape, every run of digits a run of as many
  digits, every other character itself: ``2026-06-01`` a date, ``6600`` a four-digit code,
  ``inv-2026-0151`` an invoice number, ``100510`` an order number): a value of a role's
  kind that is none of the roles' values (another date, account, invoice, order) is a
  mention too, and fails where a role's cue binds it (``reversed on 2026-07-01``,
  ``against 2000``) or where it stands unbound, but for a date later than every role date
  (a due date, a review), a year (``2026``) where the kind is four digits, and a group of
  a number written in groups (``9405 5932 3632``: a tracking number, not a card). The
  episode's own values are what the text may state of each kind: the wrong ETA, the other
  order's number, the wrong account read as the wrong amount is read.

An id of a role's kind written in another form (``INV 2026 0152``, ``Invoice 2026-0152``,
``INV-26-152``: `_id_forms.loose_ids`) is read in the record's form first, so another id in
any such form is another value of the kind (round 14's I14).

Where the roles hold ISO dates, a date in words (``September 30``, ``30 Sept 2026``,
``Sept. 30th``) is read as the ISO date it names (`_value_dates.word_dates_iso`; no year:
the role dates' year), for the roles as the ISO form is; a date relative to today (``next
Tuesday``) is not.

A heuristic over surface words, like the amount roles: it refuses the exchanged values of
an honest text and keeps the usual honest wordings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from mcpgym_grading._clauses import _CLAUSE_END, _cue_pattern, cue_literal
from mcpgym_grading._date_forms import more_dates, unread_dates
from mcpgym_grading._id_forms import loose_ids
from mcpgym_grading._long_ids import unknown_long_ids
from mcpgym_grading._money_prepare import prepare
from mcpgym_grading._value_dates import iso_dates, word_dates_iso

ValueRoles = Sequence[tuple[str, Sequence[str]]]
"""Resolved value roles: ``(value, cues)`` pairs, the value a non-empty text."""


@lru_cache(maxsize=1024)
def _value_pattern(values: tuple[str, ...], kinds: tuple[str, ...] = ()) -> re.Pattern[str]:
    alts = "|".join(
        [re.escape(v.lower()) for v in sorted(set(values), key=len, reverse=True)]
        + [k for k in sorted(set(kinds), key=len, reverse=True)]
    )
    return re.compile(rf"(?<![\w$.,/#-])#?(?:{alts})(?!\w)(?![.,/-]\w)")


_PARTS = re.compile(r"\d+|\D+")
_YEAR = re.compile(r"^#?20[2-3][0-9]$")
"""A four-digit token read as a year, not a code: ``2020``-``2039``, save where it is
one of the roles' own values."""


_GROUP_BEFORE = re.compile(r"[0-9][^\S\n]{1,3}$")
_GROUP_AFTER = re.compile(r"[^\S\n]{1,3}[0-9]")


def _in_a_group(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is one group of a number written in groups (a tracking
    number as ``9405 5932 3632``): digits one to three spaces before or after it."""
    return bool(
        _GROUP_BEFORE.search(text, max(0, start - 4), start) or _GROUP_AFTER.match(text, end)
    )


@lru_cache(maxsize=4096)
def _kind(value: str) -> str | None:
    """The regex of ``value``'s shape (`ValueRoles` docstring: digit runs as runs of as many
    digits, other characters themselves), None for a value without a digit (a name) or
    with a non-ASCII digit."""
    if not re.search(r"[0-9]", value) or re.search(r"(?![0-9])\d", value):
        return None
    return "".join(
        rf"[0-9]{{{len(p)}}}" if p[0].isdigit() else re.escape(p) for p in _PARTS.findall(value)
    )


_AMOUNT_AFTER = re.compile(
    r"[^\S\n]*(?:dollars?|bucks|usd|cents?|eur|euros?|gbp|pounds?|sterling)\b"
)
"""A currency word right after a number: the number is an amount (``1006 dollars and 95
cents``, as the money reader writes ``one thousand and six dollars``), not an account or an
id of a role's kind (round 17's FF17a)."""


def _an_amount(text: str, end: int) -> bool:
    """Whether the mention ending at ``end`` is followed by a currency word (`_AMOUNT_AFTER`)."""
    return bool(_AMOUNT_AFTER.match(text, end))


_RUN = re.compile(r"[0-9]+(?:[^\S\n]{1,3}[0-9]+)+")


def _grouped(text: str, start: int, end: int, own: frozenset[str] = frozenset()) -> bool:
    """Whether the mention ``text[start:end]`` is a group of a number written in groups:
    digits only (an id or a date beside a number, ``INV-2026-0152 12 days``, is no group:
    round 14's I14) and `_in_a_group`; not where a group of the run is one of the roles'
    own values (``own``): that run is a list of values (``[6000 6100 6500 6600]``, round 17's
    M17), not one number."""
    if not (text[start:end].lstrip("#").isdigit() and _in_a_group(text, start, end)):
        return False
    for m in _RUN.finditer(text):
        if m.start() <= start and end <= m.end():
            return not any(g in own for g in m.group(0).split())
    return True


def _gap(cs: int, ce: int, start: int, end: int) -> int:
    """Characters between a cue ``[cs, ce)`` and a mention ``[start, end)`` (0: they touch
    or overlap)."""
    return cs - end if cs >= end else start - ce if ce <= start else 0


_BREAK = re.compile(r"[,:(]|\b(?:and|then|so|while|but|before|after)\b")
"""Words that start another phrase: a cue after them is not the value's before them."""


def _closes_bracket(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` closes a bracket it did not open (the cue before it
    stands inside an aside: "(April, a closed period): posted on ...")."""
    depth = 0
    for ch in text[start:end]:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return True
            depth -= 1
    return False


def _claimants(
    text: str, cs: int, ce: int, mentions: Sequence[tuple[int, int, str] | None]
) -> set[int]:
    """The indexes of the ``mentions`` of ``text`` nearest the cue ``[cs, ce)`` (ties: all
    of them; a None mention, of another kind than the cue's roles, is skipped); a mention
    before the cue with a phrase break between (`_BREAK`: "2026-05-31 and reversed") does
    not hold it, nor a mention after a bracket the cue stands in ("(a closed period): on
    2026-05-01")."""
    gaps = {
        i: _gap(cs, ce, m[0], m[1])
        for i, m in enumerate(mentions)
        if m is not None
        and not (cs >= m[1] and _BREAK.search(text, m[1], cs))
        and not (m[0] >= ce and _closes_bracket(text, ce, m[0]))
    }
    low = min(gaps.values(), default=None)
    return {i for i, g in gaps.items() if g == low}


_EMPHASIS = re.compile(
    r"(?<![^\s(\[])(?:\*{1,3}|_{1,3})(?=[^\s*_])|(?<=[^\s*_])(?:\*{1,3}|_{1,3})(?![^\s).,;:!?\]])"
)
"""Markdown emphasis markers at a word's edge (``has **not** been written off``,
``__escalated__``): a renderer shows the bare words, so the cues are read without them
(round 20's FF20b: ``**not** written off`` read as ``written off``)."""


def unemphasized(text: str) -> str:
    """``text`` with markdown emphasis markers at words' edges dropped (`_EMPHASIS`)."""
    if "*" not in text and "_" not in text:
        return text
    return _EMPHASIS.sub("", text)


def value_outcome(text: str, roles: ValueRoles) -> tuple[bool, list[str], dict[str, Any]]:
    """Whether every mention in ``text`` of a value in ``roles`` stands in its role (see the
    module docstring). Returns ``(ok, misplaced, detail)``: ``misplaced`` lists the mentions
    bound to another role only, as ``"VALUE (as CUE)"``; ``detail`` has ``value_roles``
    (value to its cues) and, when some are, ``misplaced_values``."""
    roles = [(v.lower(), tuple(c)) for v, c in roles if v]
    detail: dict[str, Any] = {"value_roles": {}}
    for v, cues in roles:
        detail["value_roles"].setdefault(v, []).extend(cues)
    if not roles:
        return True, [], detail
    own: dict[str, set[int]] = {}
    owners: dict[tuple[str, str | None], set[int]] = {}
    for i, (v, cues) in enumerate(roles):
        own.setdefault(v, set()).add(i)
        for c in cues:  # a cue binds only values of its roles' kinds (a date's, an account's)
            owners.setdefault((c, _kind(v)), set()).add(i)
    patterns = [
        (frozenset(ids), c, k, _cue_pattern(c), cue_literal(c)) for (c, k), ids in owners.items()
    ]
    kinds = {k for v, _ in roles if (k := _kind(v)) is not None}
    values = _value_pattern(tuple(v for v, _ in roles), tuple(sorted(kinds)))
    last_date = max((v for v, _ in roles if _ISO_DATE.match(v)), default=None)
    misplaced: list[str] = []
    dated = last_date is not None
    # ids of a role's kind in other forms, in the record's form (round 14's I14)
    text = loose_ids(unemphasized(text), [v for v, _ in roles])
    # dates in words as ISO dates before the clauses are cut (``Sept. 30``: no sentence end)
    read = word_dates_iso(more_dates(text, last_date), last_date[:4]) if last_date else text
    for clause, answered_no in _answered(read):
        prepared = prepare(clause)
        if dated:  # the dates written in another numeric form, read as ISO (round 11's D11)
            prepared = iso_dates(prepared, frozenset(own))
            # a date no reader reads, where the roles compare dates (round 12's D12)
            misplaced += [f"{u} (as an unread date)" for u in unread_dates(prepared)]
        mentions = [
            (m.start(), m.end(), m.group(0).lstrip("#"))
            for m in values.finditer(prepared)
            if m.group(0).lstrip("#") in own
            or not (
                _YEAR.match(m.group(0))
                or _grouped(prepared, m.start(), m.end(), frozenset(own))
                or _an_amount(prepared, m.end())
            )
        ]
        if not mentions:
            continue
        shapes = [_kind(v) for _, _, v in mentions]
        hits = [
            (ids, c, k, h.start(), h.end())
            for ids, c, k, pat, literal in patterns
            if k in shapes and literal in prepared  # else no match (`cue_literal`)
            for h in pat.finditer(prepared)
            # a cue denied (``not refunded``, a question answered no) binds nothing (FF14b),
            # nor one a condition waits for with no value after it (``If approved, order #7
            # will be refunded``; not ``If you are out, it will be delivered on 2026-06-16``)
            if not answered_no
            and not _NEGATED_CUE.search(prepared, 0, h.start())
            and not _REPORTED_CUE.search(prepared, 0, h.start())
            and not (
                _CONDITIONAL_CUE.search(prepared, 0, h.start())
                and not any(m[0] >= h.end() for m in mentions)
            )
            # nor a future a condition after it waits for (round 17's FF17e: ``INV-… will
            # be written off only if the controller approves it``)
            and not (
                _FUTURE_CUE.search(prepared, 0, h.start())
                and _CONDITION_AFTER.match(prepared, h.end())
            )
            # nor one its clause says waits (round 18's FF18a: ``The write-off of INV-…
            # needs approval before it is booked``)
            and not _WAITED_AFTER.match(prepared, h.end())
        ]
        claimed = [
            _claimants(
                prepared,
                cs,
                ce,
                [m if sh == k else None for m, sh in zip(mentions, shapes, strict=True)],
            )
            for _, _, k, cs, ce in hits
        ]
        named_of: list[set[int]] = [set() for _ in mentions]
        cue_of: list[str] = ["" for _ in mentions]
        for n, (start, end, value) in enumerate(mentions):
            best: tuple[int, int] | None = None
            named: set[int] = set()
            cue_named = ""
            for (ids, cue, _, cs, ce), owners_of in zip(hits, claimed, strict=True):
                if n not in owners_of:
                    continue  # a cue nearer another value (of its kind) is that one's
                key = (_gap(cs, ce, start, end), cs - ce)
                if best is None or key < best:
                    best, named, cue_named = key, set(ids), cue
                elif key == best:
                    named |= ids
            if dated and _ISO_DATE.match(value):  # round 12's D12s
                if value in own and _HEDGED_DATE.match(prepared, end):
                    misplaced.append(f"{value} (as a hedged date)")
                prev = mentions[n - 1] if n else None
                if (
                    prev is not None
                    and prev[2] != value
                    and prev[2] in own
                    and _ISO_DATE.match(prev[2])
                    and _ALTERNATIVE.fullmatch(prepared, prev[1], start)
                ):
                    if value not in own:
                        misplaced.append(f"{value} (as an alternative to {prev[2]})")
                        continue
                    # another role's own date as the alternative: it takes the first's role
                    named, cue_named = set(named_of[n - 1]), cue_of[n - 1]
                named_of[n], cue_of[n] = set(named), cue_named
            if value not in own:  # another value of a role's kind
                if named:
                    misplaced.append(f"{value} (as {cue_named!r})")
                elif _ISO_DATE.match(value):
                    if not (last_date and value > last_date):
                        misplaced.append(f"{value} (a date before the record's)")
                else:
                    misplaced.append(f"{value} (none of the record's)")
            elif named and not named & own[value]:
                misplaced.append(f"{value} (as {cue_named!r})")
    misplaced += _unnamed_dates(text, [v for v, _ in roles])
    if misplaced:
        detail["misplaced_values"] = misplaced
    return not misplaced, misplaced, detail


_NEGATED_CUE = re.compile(
    r"(?:\bnot|n['\u2019]t|\b(?:was|were|has|have|had|is|are|did|do|does)nt|\bnever"
    r"|\bno\s+longer|\bno|\b(?:can|could|may|might)(?:\s+not)?)"
    r"(?:\s+(?:yet|been|be|being|already|actually|fully|even|ever|once|as|marked|shown))*\s+$"
)
"""A negation or a modal of what may be straight before a cue (``not refunded``, ``hasn't
been refunded``, ``| Not refunded |``, ``whether it can be refunded``): the cue does not say
the value is in its role, and binds nothing (stop 25's FF14b: the declined order in a table
cell ``Not refunded`` read as the refunded one)."""
_CONDITIONAL_CUE = re.compile(
    r"\b(?:if|once|unless|when|whenever|after|pending|until|provided)\b[^.]*"
    r"(?:\b(?:will|would|shall|could|might)|['\u2019]ll)\s+(?:(?:only|then|also)\s+)?be\s+$"
)
"""A future a condition waits for straight before a cue (``If a specialist approves it, order
#7 will be refunded``): with no value after the cue in its clause, the cue binds nothing."""
_FUTURE_CUE = re.compile(
    r"(?:\b(?:will|would|shall|could|might)|['\u2019]ll)\s+(?:(?:only|then|also)\s+)?be\s+$"
)
_CONDITION_AFTER = re.compile(
    r"[^.;!?\n]*?\b(?:(?:only|just)\s+)?(?:if|once|unless|when|whenever|after|pending|until|"
    r"provided)\b"
)
"""A future straight before a cue (`_FUTURE_CUE`) with a condition after it in its clause
(`_CONDITION_AFTER`: ``INV-… will be written off only if the controller approves it``):
the cue binds nothing, as a condition before it (`_CONDITIONAL_CUE`) waits for it."""
_WAITED_AFTER = re.compile(
    r"[^.;!?\n]{0,40}?\b(?:requires?|needs?|awaits?|awaiting|pending|waits?|depends)\b"
)
"""A word of waiting after a cue in its clause (``the write-off of INV-… needs approval``):
the cue states nothing done, and binds nothing."""
_REPORTED_CUE = re.compile(
    r"(?<!\bas )(?<!\blike )\b(?:you|the customer|customer)\s+(?:(?:had|have|also)\s+)?"
    r"(?:asked|mentioned|said|says|claimed|claims|thought|wondered|wrote|told (?:us|me))\b"
    r"[^.;!?\n]*$"
)
"""The customer's question or report before a cue in its sentence (``You asked whether order
#7 was refunded``, ``You said order #7 had been refunded``): the cue is theirs, it binds
nothing (round 16's R16'); ``as you said`` endorses and still binds."""
_NO_ANSWER = re.compile(r"^\W*(?:no|nope|not\s+(?:yet|at\s+all|really)|negative)\b", re.IGNORECASE)


def _answered(text: str) -> list[tuple[str, bool]]:
    """`clauses` of ``text``, each with whether it is a question the next clause answers no
    (``Has order #7 been refunded? No, and I can't do it from here``): its cues bind
    nothing (FF14b). The clauses are `clauses`' own, empty ones dropped."""
    pieces: list[tuple[str, str]] = []
    start = 0
    for m in _CLAUSE_END.finditer(text):
        pieces.append((text[start : m.start()], m.group(0)))
        start = m.end()
    pieces.append((text[start:], ""))
    kept = [(c, sep) for c, sep in pieces if c.strip()]
    return [
        (
            c,
            "?" in sep
            and (
                (i + 1 < len(kept) and bool(_NO_ANSWER.match(kept[i + 1][0])))
                # round 18's FF18b: a yes/no question states nothing unless answered yes
                or (
                    bool(_YES_NO_QUESTION.match(c))
                    and not (i + 1 < len(kept) and _YES_ANSWER.match(kept[i + 1][0]))
                )
            ),
        )
        for i, (c, sep) in enumerate(kept)
    ]


_YES_NO_QUESTION = re.compile(
    r"^\W*(?:(?:and|but|so|also|then)\s+)?(?:was|were|is|are|has|have|had|did|do|does|will|"
    r"would|could|can|should|shall)\b(?!\s*(?:n['\u2019]?t|not)\b)",
    re.IGNORECASE,
)
_YES_ANSWER = re.compile(
    r"^\W*(?:yes|yep|yeah|yup|indeed|correct|right|certainly|absolutely|of course|affirmative|"
    r"sure|done)\b|^\W*(?:it|that|they|this)\s+(?:was|were|has|have|had|did|is)"
    r"(?:\s+(?:now|already|indeed))?[\s.!]*$",
    re.IGNORECASE,
)
"""A yes/no question (`_YES_NO_QUESTION`: an auxiliary first, ``?`` after) whose next clause
does not affirm it (`_YES_ANSWER`): its cues bind nothing, as a question answered no."""


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ALTERNATIVE = re.compile(
    r"[ \t]*[,(]?[ \t]*(?:\bor\b|\bto\b|\band\b|\bthrough\b|\bthru\b|\buntil\b|\btill\b"
    r"|[-/~\u2013\u2014])[ \t]*"
    r"(?:(?:maybe|perhaps|possibly|even|else|up[ \t]+to|by)\b[ \t]*)?\(?[ \t]*"
)
"""What joins a date to an alternative or the other end of a range (``2026-06-15 (or
2026-06-16)``, ``between 2026-06-15 and 2026-06-18``, ``2026-06-15 to 2026-06-20``,
``2026-06-15/16``): the second date competes for the first one's role (round 12's D12s)."""
_HEDGED_DATE = re.compile(
    r"[ \t]*[,(]?[ \t]*(?:give[ \t]+or[ \t]+take|plus[ \t]+or[ \t]+minus|\+/-|±"
    r"|or[ \t]+(?:so|thereabouts|later|earlier|after|before)\b"
    r"|or[ \t]+(?:up[ \t]+to[ \t]+)?(?:a|an|one|two|three|four|few|several|\d+)[ \t]+"
    r"(?:business[ \t]+)?"
    r"(?:days?|weeks?|months?)\b)"
)
"""A role's date widened by a hedge (``2026-06-15, give or take a week``, ``2026-06-15 or up
to two weeks later``): a date the roles cannot compare, refused (round 12's D12s)."""

_DATE_LIKE = re.compile(
    r"(?<![\w.])(?<!\w-)((?:19|20)\d{2})[- ]{1,3}(0[1-9]|1[0-2])(?:[- ]{1,3}\d{2})?(?!\w|-\d)"
)
_SEPARATORS = {
    **{c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"},
    **{c: " " for c in "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"},
    **{c: " " for c in "\u2009\u200a\u202f\u205f\u3000"},
}
"""Dashes and spaces a date's parts may be written with (`2026—05—31`, `2026　05　31`),
read as ``-`` and a space; a run of up to three of them joins two parts (the gate's forms
cut a value in groups of four: `2026—-05-—31`), and a sign before the year is no digit
(`-2026-05-31`)."""


def _unnamed_dates(text: str, values: Sequence[str]) -> list[str]:
    """Where the roles hold ISO dates, the dates (``2026-01-31``) and months (``2026-01``) the
    text states in a month before every role date's month, as ``"VALUE (a date before the
    record's)"``: a note that lists the earlier months beside its own ("accrued 2026-05-31
    (2026-01-31, 2026-02-28, ...)") is a shotgun, not a record (the ship gate's
    ``choices-i`` mutant). Later dates stay free (a due date, a review), as do the role
    months' own days."""
    dates = {v.lower() for v in values if _ISO_DATE.match(v)}
    if not dates:
        return []
    first = min(d[:7] for d in dates)
    plain = iso_dates(prepare(text).translate(str.maketrans(_SEPARATORS)), frozenset(dates))
    return [
        f"{m.group(0)} (a date before the record's)"
        for m in _DATE_LIKE.finditer(plain)
        if f"{m.group(1)}-{m.group(2)}" < first
    ]


SQL_MISSTATED = "mcpgym_misstated"
"""The SQL function ``mcpgym_misstated(text, roles)``: the values ``text`` states outside
their roles (`value_outcome`'s misplaced list: a value bound to another role's words, or
another value of a role's kind) joined by newlines, or NULL where there are none (or
``text`` is NULL). ``roles`` is a JSON array of ``[value, [cue, ...]]`` (a value NULL or
empty is left out; a number is read as its decimal text: an order number). A malformed
``roles`` is an error of the query (the check is an evaluation error, never a pass).
Only values a role's words bind are reported here (``order #100511``, ``estimated delivery
2026-09-30``, ``ending in 1111``): an unbound value of a role's kind (a date of birth the
customer gave, a bare list of numbers) is left to the checks that read look-alike forms.

``mcpgym_misstated(text, roles, known)``: also every id of ten digits or more of a role's kind
that no role and none of ``known`` holds (a JSON array of the ids on file: every tracking
number the store holds), bound or not (`mcpgym_grading._long_ids`: a wrong tracking number in
a link or with no cue, round 17's N17o). A malformed ``known`` is an error of the query."""


def sql_misstated(text: object, roles: object, known: object = None) -> str | None:
    """`SQL_MISSTATED` (see there), with ``known`` (three arguments) or without (None);
    raises ValueError for a malformed ``roles`` or ``known``."""
    if not isinstance(text, str):
        return None
    held: list[str] | None = None
    if known is not None:
        raw_known = json.loads(known) if isinstance(known, str) else None
        if not isinstance(raw_known, list):
            raise ValueError(f"{SQL_MISSTATED}: known must be a JSON array text, got {known!r}")
        held = [str(v) for v in cast("list[Any]", raw_known) if v is not None]
    raw = json.loads(roles) if isinstance(roles, str) else None
    if not isinstance(raw, list):
        raise ValueError(f"{SQL_MISSTATED}: roles must be a JSON array text, got {roles!r}")
    parsed: list[tuple[str, tuple[str, ...]]] = []
    for item in cast("list[Any]", raw):
        if not isinstance(item, list) or len(cast("list[Any]", item)) != 2:
            raise ValueError(f"{SQL_MISSTATED}: each role is [value, [cue, ...]]: {item!r}")
        value, cues = cast("list[Any]", item)
        if value is None or value == "":
            continue
        cue_list = cast("list[Any]", cues) if isinstance(cues, list) else [cues]
        parsed.append((str(value), tuple(str(c).lower() for c in cue_list if c)))
    _, misplaced, _ = value_outcome(text, parsed)
    # only a value bound to a role's words: an unbound one of a role's kind (a list of
    # numbers) is read in its plain form only, not in the gate's look-alike forms of it;
    # but for a shotgun of dates (`_date_shotgun`)
    shotgun = _date_shotgun(text, parsed, misplaced)
    misplaced = [m for m in misplaced if " (as " in m or m in shotgun]
    if held is not None:
        # an id of ten digits or more of a role's kind that nothing holds (N17o)
        misplaced += unknown_long_ids(text, [v for v, _ in parsed], held, _kind)
    return "\n".join(dict.fromkeys(misplaced)) or None


_BEFORE = " (a date before the record's)"


def _date_shotgun(text: str, roles: ValueRoles, misplaced: Sequence[str]) -> set[str]:
    """The entries of ``misplaced`` that are unbound dates of a shotgun of dates: where the
    text states one of the roles' own ISO dates, every other ISO date it states unbound,
    none of the roles' values, within the span of the role dates (on or after the first,
    before the last: `value_outcome` leaves later ones free): a reply giving its estimated
    delivery with the day before beside it states no date (the gate's ``dates-i``: stop
    25's helpdesk order-status and cancel-order replies listing ``2026-06-14, 2026-06-16``
    beside ``estimated delivery 2026-06-15`` passed). A date outside the span (a date of
    birth the customer gave) stays free, as before."""
    dates = sorted(v for v, _ in roles if _ISO_DATE.match(v))
    if not dates:
        return set()
    stated = set(_ISO_IN_TEXT.findall(prepare(text)))
    if not stated & set(dates):
        return set()
    return {
        m
        for m in misplaced
        if m.endswith(_BEFORE)
        and _ISO_DATE.match(value := m.removesuffix(_BEFORE))
        and dates[0] <= value
    }


_ISO_IN_TEXT = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
