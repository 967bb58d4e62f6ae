"""Verb ellipsis: a clause that names a record with only an auxiliary for its verb takes the
verb of the clause before it (round 19's L19: ``Order #7 was refunded, and so was order
#8.``, ``This invoice was not credited; INV-2026-0152 was.``, ``Order #8 wasn't refunded at
first. Now it is.``).

`elided` gives the clause as a reader reads it whole (``order #8 was refunded.``, ``inv-2026-
0152 was not credited.``), or ``None`` where the clause has a verb of its own or no clause
before it has a participle to lend. `_decision_sentences.sentences_about` reads that clause in
place of the record's piece or sentence.
"""

from __future__ import annotations

import functools
import re

_AUX = frozenset("was were is are has have had".split())
_NEG = frozenset("not never neither nor wasn weren isn aren hasn haven hadn".split())
_ELIDED = (
    _AUX
    | _NEG
    | frozenset(
        (
            "been t so as and but while whereas though however too also well either now then "
            "already yet it one the order invoice bill no number of for in end finally"
        ).split()
    )
)
"""The words an elliptical clause holds besides the record (``and so was``, ``; … was not``,
``as well``, ``wasn't either``, ``Now it is``, ``in the end it was``); not ``that``/``this``
(``That is it.``)."""

_BREAK = re.compile(r"[;,:(]\s*|\s[-\u2013\u2014]\s|\b(?:but|while|whereas|and)\s")
"""Where the record's clause starts within its sentence (the last break before the record)."""

_PARTICIPLE = re.compile(
    r"\b(?P<aux>was|were|is|are|has|have|had|be|been)(?:n['\u2019]t)?\s+(?:(?:not|never)\s+)?"
    r"(?P<group>(?:(?:been|also|already|now|just|fully|since|successfully|finally)\s+)*"
    r"(?!been\b)[a-z]+(?:ed|en|wn|id|nt|lt|ne|ut)\b"
    r"(?:\s+(?:off|back|out|through|up|down|in full|in part|fully))?)"
)
"""An auxiliary with the participle it governs (``was not credited``, ``has been refunded``,
``could be cancelled``, ``was written off``): the verb an elliptical clause borrows."""


def _clause(folded: str, at: int) -> tuple[str, str]:
    """(the text before the clause holding position ``at``, that clause to its end)."""
    starts = [m.end() for m in _BREAK.finditer(folded, 0, at)]
    start = starts[-1] if starts else 0
    # ``, and so was #8``: the break's own word stays with the clause it opens
    lead = re.search(r"(?:\b(?:and|but|while|whereas)\s+)?$", folded[:start])
    start = lead.start() if lead and lead.group() else start
    return folded[:start], folded[start:]


_NAMED = re.compile(r"#?\s?[0-9a-z][0-9a-z-]*\d[0-9a-z-]*")
"""A record's name in a clause (``#100352``, ``inv-2026-0152``, ``trai-9197``)."""
_UNNEGATED = {"wasn": "was", "weren": "were", "isn": "is", "aren": "are", "hasn": "has"}
_UNNEGATED |= {"haven": "have", "hadn": "had"}


def _spell(clause: str, subject: str, before: str) -> str | None:
    """``clause`` (a record's or a pronoun's, ``subject`` taken out of it) with the verb it
    leaves out, the last participle in ``before``; ``None`` where it has a word of its own."""
    words = re.findall(r"[^\W_]+", clause)
    aux = [_UNNEGATED.get(w, w) for w in words if w in _AUX or w in _UNNEGATED]
    if not aux or not all(w in _ELIDED for w in words):
        return None
    lent = list(_PARTICIPLE.finditer(before))
    if not lent:
        return None
    group, verb = lent[-1].group("group"), aux[-1]
    if verb in {"has", "have", "had"} and not group.startswith("been "):
        if lent[-1].group("aux") in {"was", "were", "is", "are", "be", "been"}:
            group = f"been {group}"
    elif verb not in {"has", "have", "had"} and group.startswith("been "):
        group = group[len("been ") :]
    negated = any(w in _NEG for w in words)
    return f"{subject} {verb}{' not' if negated else ''} {group}."


@functools.lru_cache(maxsize=1024)
def _named(record: str) -> re.Pattern[str]:
    """``record`` named as a whole word (no letter or digit either side): kept per record,
    as `re`'s own cache of 512 is cycled through over a campaign's records."""
    return re.compile(rf"(?<![0-9a-z]){re.escape(record)}(?![0-9a-z])")


def elided(folded: str, record: str, *, prior: str = "") -> str | None:
    """The elliptical clause of ``folded`` (a folded sentence or piece) naming ``record``
    (a folded name in it, or a pronoun ``it``/``that`` where ``folded`` names none), with
    the verb it leaves out: ``"{record} {aux}[ not] {participle}."``; ``None`` where the
    clause has a word of its own (a verb, an amount: ``order #8 is $349.00``). The verb is
    the last auxiliary's participle before the clause in ``folded``, else in ``prior`` (the
    sentence before, folded)."""
    if record not in folded:  # the pattern matches the record verbatim
        return None
    found = _named(record).search(folded)
    if found is None:
        return None
    before, clause = _clause(folded, found.start())
    rest = clause.replace(record, " ", 1)
    lender = before if _PARTICIPLE.search(before) else prior
    return _spell(rest, record, lender)


_ENDS_AUX = re.compile(
    r"\b(?:was|were|is|are|has|have|had)(?:n['\u2019]t|\s+not|\s+been)?"
    r"(?:\s+(?:too|as well|either|also|now|already|yet))*\s*(?:[.!;,)]|$)",
    re.MULTILINE,
)
"""An auxiliary ending its clause: where an elliptical clause may stand (a quick test)."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


_BY_NOW = re.compile(
    r"\bshould\s+(?:already\s+)?(?:have\s+)?(?:already\s+)?(?:been|be)\s+"
    r"(?=(?:\w+\s+)?\w+(?:ed|en|id|nt|ne)\b(?:\s+[\w$.]+){0,4}?\s+(?:by now|already)\b)"
    r"(?![^.!?\n]*(?:\bbut\b|\bnot\b|n['\u2019]t\b))"
)
"""A modal perfect of expectation met (round 19's H19: ``Order #7 should have been refunded
by now``, ``Bill X should be posted by now``): read as ``has been`` (`spelled_out`); without
``by now``/``already``, or with ``but``/``not`` after it in its sentence, it stays a modal
(``should have been refunded by now, but it hasn't been``)."""


_DID_ELIDED = re.compile(
    r"\b(?:i|we)\s+(?:(?:eventually|finally|actually|then|still)\s+)?did"
    r"(?=(?:\s+(?:in the end|eventually|after all|anyway|in fact|later on|later|too|as well))?"
    r"\s*(?:[.!]|$))",
    re.MULTILINE,
)
"""A ``do``-ellipsis ending its clause (round 19's L19b: ``I couldn't refund order #8 at first,
but in the end I did.``): read with the verb phrase it leaves out (`_DID_LENDER`)."""
_DID_LENDER = re.compile(
    r"\b(?:could|can|ca|would|did|do|does|was|were)(?:n['\u2019]?t|\s+not)\s+"
    r"(?:(?:be\s+)?able\s+to\s+)?(?P<vp>[a-z][^,;.!?\n]*)"
)
"""A negated modal or ``do`` with the verb phrase after it (``couldn't refund order #8 at
first``): the phrase a later ``I did`` borrows, within `_DID_REACH` characters."""
_DID_REACH = 200
_DID_GAP = 6
"""At most this many words (no question) between the lent phrase and ``I did`` (``, but in
the end``): a question between (``Did I escalate it? I did.``) answers itself."""


def _did_spelled(reading: str) -> str:
    """``reading`` with each clause-ending ``I did`` given the verb phrase of the last negated
    modal or ``do`` before it (`_DID_ELIDED`, `_DID_LENDER`): ``… but in the end i did
    refund order #8 at first.``; ``reading`` itself where there is none."""
    out, last = [], 0
    for m in _DID_ELIDED.finditer(reading):
        lent = list(_DID_LENDER.finditer(reading, max(0, m.start() - _DID_REACH), m.start()))
        between = reading[lent[-1].end() : m.start()] if lent else "?"
        if "?" not in between and len(between.split()) <= _DID_GAP:
            out += [reading[last : m.end()], " ", lent[-1]["vp"].strip()]
            last = m.end()
    return "".join(out) + reading[last:] if out else reading


def spelled_out(reading: str) -> str | None:
    """``reading`` (a folded text) with each elliptical clause spelled out (`elided`'s
    reading, its subject a record's name or a pronoun: ``order #8 wasn't refunded at first.
    now it is.`` -> ``… it is refunded.``), and each expectation met said as done
    (`_BY_NOW`), for the action-level reading (`_decisions.decisions`); ``None`` where it has
    none."""
    if _BY_NOW.search(reading):
        reading = _BY_NOW.sub("has been ", reading)
        return spelled_out(reading) or reading
    if " did" in reading:
        did = _did_spelled(reading)
        if did != reading:
            return spelled_out(did) or did
    if not _ENDS_AUX.search(reading):
        return None
    out: list[str] = []
    changed = False
    prev = ""
    for sentence in _SENTENCE.split(reading):
        starts = sorted(
            {0, *(_clause(sentence, m.end())[0].__len__() for m in _BREAK.finditer(sentence))}
        )
        pieces = [sentence[a:b] for a, b in zip(starts, [*starts[1:], len(sentence)], strict=False)]
        for k, piece in enumerate(pieces):
            name = _NAMED.search(piece)
            subject = name.group().strip() if name else "it"
            rest = piece.replace(name.group(), " ", 1) if name else piece
            before = "".join(pieces[:k])
            said = _spell(rest, subject, before if _PARTICIPLE.search(before) else prev)
            if said is not None:
                pieces[k], changed = said + " ", True
        out.append("".join(pieces))
        prev = sentence
    return "\n".join(out) if changed else None
