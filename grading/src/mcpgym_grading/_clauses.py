"""Clauses and cue words of a text, as the role readers cut and read them
(`mcpgym_grading._roles` for amounts, `mcpgym_grading._value_roles` for dates, accounts
and ids): one module both import, so neither imports the other."""

from __future__ import annotations

import functools
import re

_CLAUSE_END = re.compile(
    r"(?<!\bvs)(?:(?<!\d)[.]|[.](?!\d))|[!?;\n\r]+|(?=\s(?:but|while|whereas)\s)|,(?=\s+(?:and|so)\s)",
    re.IGNORECASE,
)


def clauses(text: str) -> list[str]:
    """``text`` cut into clauses (at a full stop that is no decimal point, `!`, `?`, `;`, a
    line break, before `but`/`while`/`whereas`, at a comma before `and`/`so`), empty ones
    dropped."""
    return [c for c in _CLAUSE_END.split(text) if c.strip()]


@functools.lru_cache(maxsize=4096)
def _cue_pattern(cue: str) -> re.Pattern[str]:
    """The pattern of one cue (``"refund"``, ``"charg*"``: a trailing ``*`` matches any
    ending) as a whole word or words, remembered per cue: the role readers ask for every
    cue of every role on each text (~60 a helpdesk grade, a handful distinct), and a
    compiled pattern is immutable."""
    prefix = cue.endswith("*")
    words = cue.rstrip("*").split()
    body = r"\s+".join(re.escape(w) for w in words)
    tail = "" if prefix else r"(?![^\W_])"
    return re.compile(r"(?<![^\W_])" + body + tail)


@functools.lru_cache(maxsize=4096)
def cue_literal(cue: str) -> str:
    """A word of ``cue`` that every match of `_cue_pattern` holds verbatim (its longest;
    ``""`` for a cue of no word): a text without it has no match, so the role readers do
    not run the pattern over it (most of a check's cues stand in none of its clauses)."""
    return max(cue.rstrip("*").split(), key=len, default="")
