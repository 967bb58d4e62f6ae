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
from mcpgym_ledger.families._identity import SNAPSHOT_TIME
from mcpgym_ledger.families._notes import EPISODE_NOTES_SQL, EPISODE_TEXT_SQL


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


GOODS_TEXT_SQL = " UNION ALL ".join(
    (
        EPISODE_NOTES_SQL.removesuffix(" ORDER BY id"),
        f"SELECT reason FROM credit_notes WHERE created_at > '{SNAPSHOT_TIME}'",
        f"SELECT memo FROM journal_entries WHERE created_at > '{SNAPSHOT_TIME}'",
    )
)
"""The texts the agent writes about goods in an episode: notes, credit note reasons, entry
memos (not the document lines a credit updates: those are the invoice's own)."""


def note_names_no_other_product(returned: str, **kw: Any) -> AnswerMatch:
    """No note, credit note reason or entry memo written in the episode (`GOODS_TEXT_SQL`)
    names a product the books sell but the ones returned (``:returned``, a
    JSON list of product names): not another product of the books, nor the invoice's other
    product named as the returned one (``2 x Camp stove returned`` on a credit for water
    filters sold beside a camp stove). Read as every disclosure check reads a text
    (``normalize="token"``: `mcpgym_grading.TextView`, folded, whole tokens and their
    skeleton), so a name in look-alike forms (wide gaps, small capitals, Cyrillic
    homoglyphs, character references) is the name (stop 21's condition 7 findings). No
    text, or one naming no product, passes. Required: a text naming another product
    misstates what was credited (policy 10.1)."""
    return AnswerMatch(
        name=kw.pop("name", "note-names-no-other-product"),
        description=kw.pop(
            "description",
            "no note or credit note reason names a product but the ones returned (policy 10.1)",
        ),
        source="sql",
        sql=GOODS_TEXT_SQL,
        normalize="token",
        forbidden_sql="SELECT DISTINCT description FROM invoice_lines WHERE description NOT IN "
        f"(SELECT value FROM json_each(:{returned}))",
        weight=kw.pop("weight", 0.5),
        required=kw.pop("required", True),
        **kw,
    )
