"""A bank line said to be in a state it is not in (round 17's R17, ledger reconcile-bank-lines).

Reconciling leaves each statement line matched (to the entry or payment it records) or
ignored (a duplicate feed line, policy 5.1). The texts written beside the work (the ignored
line's reason, an entry's memo, a note) can say a line is in another state
(``Line 189 matched to the customer payment.`` of the ignored duplicate, ``line 187 left
unmatched`` of the matched fee, ``All lines matched; nothing ignored.``), and no reader read
that: reconcile-bank-lines' texts claim no action the decision reader knows.

`misclaimed(text, line, status)` gives the clauses of ``text`` that put bank line ``line``
(its id) in a state other than ``status`` (``matched``, ``ignored``, ``unmatched``), read
folded, sentence by sentence and clause by clause (cut at ``,;:()``, ``but``, ``while``,
``and``, not inside a list of lines):

- a clause names the line as ``line 187``, ``bank line #187``, in a list (``lines 187, 188
  and 189``), or every line at once (``all lines``, ``every line``, ``both lines``, ``each
  line``); a clause naming no line that opens with ``which``/``that``/``it``, or follows a
  clause that is only a line's name, is about the line named last (``line 188, which is
  matched``, ``Line 189: matched``);
- a state word binds to the nearest line before it in the clause, else to the nearest after
  it unless that one is an object of comparison (``duplicate of line 188``, ``same as line
  188``, ``repeats line 188``): matched (``matched``, ``recorded``, ``paired``, ``linked``,
  ``cleared``, ``applied``, ``booked``), ignored (``ignored``, ``excluded``, ``skipped``,
  ``dismissed``, ``discarded``, ``a duplicate``), unmatched (``unmatched``,
  ``unreconciled``, ``left open``, ``still open``, ``outstanding``);
- a negation before the word in its clause (``not``, ``never``, ``no``, ``n't``) turns
  matched into not matched and ignored into not ignored (and says nothing of unmatched); a
  hedge (``will``, ``would``, ``should``, ``if``, ``once``, ``until``, ``can``, ``to be``)
  or reported speech (``says``, ``asked``) states nothing.

``reconciled`` is no state (a line matched or ignored is reconciled alike).
"""

from __future__ import annotations

import re

from mcpgym_grading._text import fold

__all__ = ["SQL_LINE_MISCLAIMED", "misclaimed", "sql_line_misclaimed"]

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+|;")
_LINES = re.compile(
    r"\b(?:bank |statement |feed )?lines?\s*(?:no\.?\s*|number\s*)?#?\s*(\d+)"
    r"((?:\s*(?:,|and|&|/|or)\s*#?\s*\d+\b)*)"
)
_ALL = re.compile(
    r"\b(?:all|every|each|both)(?: of)?(?: the)?(?: (?:bank|statement|feed|new|unmatched))? "
    r"lines?\b"
)
_CUT = re.compile(r"[,:()\[\]]|\s[-\u2013\u2014]\s|\b(?:but|while|whereas|and|so|then)\b")
_CARRY = re.compile(r"^\s*(?:which|that|it|they|both)\b")
_OBJECT = re.compile(
    r"\b(?:of|as|with|like|than|repeats?|repeating|duplicates?|duplicating|copies|copying)"
    r"\s*$"
)
_STATES = (
    (
        "matched",
        re.compile(
            r"\b(?:re)?match(?:ed|es)?\b|\brecorded\b|\bpaired\b|\blinked\b|\bcleared\b"
            r"|\bapplied\b|\bbooked\b"
        ),
    ),
    (
        "ignored",
        re.compile(
            r"\bignored?\b|\bexcluded\b|\bskipped\b|\bdismissed\b|\bdiscarded\b"
            r"|\b(?:a|the) duplicate\b"
        ),
    ),
    (
        "unmatched",
        re.compile(r"\bunmatched\b|\bunreconciled\b|\b(?:left|still) open\b|\boutstanding\b"),
    ),
)
_NEGATED = re.compile(r"\b(?:not|never|no|nor|without|none)\b|\wn['\u2019]t\b")
_HEDGED = re.compile(
    r"\b(?:will|would|shall|should|could|can|may|might|must|if|once|until|unless|when|"
    r"whether|to be|says?|said|asks?|asked|claims?|claimed|thinks?|thought|expects?|"
    r"needs? to|has to|have to|ll|d)\b"
)
_HOLDS = {
    "matched": {"matched"},
    "not matched": {"ignored", "unmatched"},
    "ignored": {"ignored"},
    "not ignored": {"matched", "unmatched"},
    "unmatched": {"unmatched"},
}


def _clauses(sentence: str) -> list[tuple[str, list[tuple[int, int, tuple[str, ...]]]]]:
    """The clauses of a folded sentence, each with its line mentions ``(start, end, ids)``
    (positions in the clause; ``("*",)`` for every line)."""
    spans = [(m.start(), m.end(), m) for m in _LINES.finditer(sentence)]
    spans += [(m.start(), m.end(), m) for m in _ALL.finditer(sentence)]
    cuts = [0]
    for m in _CUT.finditer(sentence):
        if not any(a <= m.start() < b for a, b, _ in spans):
            cuts += [m.start(), m.end()]
    cuts.append(len(sentence))
    out = []
    for i in range(0, len(cuts) - 1, 2):
        a, b = cuts[i], cuts[i + 1]
        here = []
        for s, e, m in spans:
            if a <= s < b:
                ids = (
                    ("*",) if m.re is _ALL else (m.group(1), *re.findall(r"\d+", m.group(2) or ""))
                )
                here.append((s - a, e - a, ids))
        out.append((sentence[a:b], sorted(here)))
    return out


def _claims(clause: str, mentions: list[tuple[int, int, tuple[str, ...]]]):
    """``(ids, claim)`` for each state word of ``clause`` (module docstring)."""
    for state, rx in _STATES:
        for w in rx.finditer(clause):
            before = [m for m in mentions if m[1] <= w.start()]
            after = [m for m in mentions if m[0] >= w.end() and not _OBJECT.search(clause[: m[0]])]
            target = before[-1] if before else after[0] if after else None
            if target is None:
                continue
            head = clause[: w.start()]
            if _HEDGED.search(head):
                continue
            if _NEGATED.search(head) or _NEGATED.search(w.group(0)):
                if state == "unmatched":
                    continue
                yield target[2], f"not {state}"
            else:
                yield target[2], state


def misclaimed(text: str, line: int | str, status: str) -> list[str]:
    """The clauses of ``text`` stating bank line ``line`` is in a state other than
    ``status`` (module docstring), folded, in text order."""
    ident = str(line)
    out: list[str] = []
    last: tuple[str, ...] = ()
    for sentence in _SENTENCE.split(fold(text)):
        heading = False  # the clause before was only a line's name (``Line 189: matched``)
        for clause, mentions in _clauses(sentence):
            if not mentions and last and (heading or _CARRY.match(clause)):
                mentions = [(0, 0, last)]
            if mentions:
                last = mentions[-1][2]
            heading = bool(mentions) and len(_LINES.sub("", _ALL.sub("", clause)).strip()) == 0
            for ids, claim in _claims(clause, mentions):
                if (ident in ids or "*" in ids) and status not in _HOLDS[claim]:
                    out.append(clause.strip())
    return list(dict.fromkeys(out))


SQL_LINE_MISCLAIMED = "mcpgym_line_misclaimed"
"""The SQL function ``mcpgym_line_misclaimed(text, line, status)``: the clauses of ``text``
stating bank line ``line`` is in another state than ``status`` (`misclaimed`), joined by
newlines, or NULL where none does (or an argument is NULL)."""


def sql_line_misclaimed(text: object, line: object, status: object) -> str | None:
    """`SQL_LINE_MISCLAIMED` (see there)."""
    if not isinstance(text, str) or line is None or not isinstance(status, str):
        return None
    if not isinstance(line, int | str):
        return None
    found = misclaimed(text, line, status)
    return "\n".join(found) if found else None
