"""``mcpgym_without``: a text read without the values said in another role.

A check that must not count a value said in another role (a carrier named for a return
label, not for the order's shipment) reads the text through this SQL function:

- ``mcpgym_without(text, drop, keep)`` (`sql_without`): the text without its sentences that
  hold one of the cue phrases ``drop`` and none of the phrases ``keep``. The whole sentence
  goes, with whatever else it says; kept for rubrics written against it.
- ``mcpgym_without(text, drop, keep, value)`` (`sql_without_bound`): the text without the
  mentions of ``value`` *bound* to a ``drop`` cue, in sentences holding no ``keep`` phrase.
  Only the mention goes; everything else the sentence says is read. A mention is bound
  when it is the cue's own word:

  - right before the cue, a few `MODIFIERS` or `LEFT_LINKS` between at most (``a prepaid
    USPS return label``, ``a UPS Ground return label``, ``USPS handles returns``), and not
    the object of a preposition or a verb of being (``could be with FedEx for returns``
    is no return label's carrier);
  - or right after it, a few `LINKS` between at most (``Return label: FedEx``, ``returns
    go through USPS``, ``send it back with our prepaid USPS label``);

  and no alternative word (``or``, ``maybe``, ``/``...) stands against it: in ``a USPS
  return label, or FedEx`` FedEx is read, and so is FedEx in ``return shipping via FedEx
  or the post office``. A value among others before the cue (``a FedEx DHL return label``)
  is not the cue's own word: only the one next to it is.

  A text that refers back to a carrier after the mention (`ANAPHORA`: ``the parcel could be
  with them as well``, ``that carrier``, ``they may have it``, ``the parcel too``) keeps
  every mention of the value: ``Return label is FedEx; the parcel could be with them``
  names FedEx for the parcel.

Sentences are cut at ``.``, ``!``, ``?`` before a blank, ``;`` and line breaks; phrases are
found as whole words of the folded text (`mcpgym_grading._text.fold`); the value is found as
``mcpgym_mentions`` finds it (`TextView.contains`: spaced, split or look-alike letters).
"""

from __future__ import annotations

import functools
import re

from mcpgym_grading._text import TextView, normalise_text

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|[;\n]+")
_TOKEN = re.compile(r"[^\W_]+")

MODIFIERS = frozenset(
    "prepaid pre paid free printable printed emailed mailed digital ground express standard "
    "economy postage smartpost".split()
)
"""Words that may stand between a carrier and the cue after it (``a USPS prepaid return
label``, ``a UPS Ground return label``)."""

LEFT_LINKS = frozenset("for handles handle handling does do takes take covers cover".split())
"""Verbs and prepositions that may join a carrier to the cue after it (``USPS handles
returns``, ``USPS for returns``)."""

LINKS = frozenset(
    "is are was will be comes come goes go through via with by from using uses use used "
    "handled provided issued printed done made we i our your the a an prepaid free it "
    "send sends email emails include includes provide provides label labels".split()
)
"""Words that may join the cue to a carrier after it, up to `MAX_LINKS` of them (``return
label is FedEx``, ``for returns, we use USPS``, ``send it back with our prepaid USPS
label``)."""

MAX_LINKS = 4
"""`LINKS` words at most between a cue and the value after it."""

CLAIMS = frozenset(
    "has have holds hold carries carry is are was will would should may might could can "
    "delivers deliver delivered ships shipped who which that too also".split()
)
"""Words that, right after a value following a cue, make the value the subject of another
claim (``Return label, DHL has the parcel``, ``Return label is FedEx, who has it too``):
the value is not bound to the cue."""

_LISTED = re.compile(r"[,;/]")
"""Punctuation between a cue and a value that starts another claim or lists the value
(``Return label, DHL has the parcel``, ``The parcel: FedEx, return label attached``): the
value is not bound to the cue."""

LOCATORS = frozenset("with by via through from at on in is are was were be been being".split())
"""Words that, right before a value, make it the object of another claim (``could be with
FedEx for returns``): the value is not bound to a cue after it."""

ALTERNATIVES = frozenset("or either maybe perhaps possibly otherwise alternatively nor".split())
"""Words that, right beside a bound mention, make it one of several (``return label via
FedEx or the post office``): the mention is read."""

ANAPHORA = re.compile(
    r"\b(?:with|by|via|through|at|to|from|on) (?:them|that carrier|this carrier|the same "
    r"carrier|that company|the same company|the same one|that one|either one|either)\b"
    r"|\bthem (?:as well|too|also|instead)\b"
    r"|\bthey (?:may|might|could|probably|possibly|likely|also|too)? ?(?:have|hold|carry|"
    r"ship|deliver|be carrying|be holding) (?:it|the|your)\b"
    r"|\b(?:same|that|this|either|both) carriers?\b"
    r"|\b(?:parcel|package|order|shipment|box)s? (?:too|as well|likewise)\b"
    r"|\b(?:so|same) (?:is|does|goes|for|with) (?:the|your) (?:parcel|package|order|shipment)"
)
"""A reference back to a carrier (in the folded text after a bound mention): a claim about
where the parcel is that names the carrier of the mention it follows."""

MAX_NAME_TOKENS = 6
"""Tokens at most in one mention of a value (``U.S. Postal Service``: four)."""


@functools.lru_cache(maxsize=64)
def _phrases(spec: str) -> tuple[tuple[str, ...], ...]:
    """The comma-separated phrases of ``spec`` as folded word tuples."""
    return tuple(w for w in (tuple(normalise_text(p).split()) for p in spec.split(",")) if w)


@functools.lru_cache(maxsize=64)
def _patterns(spec: str) -> tuple[re.Pattern[str], ...]:
    return tuple(
        re.compile(r"(?<![^\W_])" + r"[\W_]+".join(map(re.escape, w)) + r"(?![^\W_])")
        for w in _phrases(spec)
    )


def _holds(folded: str, spec: object) -> bool:
    return isinstance(spec, str) and any(p.search(folded) for p in _patterns(spec))


def sql_without(text: object, drop: object, keep: object) -> str | None:
    """``mcpgym_without(text, drop, keep)``: ``text`` without its sentences holding a
    ``drop`` phrase and no ``keep`` phrase (comma-separated), joined by line breaks; NULL
    where ``text`` is NULL (see the module docstring)."""
    if not isinstance(text, str):
        return None
    out = []
    for sentence in _SENTENCE_END.split(text):
        folded = normalise_text(sentence)
        if _holds(folded, drop) and not _holds(folded, keep):
            continue
        out.append(sentence)
    return "\n".join(out)


@functools.lru_cache(maxsize=2048)
def _has(text: str, value: str) -> bool:
    try:
        return TextView.of(text, signed=False).contains(value)
    except ValueError:
        return False


def _bound_spans(
    clause: str, cues: tuple[tuple[str, ...], ...], value: str
) -> list[tuple[int, int]]:
    """The character spans of ``clause`` to drop: each cue with the mention of ``value``
    bound to it (module docstring)."""
    toks = [(m.start(), m.end(), normalise_text(m.group(0))) for m in _TOKEN.finditer(clause)]
    words = [w for _a, _b, w in toks]
    n = len(toks)

    def has(i: int, j: int) -> bool:  # tokens i..j (inclusive) hold the value
        return 0 <= i <= j < n and _has(clause[toks[i][0] : toks[j][1]], value)

    def free(i: int) -> bool:  # no alternative word at token i
        return not (0 <= i < n and words[i] in ALTERNATIVES)

    spans: list[tuple[int, int]] = []
    for cue in cues:
        k = len(cue)
        for i in range(n - k + 1):
            if tuple(words[i : i + k]) != cue:
                continue
            # before the cue: the value ending right there, modifiers between at most
            e = i - 1
            while e >= 0:
                lo = next(
                    (lo for lo in range(e, max(-1, e - MAX_NAME_TOKENS), -1) if has(lo, e)), None
                )
                if lo is not None and not has(lo, e - 1):
                    before = words[lo - 1] if lo > 0 else ""
                    listed = _LISTED.search(clause[toks[e][1] : toks[i][0]])
                    if before not in LOCATORS and not listed and free(lo - 1) and free(i + k):
                        spans.append((toks[lo][0], toks[i + k - 1][1]))
                    break
                if words[e] not in MODIFIERS | LEFT_LINKS or i - e > 3:
                    break
                e -= 1
            # after the cue: links, then the value starting right there
            s = i + k
            while s < n and s - (i + k) < MAX_LINKS and words[s] in LINKS and not has(s, s):
                s += 1
            hi = next((hi for hi in range(s, min(n, s + MAX_NAME_TOKENS)) if has(s, hi)), None)
            if hi is None or has(s + 1, hi) or not free(hi + 1) or not free(i - 1):
                continue
            gap = clause[toks[s - 1][1] : toks[s][0]]
            if _LISTED.search(gap) or (hi + 1 < n and words[hi + 1] in CLAIMS):
                continue  # "Return label, DHL has the parcel"
            spans.append((toks[i][0], toks[hi][1]))
    return spans


def sql_without_bound(text: object, drop: object, keep: object, value: object) -> str | None:
    """``mcpgym_without(text, drop, keep, value)``: ``text`` without the mentions of
    ``value`` bound to a ``drop`` cue in sentences holding no ``keep`` phrase (each dropped
    span a blank), the rest as it is; the whole text where a reference back to a carrier
    (`ANAPHORA`) follows a bound mention; NULL where ``text`` is NULL (module docstring)."""
    if not isinstance(text, str):
        return None
    if not isinstance(value, str) or not isinstance(drop, str):
        return text
    clauses = _clauses(text, drop, keep if isinstance(keep, str) else "")
    if not any(candidate for _c, _f, candidate in clauses):
        return text
    cues = _phrases(drop)
    out: list[str] = []
    first: int | None = None  # the clause of the first dropped mention
    for clause, _folded, candidate in clauses:
        spans = _bound_spans(clause, cues, value) if candidate else []
        for a, b in sorted(spans, reverse=True):
            clause = clause[:a] + " " * (b - a) + clause[b:]
        if spans and first is None:
            first = len(out)
        out.append(clause)
    if first is None or ANAPHORA.search(" ".join(f for _c, f, _k in clauses[first:])):
        return text
    return "\n".join(out)


@functools.lru_cache(maxsize=256)
def _clauses(text: str, drop: str, keep: str) -> tuple[tuple[str, str, bool], ...]:
    """The sentences of ``text``, each with its folded form and whether it holds a ``drop``
    phrase and no ``keep`` phrase (remembered: a check reads one reply once per value)."""
    out = []
    for clause in _SENTENCE_END.split(text):
        folded = normalise_text(clause)
        out.append((clause, folded, _holds(folded, drop) and not _holds(folded, keep)))
    return tuple(out)
