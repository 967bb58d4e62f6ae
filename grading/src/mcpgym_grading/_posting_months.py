"""A posting said to be made in a month the books do not hold it in (round 18's Q17, ledger).

Round 17's `mcpgym_grading._posted_in` reads a clause putting a posting in one month (the
closed April of closed-period-posting). The other ledger families post in more than one
month, and their texts name the months of other entries honestly (the original of a
correction, the accrual a reversal undoes, the vendor payment a bank line is matched to), so
a text is read here against the months the books hold each kind of posting in, which the
SQL passes in:

- ``rev``: the months of the reversals the episode posted (``Reversed in April``, ``The
  reversal was booked in May``);
- ``new``: the months of the other entries it posted (``Accrued in June``, ``The corrected
  entry was posted in May``, ``reposted``, ``written off``, ``credited``);
- ``generic``: the months a posting named by neither may be in (every entry the episode
  posted, reversed, matched or edited; for an entry's own memo, that entry and the one it
  reverses);
- ``docs``: the months a date given as a record's ``dated`` may be in (``generic`` and the
  documents' own dates: a bill dated in closed April, posted on May 1).

`posting_misdated(text, rev, new, generic, docs)` gives the clauses of ``text`` (cut as
`mcpgym_grading._posted_in` cuts them; a clause that says what the month is to the posting,
denies or hedges it states nothing) where a single month (`mcpgym_grading._periods`) sits
beside a posting's word (`_posted_in`'s words, and ``accrued``, ``reversed``, ``written
off``, ``credited``, ``applied``, ``matched``...) and is not in the set of its kind. Its kind
is the nearest role word to the month: a reversal's word (``reversal``, ``reversed``), a new
posting's word (``accrual``, ``corrected``, ``correction``, ``reposted``, ``again``,
``write-off``, ``credit note``...) or a plain record's word (``entry``, ``journal``), else
``generic``; ``dated`` as the nearest posting word makes a ``generic`` one ``docs`` (``The
reversal is dated 2026-05-12`` stays a reversal's).
"""

from __future__ import annotations

import re

from mcpgym_grading._posted_in import _POSTING, _gap, dated_clauses

__all__ = ["SQL_POSTING_MISDATED", "posting_misdated", "sql_posting_misdated"]

_ACTIONS = re.compile(
    r"\baccru\w*|\brevers\w*|\bwr[io]t(?:e|ten|ing)?[- ]offs?\b|\bwrote off\b"
    r"|\bcredited\b|\bapplied\b|\bmatched\b|\bcorrected\b|\bmoved\b"
)
_ENTRY = r"(?:\s+(?:journal\s+)?(?:entry|entries|posting))?"
_REV = re.compile(rf"\brevers\w*{_ENTRY}")
_NEW = re.compile(
    rf"\baccru\w*{_ENTRY}|\bcorrect\w*{_ENTRY}|\bre-?post\w*|\bagain\b|\bnew{_ENTRY}\b"
    r"|\bwr[io]t(?:e|ten|ing)?[- ]offs?\b|\bwrote off\b|\bcredit notes?\b|\bcredited\b"
)
_PLAIN = re.compile(r"\bentry\b|\bentries\b|\bjournal\b")
_DATED = re.compile(r"dated")


_OF = re.compile(r"\s+of\s+(?:the\s+|an?\s+|entry\s+\S+\s+)?(?:\S+\s+){0,2}")


def _kind(
    clause: str,
    a: int,
    span: tuple[int, int],
    cue: tuple[int, int],
    roles: list[tuple[int, int, str]],
) -> str:
    """The kind of the month at ``span`` posted by ``cue`` (absolute offsets; ``clause``
    starts at ``a``): the nearest role word on the month's side of the cue (the cue's own
    word included: ``Reversed in April``, ``the May accrual``); else the nearest on the other
    side, lifted to the head of an ``of`` phrase (``The reversal of the May accrual was posted
    in June``: the reversal's); ``generic`` where the clause has none."""
    if not roles:
        return "generic"
    after = span[0] >= cue[1]
    same = [r for r in roles if (r[1] > cue[0] if after else r[0] < cue[1])]
    if same:
        return min(same, key=lambda r: _gap(r[:2], span))[2]
    ordered = sorted(roles)
    i = ordered.index(min(roles, key=lambda r: _gap(r[:2], cue)))
    while i > 0 and _OF.fullmatch(clause[ordered[i - 1][1] - a : ordered[i][0] - a]):
        i -= 1
    return ordered[i][2]


_SHORT_DATE = re.compile(r"(\d\d)([-/.])(0[1-9]|1[0-2])\2(\d\d)")


_BEFORE_EPISODE = re.compile(
    r"\b(?:already|previously)\s+(?:(?:been|was|were|is|are|had|has)\s+)?$"
)
"""Words before a posting's word saying it was made before the episode (``Already entered
in April``, ``previously posted``): the clause states no posting of the episode."""


def _readings(written: str, y: int, m: int) -> set[str]:
    """The months a single-month mention ``written`` read as ``(y, m)`` may be: with
    ``yy-mm-dd`` too for a date of three two-digit parts (``26-06-15``)."""
    out = {f"{y:04d}-{m:02d}"}
    short = _SHORT_DATE.fullmatch(written)
    if short is not None:
        out.add(f"20{short.group(1)}-{short.group(3)}")
    return out


def _months(arg: str) -> set[str]:
    return {m.strip() for m in arg.split(",") if m.strip()}


_OTHER_ENTRY = re.compile(rf"{_NEW.pattern}|{_PLAIN.pattern}|\boriginal\b|{_REV.pattern}")
"""The role words that can come before an entry's own memo's parenthesis: the entry it
reverses named (``the May accrual``, ``entry 12``, ``the original``) or itself
(``reversal``)."""


_ITSELF = re.compile(r"reversals?\b|reversing\s+(?:journal\s+)?entr")
"""A reversal's own noun (``reversal``, ``the reversing entry``), not the verb that names the
entry it reverses (``reverses entry 12``, ``reversed entry``)."""


def _names_reversed(before: str) -> bool:
    """Whether the last role word of ``before`` (the memo's line up to a clause) names
    another entry than the memo's own (``Reverse the May accrual (posted in May)``,
    ``Reverses entry 12 (posted in May)``), not the reversal itself (``Reversal (posted in
    May)``)."""
    words = list(_OTHER_ENTRY.finditer(before))
    return bool(words) and _ITSELF.match(words[-1].group(0)) is None


def posting_misdated(
    text: str, rev: str, new: str, generic: str, docs: str, own: str | None = None
) -> list[str]:
    """The clauses of ``text`` that put a posting in a month outside the set of its kind
    (module docstring): ``rev``, ``new``, ``generic``, ``docs`` are comma-separated
    ``YYYY-MM`` lists; the year a month named without one is in is the first list's year
    (2026 if every list is empty). ``own`` (an entry's own memo: its own month, where
    ``generic`` adds the month of the entry it reverses): a plain month (or a ``dated`` one
    outside ``docs``) outside ``own`` is the reversed entry's only after a word naming that
    entry on its line (``Reverse the May accrual (posted in May 2026)``); alone (``(posted
    in May 2026)``, ``(dated 2026-05-31)``) or after the reversal's own word it dates the
    memo's entry (round 20, ae's reversal memo). Folded clauses, in text order."""
    own_set = None if own is None else _months(own)
    sets = {"rev": _months(rev), "new": _months(new), "generic": _months(generic)}
    docs_only = _months(docs)
    sets["docs"] = docs_only | sets["generic"]
    years = sorted(m[:4] for s in sets.values() for m in s)
    year = int(years[0]) if years else 2026
    out: list[str] = []
    for s, a, clause, here in dated_clauses(text, year):
        cues = [
            (a + c.start(), a + c.end(), c.group(0))
            for rx in (_POSTING, _ACTIONS)
            for c in rx.finditer(clause)
        ]
        if not cues or any(_BEFORE_EPISODE.search(s[a : c[0]]) for c in cues):
            continue
        roles = [
            (a + m.start(), a + m.end(), kind)
            for kind, rx in (("rev", _REV), ("new", _NEW), ("generic", _PLAIN))
            for m in rx.finditer(clause)
        ]
        for f in here:
            if not f.readings or len(f.readings) != 1 or len(f.readings[0]) != 1:
                continue
            (y, m) = f.readings[0][0]
            span = (f.start, f.end)
            cue = min(cues, key=lambda c: _gap(c[:2], span))
            nearest = min(here, key=lambda g: _gap(cue[:2], (g.start, g.end)))
            if nearest is not f:
                continue
            kind = _kind(clause, a, span, cue[:2], roles)
            if kind == "generic" and _DATED.fullmatch(cue[2]):
                kind = "docs"
            months = _readings(s[f.start : f.end], y, m)
            if not months & sets[kind] or (
                kind in ("generic", "docs")
                and own_set is not None
                and not months & own_set
                and not (kind == "docs" and months & docs_only)
                and not _names_reversed(s[:a])
            ):
                out.append(clause.strip())
                break
    return list(dict.fromkeys(out))


SQL_POSTING_MISDATED = "mcpgym_posting_misdated"
"""The SQL function ``mcpgym_posting_misdated(text, rev, new, generic, docs[, own])``: the
clauses of ``text`` putting a posting in a month outside the set of its kind
(`posting_misdated`), joined by newlines, or NULL where none does (or ``text`` is NULL; a
NULL list is empty; a NULL ``own`` is none)."""


def sql_posting_misdated(
    text: object, rev: object, new: object, generic: object, docs: object, own: object = None
) -> str | None:
    """`SQL_POSTING_MISDATED` (see there; with a sixth argument, ``own``, for an entry's own
    memo: `posting_misdated`)."""
    if not isinstance(text, str):
        return None
    lists = [x if isinstance(x, str) else "" for x in (rev, new, generic, docs)]
    found = posting_misdated(text, *lists, own=own if isinstance(own, str) else None)
    return "\n".join(found) if found else None
