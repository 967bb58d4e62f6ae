"""Evaluation of `MentionMatch`: the text names the expected item and no other.

Reads the check's text (`mcpgym_grading._checks`' sources), every mention of the reader's
vocabulary in it (`mcpgym_grading._periods`, `mcpgym_grading._terms`), and the most
common forms of the other items through `TextView` (look-alikes).
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading._checks import (
    MAX_FOUND_ROWS,
    CheckContext,
    Outcome,
    _sql_texts,
    _truncate_text,
)
from mcpgym_grading._mentions import Mention
from mcpgym_grading._periods import PeriodReader, period_item
from mcpgym_grading._terms import Lexicon
from mcpgym_grading._text import TextView
from mcpgym_grading._values import resolve
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import MentionMatch


def _items(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    values = value if isinstance(value, list | tuple) else [value]
    out: list[str] = []
    for v in values:
        if isinstance(v, list | tuple):
            out += _items(v, what)
        elif isinstance(v, str):
            out.append(v)
        else:
            raise CheckEvaluationError(f"{what} must be items (texts), got {v!r}")
    return out


def _holds(m: Mention, item: str, ranged: frozenset[str], check: MentionMatch) -> bool:
    """Whether ``m`` is a range, not hedged, that holds ``item`` and only `range_allowed`
    items."""
    if check.range_allowed is None or m.exact or m.hedged:
        return False
    return any(len(r) > 1 and item in r and r <= ranged for r in m.readings)


def eval_mention_match(check: MentionMatch, ctx: CheckContext) -> Outcome:
    """See `MentionMatch` (a submitted answer the log capped never passes)."""
    expected = _items(resolve(check.expected, ctx.params), "`expected`")
    if len(expected) != 1:
        raise CheckEvaluationError(f"`expected` must resolve to one item, got {expected!r}")
    item = expected[0]
    ok = frozenset({item, *_items(resolve(check.allowed, ctx.params), "`allowed`")})
    ranged = ok | frozenset(_items(resolve(check.range_allowed, ctx.params), "`range_allowed`"))
    reader = check.reader
    if isinstance(reader, PeriodReader):
        try:
            year = period_item(item)[0]
            for v in ranged:
                period_item(v)
        except ValueError as exc:
            raise CheckEvaluationError(str(exc)) from None
    else:
        unknown = sorted(i for i in ranged if i not in reader.items)
        if unknown:
            raise CheckEvaluationError(f"{unknown} are no items of the lexicon")
    if check.source == "submitted":
        capped = ctx.bundle.meta.answer_capped
        if capped is not None:
            reason = (
                f"the submitted answer ({capped.bytes} bytes) was over the server's log value "
                "cap; only its head was kept, so it can neither match nor be cleared"
            )
            return Outcome(False, {"expected": item, "found": None, "reason": reason})
        parts = [ctx.bundle.meta.answer or ""]
    else:
        if not check.sql:
            raise CheckEvaluationError("source `sql` needs `sql`")
        parts = _sql_texts(ctx, check.sql)
    text = "\n".join(parts)
    cleared: list[str] | None = None
    if isinstance(reader, PeriodReader):
        mentions, cleared = reader.read(text, year=year)
    else:
        mentions = reader.mentions(text)
    named = [m.text for m in mentions if m.names(item)]
    # look-alikes of the other items' most common forms, read as every value check reads
    # (in the text as read, when the reader left some mentions out: not those either;
    # a lexicon's governed ranks left out: "team lead" in "billing team lead" is billing's)
    if isinstance(reader, Lexicon):
        cleared = reader.lookup_texts(text)
    looked_up = cleared if cleared is not None else parts
    further = _sql_texts(ctx, check.others_sql) if check.others_sql else []
    for t in further:  # read each alone (no clause runs into the next), never for `expected`
        if isinstance(reader, PeriodReader):
            found, blanked = reader.read(t, year=year)
        else:
            found, blanked = reader.mentions(t), reader.lookup_texts(t)
        mentions = [*mentions, *found]
        looked_up = [*looked_up, *(blanked if blanked is not None else [t])]
    others: list[Mention] = [
        m for m in mentions if not m.within(ok) and not _holds(m, item, ranged, check)
    ]
    view = TextView.of(looked_up, signed=False)
    for other in reader.universe(item):
        if other in ok:
            continue
        for form in reader.forms(other):
            if view.contains(form):
                others.append(Mention(form, (frozenset({other}),)))
    passed = bool(named) and not others
    detail: dict[str, Any] = {
        "expected": item,
        "allowed": sorted(ok - {item}),
        "named": named[:MAX_FOUND_ROWS],
        "others": [
            {"text": m.text, "items": sorted(set().union(*m.readings))}
            for m in others[:MAX_FOUND_ROWS]
        ],
        "found": _truncate_text("\n".join([text, *further])),
    }
    return Outcome(passed, detail)
