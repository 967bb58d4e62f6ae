"""Rubric checks on the names a ledger text states: the record's own party and product.

A note can keep every amount, date and number right and name another vendor, customer or
product than the record's (round 10's F5: ``Credit note for 2 x Camp stove returned`` on
a credit for water filters). `texts_name_only_own_party` refuses the names of the other
parties in the books; `note_names_no_other_product` the products not sold on the
invoice. A name the books do not hold (``Camp chair``) is not read: an honest note may name
no product at all (``2 x item returned``), so none is required.
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import AnswerMatch
from mcpgym_ledger.families._notes import EPISODE_TEXT_SQL, notes_text_sql


def texts_name_only_own_party(party: str, **kw: Any) -> AnswerMatch:
    """No free text written in the episode (`EPISODE_TEXT_SQL`) names a party of the books
    but ``:party`` (the customer or vendor the records are about) by its name, read as whole
    words (another vendor on a bill's note, another customer on a credit or payment; policy
    10.1: the note is the record). Required: a note naming another party misstates whose
    document it is."""
    return AnswerMatch(
        name=kw.pop("name", "texts-name-only-own-party"),
        description=kw.pop(
            "description",
            "no note, memo or reason written in the episode names another customer or vendor "
            "than the record's own (policy 10.1)",
        ),
        source="sql",
        sql=EPISODE_TEXT_SQL,
        normalize="token",
        forbidden_sql=f"SELECT name FROM parties WHERE id <> :{party}",
        weight=kw.pop("weight", 0.5),
        required=kw.pop("required", True),
        **kw,
    )


def note_names_no_other_product(invoice: str, **kw: Any) -> AnswerMatch:
    """The notes on the invoice ``:invoice`` (`_notes.notes_sql`) name no product the books
    sell but those on its lines (another product, by name, read as text). No note, or one
    naming no product, passes. Required: a note naming another product misstates what was
    credited (policy 10.1)."""
    return AnswerMatch(
        name=kw.pop("name", "note-names-no-other-product"),
        description=kw.pop(
            "description",
            "the note on the invoice names no product but those sold on it (policy 10.1)",
        ),
        source="sql",
        sql=notes_text_sql("invoice", invoice),
        normalize="text",
        forbidden_sql="SELECT DISTINCT description FROM invoice_lines WHERE description NOT IN "
        f"(SELECT description FROM invoice_lines WHERE invoice_id = :{invoice})",
        weight=kw.pop("weight", 0.5),
        required=kw.pop("required", True),
        **kw,
    )
