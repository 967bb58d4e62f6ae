"""Which sentences of a text are about a record: the sentences naming it (by its id, in its
kinds' forms), with the claim of a verbless fragment carried from its neighbour.

`sentences_about` is what the decision reader (`mcpgym_grading._decision_check`) and the
settled-state reader (`mcpgym_grading._settled`) read of a text for one record; it lives apart
from the check's evaluation so that a reader registered as a grading SQL function
(`mcpgym_grading._values`) can use it without an import circle.
"""

from __future__ import annotations

import functools
import re

from mcpgym_grading._decision_ellipsis import elided
from mcpgym_grading._decision_lists import headed
from mcpgym_grading._decision_records import JOINED
from mcpgym_grading._text import fold

SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
"""Where a text's sentences break: after ``.``, ``!``, ``?`` before a space, and at line
breaks."""


_DETERMINERS = r"(?:\s+of)?(?:\s+(?:the|your|my|these|those|our|its|their))?"
_COLLECTIVE = re.compile(
    rf"\b(?:both|all|each|every|either|neither){_DETERMINERS}(?:\s+(?:two|\d+|recent|open))?"
    r"\s+(?:orders?|ones|of them|purchases|records)\b"
    r"|\b(?:the|your|my|these|those)\s+two\s+(?:\w+\s+)?orders\b"
    r"|\bboth\b(?=\s*(?:[.!?,;:]|$))"
    r"|\b(?:your|my|these|those)\s+(?!other\b)(?:\w+\s+)?orders\b"
    r"|\beverything\b|\ball of it\b"
)
"""Words naming every record at once ("both orders", "all of your orders", "the two
orders", "cancelled both.", "your orders", "everything"; not "your other orders"): a
sentence with them is about each record (round 11's R9: "I've cancelled your orders")."""
_ONE_OF = re.compile(r"\b(?:one|only one|either one|neither one|just one)\s+of\s*$")


def _collective(sentence: str) -> bool:
    folded = fold(sentence)
    return any(not _ONE_OF.search(folded[: m.start()]) for m in _COLLECTIVE.finditer(folded))


_NAME = (
    r"(?:(?:either|both|the|your|orders?|invoices?|bills?|no\.?|number|nr\.?)\W*)*"
    r"(?<![\w-])[\w#-]*\d[\w-]*(?![\w-])"
)
_PAIRED = re.compile(rf"^\W*{_NAME}\s*(?:(?:or|and|plus)\s+|[/&]\s*){_NAME}")
"""A record's name straight before the next record's, ``or``/``and``/``&``/``/`` between: the
first of a pair sharing the sentence's verb (``Order #7 or #8 has been refunded``, ``#7 and
#8 were cancelled``)."""
_PIECE_BREAK = re.compile(r"[,;(]\s*|\s[-\u2013\u2014]\s|\b(?:but|while|whereas|and)\s")


@functools.lru_cache(maxsize=1024)
def _others(value: str) -> re.Pattern[str]:
    """Other records of ``value``'s shape (digits for digits, letters for letters) after
    ``#`` or ``order``: ``#10452`` for ``10451``; a value that starts with letters (a
    document number, ``INV-2026-0151``) is its own mark: ``INV-2026-0149`` anywhere."""
    folded = fold(value)
    shape = "".join(
        r"\d+" if c.isdigit() else "[a-z]+" if c.isalpha() else re.escape(c)
        for c in re.sub(r"(\d)\d+|([a-z])[a-z]+", r"\1\2", folded)
    )
    if folded[:1].isalpha() and any(c.isdigit() for c in folded):
        return re.compile(rf"(?<![0-9a-z])({shape})(?![0-9a-z])")
    return re.compile(rf"(?:#\s?|\border\s+)({shape})(?![0-9a-z])")


_GROUP_SEP = r"[\s,.'\u2019_\u2009\u202f-]"
"""One character a writer puts between a number's digits (``100,107``, ``100 107``, ``1 0 0
1 0 7``, ``100.107``, ``100_107``)."""
_ID_CUE = r"(?:(?<=#)|(?<=# )|(?<=order )|(?<=no\. )|(?<=no )|(?<=number ))"
"""Where an id written in groups is read: right after ``#``, ``order``, ``no.``, ``number``
(``$100,107`` is an amount, ``1,001.07`` no id)."""


@functools.lru_cache(maxsize=1024)
def _token(value: str) -> re.Pattern[str]:
    """``value`` as a whole token of a folded text; a value of digits only also written
    after an id's cue (`_ID_CUE`) with one separator (`_GROUP_SEP`, the same throughout)
    between every two digits or between groups of three from the right (round 15's I15:
    ``Order #100,107 has been refunded`` names order 100107, not order 100). Remembered per
    value, like `_others` and `_joined_about` (a variant's records are read by every grade of
    it; `re`'s own cache of 512 patterns is cycled through by a campaign's many values and
    compiled again)."""
    folded = fold(value)
    body = re.escape(folded)
    if 3 < len(folded) <= 20 and folded.isascii() and folded.isdigit():
        each = f"{folded[0]}(?P<e>{_GROUP_SEP})" + "(?P=e)".join(folded[1:])
        head = len(folded) % 3 or 3
        groups = [folded[:head]] + [folded[i : i + 3] for i in range(head, len(folded), 3)]
        body += f"|{_ID_CUE}(?:{each}"
        if len(groups) > 1:
            body += f"|{groups[0]}(?P<g>{_GROUP_SEP})" + "(?P=g)".join(groups[1:])
        body += ")"
    return re.compile(rf"(?<![0-9a-z])(?:{body})(?![0-9a-z])")


@functools.lru_cache(maxsize=1024)
def _joined_about(record: str) -> re.Pattern[str]:
    """`JOINED` for ``record`` (a regex), ``item`` and ``your`` read as a record's cue too:
    what `sentences_about` matches a piece against (remembered per record)."""
    return re.compile(JOINED.replace("|order|", "|order|item|your|").format(record=record))


@functools.lru_cache(maxsize=1024)
def _joined_record(record: str) -> re.Pattern[str]:
    """`JOINED` for the literal ``record`` (`_about`; remembered per record)."""
    return re.compile(JOINED.format(record=re.escape(record)))


def _named(m: re.Match[str]) -> tuple[str, int, int]:
    """The record a match of an `_others`-style pattern names: its first group that matched,
    with that group's span."""
    i = next(i for i in range(1, len(m.groups()) + 1) if m.group(i) is not None)
    return m.group(i), m.start(i), m.end(i)


def sentences_about(
    text: str,
    value: str,
    *,
    carry: bool = True,
    others: re.Pattern[str] | None = None,
    prior: str = "",
) -> list[str]:
    """The sentences of ``text`` (cut after ``.``, ``!``, ``?`` before a space, and at line
    breaks) that name ``value`` as a whole token, read folded (`fold`). A sentence that also
    names another record of its shape (`_others`) gives only its piece about ``value``: cut
    at the last break (a comma, ``;``, ``but``, ``while``, ``and``) before the next record's
    name, or at that name (``I've cancelled order #7, but order #8 had shipped``).

    A sentence that names no record of the shape (nor every record at once, `_COLLECTIVE`)
    is about the record named last before it: ``Order #8 has shipped. I've cancelled the
    other one as well`` claims the cancellation of #8, as a reader takes it (round 10's A1:
    a claim about the other order in a sentence that does not name it). ``carry=False``: only
    the sentences naming ``value`` (`_decision_records`, where a write's reason is about its
    own record); ``others``: the names of other records to cut at (default `_others`; a
    pattern whose groups hold the record, the first that matched read). After a paragraph
    break (a blank line), a sentence naming no record is carried only where it refers back
    (`_REFERS`: ``it``, ``that one``, ``the other order``): ``I've refunded the damaged item
    in full`` closing a reply whose paragraph before declined order #8 is not about #8
    (round 17's FF17a)."""
    text = headed(text)  # a list's items with their heading (round 19's M19)
    token = _token(value)
    if others is None:
        others = _others(value)
    joined = _joined_about(token.pattern)
    out: list[str] = []
    last_mine = False  # whether the record named last so far is ``value``
    apart = False  # whether a paragraph break stands since the last sentence carried to
    items = _sentences(text)
    names_before: set[str] = set()  # the capitalised names of the last naming sentence
    for i, (s, new_paragraph) in enumerate(items):
        apart = apart or new_paragraph
        folded = fold(s)
        mine = [m.span() for m in token.finditer(folded)]
        names = sorted(
            [(a, True) for a, _ in mine]
            + [
                (m.start(), False)
                for m in others.finditer(folded)
                for name, a, b in [_named(m)]
                if name != fold(value) and not any(a < y and x < b for x, y in mine)
            ]
        )
        if not names:
            if carry and last_mine and s.strip() and not _collective(s):
                if apart and not (_REFERS.search(folded) or names_before & set(_NAMES.findall(s))):
                    continue  # a new paragraph that does not refer back (round 17's FF17a)
                apart = False
                prev = fold(items[i - 1][0] if i else prior)
                out.append(
                    elided(folded, "it", prior=prev) or elided(folded, "that", prior=prev) or s
                )
            continue
        last_mine, apart = names[-1][1], False
        names_before = set(_NAMES.findall(s))
        if not any(mine for _, mine in names):
            continue
        cuts = [0]
        for (p0, _), (p1, _) in zip(names, names[1:], strict=False):
            breaks = [m.start() for m in _PIECE_BREAK.finditer(folded, p0, p1)]
            cuts.append(breaks[-1] if breaks else p1)
        cuts.append(len(folded))
        prev = fold(items[i - 1][0] if i else prior)
        pieces = [
            _verbed(_ended(folded[cuts[k] : cuts[k + 1]]), folded, mine, cuts[k], f"{prev} ")
            for k, (_, m) in enumerate(names)
            if m
        ]
        whole = _verbed(s, folded, mine, 0, f"{prev} ")
        at = next(i for i, (_, m) in enumerate(names) if m)
        if len(mine) == 1 and at + 1 < len(names) and _PAIRED.match(folded[cuts[at] :]):
            pieces = [folded]  # ``Order #7 or #8 has been refunded`` (round 16's G16)
        elif len(names) > 1 and any(joined.match(piece) for piece in pieces):
            pieces = [folded]  # ``Refunded today: the tent and the stove`` (round 18's X18b)
        out.extend(pieces if len(names) > 1 else [whole])
        if len(names) == 1 and 0 < i < len(items) - 1 and _asked_again(folded, fold(value)):
            if _YES.match(fold(items[i + 1][0])):
                out.append(items[i - 1][0])  # ``Refunded #8. Order #7 too? Yes.`` (FF17a')
    return out


def _verbed(piece: str, folded: str, mine: list[tuple[int, int]], start: int, prev: str) -> str:
    """``piece`` (``folded[start:]``'s piece naming the record at a span of ``mine``), or, where
    its clause naming the record is elliptical, that clause with the verb it borrows
    (`_decision_ellipsis.elided`) from the text before it in ``folded``, else from ``prev`` (the
    sentence before), as in round 19's L19 (``Order #7 was refunded, and so was order #8``)."""
    name = next((folded[x:y] for x, y in mine if x >= start), None)
    if name is None:
        return piece
    return elided(fold(piece), name, prior=prev + folded[:start]) or piece


def _ended(piece: str) -> str:
    """A piece cut from a sentence before another record's name, ended with a full stop where
    it has none: the pieces are read joined, and a negation left open at a piece's end would
    reach the next one (``I can't refund the tent from order`` + ``I've refunded the tent``)."""
    return piece if re.search(r"[.!?]\s*$", piece) else piece.rstrip().rstrip(",;:(-") + "."


_YES = re.compile(
    r"^\W*(?:yes|yep|yeah|indeed|sure|of course|absolutely|certainly|correct|right|that one "
    r"(?:too|as well)|same (?:there|here))\b(?!\W*(?:but|however|although|though)\b)"
)
"""An answer that affirms the question before it (`_asked_again`)."""


def _asked_again(folded: str, record: str) -> bool:
    """Whether ``folded`` only asks whether the action before it was taken on ``record``
    too (``Order #7 too?``, ``And order #7?``, ``What about order #7?``): answered yes
    (`_YES`), it claims the action of the sentence before it of ``record`` (round 17:
    once a new paragraph no longer carried that sentence, ``I've refunded the item. Order
    #7 too? Yes, that one as well.`` read as no claim)."""
    if not folded.rstrip().endswith("?"):
        return False
    rest = folded.replace(record, " ")
    words = re.findall(r"[a-z]+", rest)
    return rest != folded and all(w in _FILLER or w in ("what", "how", "about") for w in words)


_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_REFERS = re.compile(
    r"\b(?:it|them|they|both|same|the (?:order|purchase)"
    r"|(?:the|that|this)\s+(?:\w+\s+)?ones?"
    r"|(?:the|that|this)\s+(?:\w+(?:er|est)|other|same|first|second|last|earlier|later|"
    r"remaining)\s+(?:order|purchase|item|invoice|bill)s?"
    r"|(?:that|this)\s+(?:order|purchase|item|invoice|bill))\b"
    r"|\b(?:that|this)\b(?=\s*(?:too|as well|also|[,.;:!?\"\u201d]|$))"
    r"|^\W*(?:that|this)(?:['\u2019]s|\s+(?:is|was|has|had))\s+(?:(?:now|also|already|too)\s+)*"
    r"(?:been|\w+ed)\b"
    # round 19's Q19: a bare affirmation refers to what came before it (``> Please refund
    # order #8`` ⏎⏎ ``Done, as requested.``)
    r"|^\W*(?:(?:yes|ok(?:ay)?)\W+)?(?:all\s+)?(?:done|completed|sorted|taken care of)\b"
)
"""Words of a sentence that refer back to a record named before (``it``, ``that one``,
``the larger one``, ``the other order``, ``That's been refunded``, ``refund that too``;
not ``That's $69.00 back on your card``, where ``that`` is the amount): after a paragraph
break only such a sentence, or one that repeats a name of the record's sentence
(`_NAMES`: ``the Trailhead 4 Dome Tent``), is carried to the record named last
(`sentences_about`). ``the damaged item`` does not refer back."""
_NAMES = re.compile(r"(?<=[\w,;:] )[A-Z][A-Za-z]{2,}")
"""A capitalised word not at a sentence's start (a product's or a person's name)."""


def _sentences(text: str) -> list[tuple[str, bool]]:
    """``text``'s sentences (`SENTENCE`), each with whether a paragraph break (a blank
    line) stands before it."""
    out: list[tuple[str, bool]] = []
    for i, paragraph in enumerate(_PARAGRAPH.split(text)):
        out.extend((s, i > 0 and k == 0) for k, s in enumerate(SENTENCE.split(paragraph)))
    return out


def sentences_about_all(text: str, value: str) -> list[str]:
    """The sentences of ``text`` that do not name ``value`` but name every record at once
    (`_COLLECTIVE`: "I've cancelled both orders", "all of your orders", "cancelled both.";
    not "one of the two orders"): a claim there is a claim about each record, a denial is
    not a denial of each ("I couldn't cancel both orders")."""
    token = _token(value)
    return [s for s in SENTENCE.split(headed(text)) if not token.search(fold(s)) and _collective(s)]


def _about(text: str, record: str, kinds: re.Pattern[str] | None) -> list[str]:
    """The pieces of ``text``'s sentences naming ``record`` (no carry-over); a piece that is
    only ``and`` and the record (`_decision_records.JOINED`) shares the verb of the one
    before it (``Refunded order #7 and order #8 in full``: the whole sentence is read for
    #8; ``and declined #8`` has a verb of its own)."""
    joined = _joined_record(record)
    out: list[str] = []
    sentences = SENTENCE.split(headed(text))
    for i, sentence in enumerate(sentences):
        after = sentences[i + 1] if i + 1 < len(sentences) else ""
        # a question's answer goes with it (round 18's FF18b: ``Was INV-… written off? Not
        # yet.``, ``… ? Yes.``), where it names no record
        answer = (
            f" {after}"
            if after
            and sentence.rstrip().endswith("?")
            and not (kinds and kinds.search(fold(after)))
            else ""
        )
        prior = sentences[i - 1] if i else ""
        for piece in sentences_about(sentence, record, carry=False, others=kinds, prior=prior):
            shared = piece is not sentence and joined.match(fold(piece))
            out.append((fold(sentence) if shared else piece) + answer)
        if not _fragment(sentence, record):
            continue
        if after and not (kinds and kinds.search(fold(after))):
            out.append(after)
        if i and _ADDED.search(fold(sentence)):
            out.append(sentences[i - 1])  # ``Refunded order #8 in full. Order #7 too.``
    return out


_ADDED = re.compile(r"\b(?:too|also|as well|likewise|same|ditto|and|plus)\b")


_FILLER = frozenset(
    "and also plus same likewise ditto as well for with the too again order orders invoice "
    "bill no number nr inv your other second first of on here".split()
)
"""The words a sentence naming a record may hold and still have no verb of its own (`_fragment`)."""


def _fragment(sentence: str, record: str) -> bool:
    """Whether ``sentence`` only names ``record`` (with `_FILLER` words: ``Order #7 too.``,
    ``Same for INV-2026-0152.``): it has no verb of its own, so it takes the next sentence's
    where that names no record (round 15's L-a14a: ``Order #7 too. Refunded in full.``), or,
    with a word of addition (`_ADDED`), the one before (``Refunded #8. Order #7 too.``)."""
    folded = fold(sentence)
    if folded.rstrip().endswith("?"):
        return False  # ``Order #7 too? No, …``: asked, not said
    rest = folded.replace(record, " ")
    return rest != folded and all(w in _FILLER for w in re.findall(r"[a-z]+", rest))
