"""Evaluation of `DecisionMatch`: the text claims the decision taken, not the opposite one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mcpgym_grading._checks import (
    MAX_FOUND_ROWS,
    CheckContext,
    Outcome,
    _run_sql,
    _sql_texts,
    _truncate_text,
)
from mcpgym_grading._decision_forms import ACTIONS
from mcpgym_grading._decision_records import CUED, on_file, record_patterns, taken_on
from mcpgym_grading._decision_sentences import _about, sentences_about, sentences_about_all
from mcpgym_grading._decisions import decisions
from mcpgym_grading._language import foreign_sentences
from mcpgym_grading._text import fold
from mcpgym_grading._values import resolve
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import DecisionMatch


def misbound_claims(
    parts: Iterable[str],
    taken: Mapping[str, frozenset[str]],
    files: frozenset[str] = frozenset(),
) -> list[dict[str, object]]:
    """Each claim (done or unsure) of an action of ``taken`` in a piece of ``parts`` that names
    a record of the action's kind it was not taken on: ``{"action", "done", "record",
    "clause", "reason"}``. Each part (one text: a reply, a note, a write's reason) is read on
    its own. ``files``: the records on file (`_decision_records.on_file`); where given, a
    number without an id's cue before it (`_decision_records.CUED`) that is not on file
    names no record. Unknown actions raise KeyError (`decisions`)."""
    patterns, kinds = record_patterns(taken)
    out: list[dict[str, object]] = []
    for text in parts:
        folded = fold(text)
        named: dict[str, list[str]] = {}
        for a, pats in patterns.items():
            for pat in pats.values():
                for m in pat.finditer(folded):
                    name = m.group(1)
                    if files and name.isdigit() and name not in files:
                        if not CUED.search(folded, max(0, m.start(1) - 12), m.start(1)):
                            continue  # a bare number not on file: an amount, a count
                    if name not in taken[a]:
                        named.setdefault(m.group(1), [])
                        if a not in named[m.group(1)]:
                            named[m.group(1)].append(a)
        for record, actions in named.items():
            about = "\n".join(_about(text, record, kinds))
            out.extend(
                {
                    "action": d.action,
                    "done": d.done,
                    "record": record,
                    "clause": d.text,
                    "reason": "taken on another record",
                }
                for d in decisions(about, tuple(actions))
                if d.done is not False
            )
    return out


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
        together = "\n".join(sentences_about_all(text, str(about)))
        text = "\n".join(sentences_about(text, str(about)))
    else:
        together = ""
    actions = tuple(dict.fromkeys((*check.claimed, *check.not_claimed, *check.not_denied)))
    read = decisions(text, actions) + [
        d for d in decisions(together, actions) if d.done is not False
    ]
    # a sentence in another language is read as nothing: where no claim of an action not
    # taken may stand, it fails closed (round 11's R4: "J'ai annulé la commande #7")
    unread = foreign_sentences(text) if check.not_claimed else []
    if together:
        text = f"{text}\n{together}" if text else together
    missing = [a for a in check.claimed if not any(d.done is True and d.action == a for d in read)]
    wrong = [
        {"action": d.action, "done": d.done, "clause": d.text}
        for d in read
        if (d.done is not False and d.action in check.not_claimed)
        or (d.done is False and d.action in check.not_denied)
    ] + [{"action": None, "done": None, "clause": s, "reason": "not English"} for s in unread]
    if check.records:
        # an action taken, claimed of a record it was not taken on (stop 24's A14)
        rows = _run_sql(ctx, check.records)[1]
        taken = taken_on(rows)
        unknown = sorted(set(taken) - set(ACTIONS))
        if unknown:
            raise CheckEvaluationError(f"`records` names unknown action(s) {unknown}")
        wrong += misbound_claims(parts, taken, on_file(rows))
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
