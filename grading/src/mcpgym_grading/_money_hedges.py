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
