"""Where a policy limit's own figure stands in its clause: in a rule, or in the amount's place.

Read by `mcpgym_grading._roles` for a mention of a ``binds_others=False`` role's own amount
(a policy limit: $250.00, $5,000.00) that its clause binds to that role. A limit noun
nearest the figure is not enough: "Refund the $250.00 limit on order #1042" and "Amount
entered: the $5,000.00 limit" put the limit where the amount refunded or entered goes,
while "Refunds above $250.00 need approval" and "above my $250.00 refund limit" quote it as
the rule the amount is measured against. An action word near the limit cannot tell them
apart (the rule may name what it covers: "Refunds above ..."); what *governs* the figure
can. The figure stands only in one of these positions:

- **A rule's standard**: the word governing it (the first word to its left, past
  determiners and possessives, punctuation, ``of``, a copula, and a limit noun with its
  qualifiers before it) is a comparison (`COMPARISON_WORDS`: above, over, exceeds, more
  than, up to, within, under...) or a rule preposition (`RULE_WORDS`: per, due to, because
  of, according to, against, a policy reference): "Refunds over $250.00 go to billing",
  "over the approval limit ($5,000.00)", "(policy 3.5, $5,000.00 limit)".
- **The limit named**: nothing governs it (the clause's start, or a connective such as
  ``and``, ``as``, ``which``), and a limit noun (`LIMIT_NOUNS`) names it: before it ("Limit:
  $5,000.00", "The write-off limit is $500.00"), right after it ("The $5,000.00 approval
  limit applies", "$250.00 (my limit)") or as a copula's predicate ("$250.00 is my limit");
  and no copula or ``=`` after it gives it a value without a limit word ("the threshold
  amount, $5,000.00, is the bill total"; "Limit $5,000.00 = bill amount"), nor a word of
  what was done with an amount (`DONE_WORDS`: "$250.00 limit refunded", "Limit $500.00
  written off").

Anything else governing it (a verb: "pay $5,000.00 now (the limit)", "I can refund $250.00
of it now", "Wrote off the $500.00 limit"; a label: "Amount entered: the $5,000.00 limit")
makes it the object or the value of the sentence: it is *misplaced* (``"object"``), and so
is a figure a copula or ``=`` equates with a non-limit, or a done-word follows
(``"value"``). Joined to another amount of its clause by an alternative word
(`_ALTERNATIVE`: ``or``, ``/``, ``instead of``, ``rather than``, ``unless``, ``if not``,
``vs.``...), it is misplaced wherever it stands (``"alternative"``: "Refund $250.00
instead of $349.00").

Words are matched on the clause as the money parser reads it (folded, lower case). This is
a heuristic over surface words, not parsing. Known false fails (by choice): an honest
figure governed by a word outside these lists ("Note: the $5,000.00 limit applies",
"Entered as a draft, the $5,000.00 approval limit applies", "I can only refund $250.00
myself"; write "up to $250.00", "the approval limit ($5,000.00) applies"), and a limit
whose copula predicate names no limit ("The $5,000.00 limit is why it was escalated").
"""

from __future__ import annotations

import re

_ALTERNATIVE = re.compile(
    r"(?<![^\W_])(?:or|maybe|either|perhaps|possibly|otherwise|else|instead|rather\s+than"
    r"|unless|if\s+not|vs|versus|in\s+place\s+of|in\s+lieu\s+of)(?![^\W_])|/"
)
"""The words that join two amounts as alternatives or hedge between them."""

COMPARISON_WORDS = (
    "above",
    "over",
    "exceed*",
    "surpass*",
    "beyond",
    "under",
    "below",
    "within",
    "past",
    "outside",
    "up to",
    "at most",
    "capped",
    "limited to",
    "restricted to",
    "more than",
    "greater than",
    "higher than",
    "larger than",
    "bigger than",
    "less than",
    "lower than",
    "smaller than",
)
"""The words that make a figure the standard an amount is measured against (``*``: a
prefix)."""

RULE_WORDS = (
    "per",
    "as per",
    "due to",
    "owing to",
    "because of",
    "according to",
    "subject to",
    "against",
    "in line with",
    "policy",
)
"""The words that cite a figure as the rule a decision follows."""

LIMIT_NOUNS = frozenset(
    "limit limits threshold thresholds cap caps ceiling ceilings maximum max authority "
    "allowance".split()
)
"""The nouns that name a figure a limit."""

_LIMIT_TAILS = frozenset("amount figure value level sum".split())
"""Words a limit noun may take after it and stay the limit's name (``threshold amount``)."""

_QUALIFIERS = frozenset(
    "approval write-off writeoff write off refund refunds agent agent's policy per-invoice "
    "per invoice ticket order authority authorisation authorization sign-off signing posting "
    "goodwill courtesy credit store spending daily bill payment company escalation "
    "controller".split()
)
"""Words that say what a limit limits, between a determiner and the limit noun (``the
approval limit``, ``my refund limit``) or between the figure and it (``$250.00 agent
refund limit``)."""

_DETERMINERS = frozenset(
    "the a an my our your its their his her this that these those any each".split()
)
_COPULAS = frozenset("is was are were be been being = equals equal makes becomes".split())
_LINKS = frozenset("of at".split()) | _COPULAS
"""Words between a limit noun and the figure it names (``limit of``, ``limit is``)."""
_PUNCT = frozenset("( ) [ ] , : - \" '".split())
_CONNECTIVES = frozenset(
    "so since because which while when where whereas also then though although".split()
)
"""Words that open a clause of their own: a figure right after one is governed by nothing
(not ``and``, ``as``, ``with``: they join a noun to the action before them, "wrote off
$312.50 and the $500.00 limit", "entered as the $5,000.00 limit")."""

_PREDICATE_WORDS = frozenset(
    "policy most allowed approval approve approved met hit reached crossed applies apply "
    "applied set".split()
)
"""Beside `LIMIT_NOUNS` and the comparison words, the words of a copula's predicate that
keep the figure a limit (``$250.00 is the most I can refund``, ``the limit was not met``)."""

DONE_WORDS = (
    "refund*",
    "paid",
    "pay*",
    "credit*",
    "reimburs*",
    "charg*",
    "wrote",
    "written",
    "write*",
    "issu*",
    "post*",
    "enter*",
    "record*",
    "book*",
    "sent",
    "send*",
    "return*",
    "transferr*",
    "deposit*",
    "back",
)
"""The words that say what was done with an amount (refunded, paid, written off, entered):
right after a limit figure that nothing governs, past its limit noun ("$250.00 limit
refunded", "Limit $500.00 written off"), they make the figure the amount done."""

_AUXILIARIES = frozenset("has have had will would shall now already today just also".split())

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+(?:['’-][^\W\d_]+)*|\S")


def _phrases(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [tuple(w.split()) for w in words]


_COMPARISONS = _phrases(COMPARISON_WORDS)
_RULES = _phrases(RULE_WORDS)


def _word_is(token: str, word: str) -> bool:
    return token.startswith(word[:-1]) if word.endswith("*") else token == word


def _ends_with(tokens: list[str], i: int, phrases: list[tuple[str, ...]]) -> bool:
    """Whether one of ``phrases`` ends at ``tokens[i]``."""
    for p in phrases:
        n = len(p)
        if i + 1 >= n and all(
            _word_is(t, w) for t, w in zip(tokens[i + 1 - n : i + 1], p, strict=True)
        ):
            return True
    return False


def _is_limit_word(token: str) -> bool:
    return (
        token in LIMIT_NOUNS
        or token in _PREDICATE_WORDS
        or any(_word_is(token, w) for p in _COMPARISONS for w in p if len(p) == 1)
    )


_PREPOSITIONS = frozenset("for per on of in at".split())


def _noun_before_phrase(left: list[str], i: int) -> int | None:
    """The index of a limit noun that a short prepositional phrase ending at ``left[i]``
    follows (``limit for refunds``, ``limit per invoice``: at most 3 words after the
    preposition, no punctuation), or None."""
    for k in range(i - 1, max(-1, i - 5), -1):
        if not re.fullmatch(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", left[k + 1]):
            return None
        if left[k] in LIMIT_NOUNS and left[k + 1] in _PREPOSITIONS:
            return k
    return None


def _governor(left: list[str]) -> tuple[str, bool]:
    """What governs a figure whose clause holds ``left`` (tokens) before it: ``"rule"``,
    ``"start"`` (nothing: the clause's start or a connective) or ``"object"``; and whether
    a limit noun names it on that side."""
    named = False
    qualifiers_ok = False  # right after a limit noun, before any determiner
    linked = False  # a copula between the figure and its subject: "that is the $250.00 limit"
    i = len(left) - 1
    while i >= 0:
        t = left[i]
        if _ends_with(left, i, _COMPARISONS) or _ends_with(left, i, _RULES):
            return "rule", named
        if re.fullmatch(r"\d+(?:[.,]\d+)*|§", t) and i > 0 and left[i - 1] in ("policy", "section"):
            return "rule", named  # a policy reference: "(policy 3.5, $5,000.00 limit)"
        if t in LIMIT_NOUNS or (t in _LIMIT_TAILS and i > 0 and left[i - 1] in LIMIT_NOUNS):
            named, qualifiers_ok = True, True
            i -= 2 if t in _LIMIT_TAILS else 1
            continue
        if qualifiers_ok and t in _QUALIFIERS:
            i -= 1
            continue
        if named and t in (":", ","):
            return "start", named  # "Escalated: approval limit $5,000.00"
        if t in _DETERMINERS or t in _PUNCT or t in _LINKS:
            qualifiers_ok = qualifiers_ok and t not in _DETERMINERS
            linked = linked or (t in _COPULAS and not named)
            i -= 1
            continue
        if t in _CONNECTIVES and (named or not linked):
            return "start", named
        noun = _noun_before_phrase(left, i) if linked and not named else None
        if noun is not None:  # "the approval limit for bills is $5,000.00"
            i = noun
            continue
        return "object", named
    # the figure is the predicate of a subject that is no limit noun ("that is the $250.00
    # limit": the pronoun stands for the amount), or governed by nothing
    return ("object" if linked and not named else "start"), named


def _after(right: list[str]) -> tuple[bool, bool]:
    """Whether a limit noun names the figure from ``right`` (the tokens after it), and
    whether a copula or ``=`` there gives it a value without a limit word, or a
    `DONE_WORDS` word says it was done."""
    j, n = 0, len(right)
    while j < n and (right[j] in ("(", "[") or right[j] in _DETERMINERS):
        j += 1
    k = j
    while k < n and k - j < 4 and right[k] in _QUALIFIERS and right[k] not in LIMIT_NOUNS:
        k += 1
    named = k < n and right[k] in LIMIT_NOUNS
    j = k + 1 if named else 0
    while j < n and (right[j] in _PUNCT and right[j] != "-" or right[j] in _AUXILIARIES):
        j += 1
    if j < n and any(_word_is(right[j], w) for w in DONE_WORDS):
        return named, True
    if j < n and right[j] in _COPULAS:
        predicate = right[j + 1 :]
        if any(_is_limit_word(t) for t in predicate) or not predicate:
            return True, False
        return named, True
    return named, False


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def limit_position(
    prepared: str, span: tuple[int, int], others: list[tuple[int, int]]
) -> str | None:
    """Why the limit figure at ``span`` (character offsets in ``prepared``, its clause as
    the money parser reads it) is misplaced there, or None where it stands (see the module
    docstring): ``"alternative"`` (an `_ALTERNATIVE` word between it and another amount,
    ``others``: the spans of the clause's other US-dollar mentions), ``"object"`` (governed
    by no comparison, rule word or limit noun), ``"value"`` (equated with a non-limit).
    Another amount governing it is no rule ("$312.50, the $500.00 limit": an apposition)."""
    start, end = span
    for os_, oe in others:
        lo, hi = (oe, start) if oe <= start else (end, os_)
        if lo < hi and _ALTERNATIVE.search(prepared, lo, hi):
            return "alternative"
    governor, named = _governor(_tokens(prepared[:start]))
    if governor == "rule":
        return None
    if governor == "object":
        return "object"
    named_after, value = _after(_tokens(prepared[end:]))
    if value:
        return "value"
    return None if named or named_after else "object"


def in_a_rule(prepared: str, span: tuple[int, int]) -> bool:
    """Whether the figure at ``span`` in ``prepared`` (a clause as the money parser reads
    it) is plainly the limit: a rule's standard (a comparison or rule word governs it:
    "refunds over $250.00", "above the $5,000.00 limit"), or the limit a limit noun before
    it names, with nothing governing it and nothing after it but the clause's end, a
    bracket, a comma or ``per``/``for`` ("The write-off limit per invoice is $500.00",
    "Limit: $5,000.00 (policy 3.5)"). Such a figure is the limit's, whatever cue of another
    role stands nearer (`mcpgym_grading._roles.bind`)."""
    governor, named = _governor(_tokens(prepared[: span[0]]))
    if governor == "rule":
        return True
    right = _tokens(prepared[span[1] :])
    return (
        governor == "start" and named and (not right or right[0] in ("(", ")", ",", "per", "for"))
    )
