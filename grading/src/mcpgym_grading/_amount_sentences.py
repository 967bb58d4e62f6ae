"""``mcpgym_without_amount``: a text read without the sentences about one known amount.

A sentence that names no record is read as about the record named last before it
(`_decision_sentences.sentences_about`): "I can't refund the tent from order #D. I've refunded
that one as well" claims #D refunded. But a sentence can name its record by the amount it
states instead: "$5.00 was refunded earlier as a price adjustment" is about the earlier
refund of $5.00, wherever it stands (stop 21 left refund-damaged-item expert's
`reply-states-declined-not-refunded` out for it). A check reads the text through this
function to leave out the sentences that state that amount, and only it, beside a cue of
its role (``earlier``, ``price adjustment``): "I've refunded that one as well" states no
amount and stays; "I've refunded $24.00 for that one too" states another and stays.
"""

from __future__ import annotations

import re

from mcpgym_grading._text import fold, money_amounts

SQL_WITHOUT_AMOUNT = "mcpgym_without_amount"
"""The SQL function ``mcpgym_without_amount(text, cents, cues)``: ``text`` without its
sentences that state the amount ``cents`` (an integer) and no other, and hold one of the
comma-separated phrases ``cues`` as whole words (`without_amount`). ``text`` unchanged where
``cents`` is NULL; NULL where ``text`` is NULL."""

_SENTENCE = re.compile(r"(?<=[.!?)])\s+|\n+")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")


def without_amount(text: str, cents: int, cues: tuple[str, ...]) -> str:
    """``text`` without the sentences (cut as `DecisionMatch` cuts them: after ``.``, ``!``,
    ``?`` before a space, and at line breaks) that state money amounts, all equal to
    ``cents`` (`mcpgym_grading._text.money_amounts`), and hold a phrase of ``cues`` (folded,
    whole words). The sentences kept are joined by line breaks, paragraphs by a blank line
    (a paragraph break is kept: `_decision_sentences.sentences_about` reads it)."""
    patterns = [re.compile(rf"(?<![0-9a-z]){re.escape(fold(c))}(?![0-9a-z])") for c in cues if c]
    paragraphs: list[str] = []
    for paragraph in _PARAGRAPH.split(text):
        kept: list[str] = []
        for sentence in _SENTENCE.split(paragraph):
            amounts = money_amounts(sentence)
            folded = fold(sentence)
            if amounts and set(amounts) == {cents} and any(p.search(folded) for p in patterns):
                continue
            kept.append(sentence)
        if kept:
            paragraphs.append("\n".join(kept))
    return "\n\n".join(paragraphs)


def sql_without_amount(text: object, cents: object, cues: object) -> str | None:
    """`without_amount` for SQLite: None for non-text ``text``; ``text`` unchanged unless
    ``cents`` is an integer."""
    if not isinstance(text, str):
        return None
    if not isinstance(cents, int) or isinstance(cents, bool):
        return text
    words = tuple(c.strip() for c in cues.split(",")) if isinstance(cues, str) else ()
    return without_amount(text, cents, words)
