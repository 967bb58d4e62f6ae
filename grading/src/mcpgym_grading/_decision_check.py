"""Evaluation of `DecisionMatch`: the text claims the decision taken, not the opposite one."""

from __future__ import annotations

import re

from mcpgym_grading._checks import MAX_FOUND_ROWS, CheckContext, Outcome, _sql_texts, _truncate_text
from mcpgym_grading._decisions import decisions
from mcpgym_grading._text import fold
from mcpgym_grading._values import resolve
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import DecisionMatch

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences_about(text: str, value: str) -> list[str]:
    """The sentences of ``text`` (cut after ``.``, ``!``, ``?`` before a space, and at line
    breaks) that name ``value`` as a whole token, read folded (`fold`)."""
    token = re.compile(rf"(?<![0-9a-z]){re.escape(fold(value))}(?![0-9a-z])")
    return [s for s in _SENTENCE.split(text) if token.search(fold(s))]


def eval_decision_match(check: DecisionMatch, ctx: CheckContext) -> Outcome:
    """See `DecisionMatch` (a submitted answer the log capped never passes)."""
    if check.source == "submitted":
        if ctx.bundle.meta.answer_capped is not None:
            reason = "the submitted answer was over the server's log value cap"
            return Outcome(False, {"found": None, "reason": reason})
        parts = [ctx.bundle.meta.answer or ""]
    else:
        if not check.sql:
            raise CheckEvaluationError("source `sql` needs `sql`")
        parts = _sql_texts(ctx, check.sql)
    text = "\n".join(parts)
    about = resolve(check.about, ctx.params)
    if about is not None:
        if isinstance(about, list | dict):
            raise CheckEvaluationError(f"`about` must be one value, got {about!r}")
        text = "\n".join(sentences_about(text, str(about)))
    actions = tuple(dict.fromkeys((*check.claimed, *check.not_claimed, *check.not_denied)))
    read = decisions(text, actions)
    missing = [a for a in check.claimed if not any(d.done and d.action == a for d in read)]
    wrong = [
        {"action": d.action, "done": d.done, "clause": d.text}
        for d in read
        if (d.done and d.action in check.not_claimed)
        or (not d.done and d.action in check.not_denied)
    ]
    detail = {
        "expected": {
            "about": about,
            "claimed": list(check.claimed),
            "not_claimed": list(check.not_claimed),
            "not_denied": list(check.not_denied),
        },
        "missing": missing,
        "wrong": wrong[:MAX_FOUND_ROWS],
        "read": [{"action": d.action, "done": d.done, "clause": d.text} for d in read][
            :MAX_FOUND_ROWS
        ],
        "found": _truncate_text(text),
    }
    return Outcome(not missing and not wrong, detail)
