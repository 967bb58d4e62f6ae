"""Amounts a text names but does not state as such: an amount under arithmetic or an
approximation (round 12's H12a/H12b).

``50% of $205.02``, ``$205.02 twice``, ``a quarter of $205.02``, ``$205.02 less 10%``,
``$205.02 plus tax``, ``$205.02 (or double that)``, ``$205.02, or half of it``, ``$205.02 x
2``, ``$205.02 / 2`` state another amount than $205.02 (one the reader does not compute);
``up to $205.02``, ``at least $205.02``, ``approximately $205.02``, ``~$205.02``, ``≈
$205.02``, ``circa $205.02``, ``$205.02 or so``, ``$205.02 give or take`` bound it without
stating it. Such a mention is *hedged* (`mcpgym_grading._money.Mention.hedged`): an amount
all the same (it competes with the expected one, a guard reads it), but it never states the
expected amount to a ``states`` or ``contains`` money check, as a period the period reader
cannot read is an ``unread period``.

A multiplier written before the amount with a number (``2 x $324.94``) is read as the
product (`mcpgym_grading._money._TIMES_BEFORE`), not hedged.

A computation shown with its result is no hedge of the result (`shown_computation`): ``2 x
$51.70 + tax = $120.00`` (a credit note's quantity times its unit price, plus tax, equals
its total) states $120.00, and the unit price under ``+ tax`` is a part of how that amount
was reached. Its result is the amount after ``=`` (``equals``, ``comes to``, ``for a total
of``) or the amount the computation explains in brackets or after a colon right behind it
(``Credit note for $120.00 (2 x $51.70 plus tax)``). A check then weighs the parts by their
result (`mcpgym_grading._answer_check`): a result on file, at least the quantity times the
unit price. A computation with no result of either kind (``Credited 2 x $51.70 plus
tax.``) stays hedged: it names a total the reader cannot compute and does not state it,
which is what ``$45.00 plus tax`` does; the ledger's credit-note references always state
the total (``... = $120.00``), and its honest forms state it before or after the
computation (tests/ledger/test_note_roles.py), so a note that leaves it out states another
amount than any on file. A net followed by its tax amount (``$291.75 + tax $29.18``, as a
vendor bill lists its lines) states both amounts and hedges neither.
"""

from __future__ import annotations

import re

_WORD_NUMBER = r"(?:two|three|four|five|ten|\d{1,3}(?:\.\d+)?)"
_PART = r"(?:half|third|quarter|fifth|tenth|fraction|portion)"
_APPROX = (
    r"approx(?:imately|\.)?|roughly|circa|ca\.|nearly|almost|around|an[ \t]+estimated"
    r"|~|≈|±|\+/-|\+-"
)
_BOUND_WORDS = (
    r"up[ \t]+to|at[ \t]+(?:least|most)|no[ \t]+(?:more|less)[ \t]+than|(?:more|less)[ \t]+than"
)
"""The comparison words of a bound (``up to $250.00``, ``more than $250.00``): how a limit
is worded, not an approximation (`hedge`)."""
_BEFORE = re.compile(
    r"(?:"
    rf"(?P<bound>(?<![\w])(?:{_BOUND_WORDS}))"  # up to $X (a limit's wording)
    rf"|\b{_WORD_NUMBER}[ \t]*(?:%|percent)[ \t]+(?:of|off)"  # 50% of $X
    rf"|\b(?:a|one|an?other)[ \t]+{_PART}[ \t]+of"  # a quarter of $X
    rf"|\b{_PART}[ \t]+(?:of[ \t]+)?"  # half of $X, half $X
    r"|\b(?:double|twice|triple|thrice)"  # double $X
    rf"|\b{_WORD_NUMBER}[ \t]+times"  # two times $X (a digit: the product, `_TIMES_BEFORE`)
    rf"|(?<![\w])(?:{_APPROX})"  # ~$X, approximately $X
    r")(?:[ \t]+(?:of|the|that|an?))*[ \t:]*\(?[ \t]*\Z",
    re.IGNORECASE,
)
"""What makes the amount right after it another amount or a bound: ends at the mention."""
_AFTER = re.compile(
    r"[ \t]*(?:"
    r"(?:x|×|\*)[ \t]*\d"  # $X x 2
    r"|(?:/|÷)[ \t]*\d{1,2}(?!\d|[.,]\d)"  # $X / 2 (not $45.00/90.00)
    r"|\b(?:twice|thrice|doubled|halved|tripled)\b"  # $X twice
    rf"|\btimes[ \t]+{_WORD_NUMBER}\b|\b{_WORD_NUMBER}[ \t]+times\b"  # $X times two
    r"|\b(?:less|minus|plus|more|off|discounted|over|under)\b"
    r"[ \t]+\d{1,3}(?:\.\d+)?[ \t]*(?:%|percent)"
    r"|(?:\bplus\b|\+)[ \t]*(?:taxe?s?|vat|shipping|fees?|interest|the[ \t]+same)\b"  # plus tax
    r"(?![ \t]*(?:of[ \t]+|:[ \t]*)?\$)"  # $X + tax $Y: a net and its tax, both stated
    r"|±|\+/-|\+-"
    r"|,?[ \t]*\(?[ \t]*\bor\b[ \t]+(?:(?:maybe|perhaps|possibly)[ \t]+(?:more|less)\b"
    r"|(?:maybe[ \t]+|perhaps[ \t]+|possibly[ \t]+)?"
    rf"(?:so\b|thereabouts|double|twice|triple|half|a[ \t]+{_PART}|{_PART}"
    r"|\d{1,3}(?:\.\d+)?[ \t]*(?:%|percent)"
    r"|the[ \t]+(?:full|whole|entire|order|original|total|remaining|other)\b))"
    r"|,?[ \t]*\(?[ \t]*give[ \t]+or[ \t]+take\b"
    r"|[ \t]*\(?[ \t]*\b(?:approx(?:imately|\.)?|roughly|circa)\b"
    r"|(?P<bound>[ \t]*\(?[ \t]*\b(?:at[ \t]+(?:most|least)|tops|max(?:imum)?)\b"
    r"|,?[ \t]*\(?[ \t]*\bor[ \t]+(?:more|less|above|below|under|over)\b(?![ \t]+than))"
    r")",
    re.IGNORECASE,
)
"""What makes the amount right before it another amount or a bound: starts at its end."""


def hedge(prepared: str, start: int, end: int) -> str | None:
    """The hedge of the mention ``prepared[start:end]`` (a text as
    `_money_prepare.prepare` leaves it): ``"bound"`` where only comparison words bound it
    (``up to $X``, ``more than $X``, ``$X at most``, ``$X or less``: how a limit is
    worded), ``"other"`` where arithmetic or an approximation governs it (see the module
    docstring), None where neither does."""
    kinds: list[str] = []
    before = _BEFORE.search(prepared, max(0, start - 48), start)
    if before is not None:
        kinds.append("bound" if before.group("bound") else "other")
    after = _AFTER.match(prepared, end)
    if after is not None:
        kinds.append("bound" if after.group("bound") else "other")
    if not kinds:
        return None
    return "bound" if all(k == "bound" for k in kinds) else "other"


def hedged(prepared: str, start: int, end: int) -> bool:
    """Whether the mention ``prepared[start:end]`` (a text as `_money_prepare.prepare`
    leaves it) is under arithmetic, an approximation or a bound (`hedge`)."""
    return hedge(prepared, start, end) is not None


_ADDEND = r"(?:\bplus\b|\+)[ \t]*(?:(?:sales[ \t]+)?taxe?s?|vat|gst|shipping|fees?)\b"
"""What a computation adds to its parts: tax, shipping or fees (never less than nothing)."""
_QUANTITY = r"(?:(?<![\w.,$])(?P<k>[1-9]\d{0,2})[ \t]*(?:x|\u00d7|\*)[ \t]*)?"
"""An optional quantity before the unit price (``2 x``); none is one."""
_RESULT_AFTER = re.compile(
    rf"[ \t]*{_ADDEND}[ \t]*,?[ \t]*(?:=|\bequals?\b|\bcomes[ \t]+to\b|\bmakes?\b|\bmaking\b"
    r"|\bfor[ \t]+a[ \t]+total[ \t]+of\b|\btotall?ing\b|\btotals\b)[ \t:]*",
    re.IGNORECASE,
)
"""A computation's addend and the word that gives its result: the result starts at its end."""
_EXPLAINS_AFTER = re.compile(rf"[ \t]*{_ADDEND}[ \t]*(?:\)|[.;,]|$)", re.IGNORECASE | re.MULTILINE)
"""A computation's addend closing the brackets or the clause it stands in."""
_EXPLAINED_BEFORE = re.compile(rf"(?:[ \t]*\(|:)[ \t]*{_QUANTITY}\Z", re.IGNORECASE)
"""An opening bracket or colon right after the amount a computation explains."""
_QUANTITY_BEFORE = re.compile(rf"{_QUANTITY}\Z", re.IGNORECASE)


def shown_computation(
    prepared: str, start: int, end: int, ends: dict[int, int]
) -> tuple[int, int] | None:
    """Where the mention ``prepared[start:end]`` is the unit price of a computation shown
    with its result (see the module docstring): ``(quantity, start of the result's
    mention)``; the quantity is 1 where none is written. ``ends`` maps each mention's start
    to its end (the result must be one of them). None where it is no such part: an
    approximation or other arithmetic before it, no addend after it, or no result."""
    if _BEFORE.search(prepared, max(0, start - 48), start) is not None:
        return None
    after = _RESULT_AFTER.match(prepared, end)
    if after is not None:
        q = _QUANTITY_BEFORE.search(prepared, max(0, start - 8), start)
        k = int(q.group("k")) if q is not None and q.group("k") else 1
        return (k, after.end()) if after.end() in ends else None
    if _EXPLAINS_AFTER.match(prepared, end) is None:
        return None
    opened = _EXPLAINED_BEFORE.search(prepared, max(0, start - 16), start)
    if opened is None:
        return None
    k = int(opened.group("k")) if opened.group("k") else 1
    o = opened.start()
    for at, stop in ends.items():  # the mention right before the bracket or colon
        if at < start and not prepared[min(stop, o) : max(stop, o)].strip():
            return (k, at)
    return None
