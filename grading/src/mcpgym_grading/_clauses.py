"""Clauses and cue words of a text, as the role readers cut and read them
(`mcpgym_grading._roles` for amounts, `mcpgym_grading._value_roles` for dates, accounts
and ids): one module both import, so neither imports the other."""

from __future__ import annotations

import re
from functools import lru_cache

_CLAUSE_END = re.compile(
    r"(?<!\bvs)(?:(?<!\d)[.]|[.](?!\d))|[!?;\n\r]+|(?=\s(?:but|while|whereas)\s)|,(?=\s+(?:and|so)\s)",
    re.IGNORECASE,
)


def clauses(text: str) -> list[str]:
    """``text`` cut into clauses (at a full stop that is no decimal point, `!`, `?`, `;`, a
    line break, before `but`/`while`/`whereas`, at a comma before `and`/`so`), empty ones
    dropped."""
    return [c for c in _CLAUSE_END.split(text) if c.strip()]


@lru_cache(maxsize=4096)
def _cue_pattern(cue: str) -> re.Pattern[str]:
    prefix = cue.endswith("*")
    words = cue.rstrip("*").split()
    body = r"\s+".join(re.escape(w) for w in words)
    tail = "" if prefix else r"(?![^\W_])"
    return re.compile(r"(?<![^\W_])" + body + tail)
