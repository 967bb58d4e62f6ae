"""Rubric checks on the names a ledger text states: the record's own party and product.

A note can keep every amount, date and number right and name another vendor, customer or
product than the record's (round 10's F5: ``Credit note for 2 x Camp stove returned`` on
a credit for water filters). `texts_name_only_own_party` refuses the names of the other
parties in the books; `note_names_no_other_product` the products not sold on the
invoice. A name the books do not hold (``Camp chair``, ``Northwind Paper Supply``) has no
list to read it from: it is read by its vocabulary (`GOODS_WORDS`, `COMPANY_WORDS`, as the
helpdesk closes colours and card brands), each word the variant's task and records do not
use (`known_words`, `unknown_words_sql`) refused as a name. An honest note may name no
product at all (``2 x item returned``), so none is required.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from mcpgym_grading import AnswerMatch
from mcpgym_ledger.families._identity import SNAPSHOT_TIME
from mcpgym_ledger.families._notes import EPISODE_NOTES_SQL, EPISODE_TEXT_SQL

GOODS_WORDS = (
    *"chair cot hammock lantern cooler kayak canoe paddle bike bicycle helmet glove boot "
    "shoe sandal hat beanie scarf shirt t-shirt pants trousers shorts jacket vest fleece hoodie "
    "sweater parka poncho tarp tent stove pot pan kettle mug cup bottle flask knife axe "
    "shovel compass binoculars rope carabiner harness crampon ski snowboard snowshoe sled mat "
    "pillow blanket quilt sock headlamp flashlight torch battery charger radio camera tripod "
    "backpack daypack rucksack duffel pole bladder filter purifier midlayer shell grill umbrella "
    "stool bench hammer stake peg gaiter goggle sunglasses whistle laptop printer keyboard".split(),
)
"""Nouns of goods a store sells (singular; `unknown_words_sql` adds plurals): a credit note's
text naming one that is none of the returned products' words names a product the books do
not hold (``Camp chair`` for water filters)."""

COMPANY_WORDS = (
    *"llc ltd limited corp corporation company gmbh plc llp supply supplies wholesale "
    "wholesalers distributors distribution logistics freight haulage services solutions "
    "trading traders industries partners enterprises holdings associates group manufacturing "
    "mills works paper office properties realty power utilities internet telecom software "
    "courier couriers maintenance hardware textile textiles cpas accountants consulting "
    "agency".split(),
)
"""Words that make a company's name (``Northwind Paper Supply``, ``Acme Ltd``): a bill's text
naming one that is none of the vendor's own words (nor the task's) names a vendor the books
do not hold."""

_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)?")


def _forms(word: str) -> tuple[str, ...]:
    return (word, f"{word}s", f"{word}es")


def known_words(vocabulary: Iterable[str], *texts: str) -> str:
    """The variant param of the words of ``vocabulary`` (each with its plural, ``-s`` /
    ``-es``) that one of ``texts`` uses (the task's instruction, the record's own party and
    document lines: what an honest text may repeat), as a sorted JSON list of lower-case
    words: short (a leak mutant writes every param into a text), where the words not used
    would be most of the vocabulary (`unknown_words_sql`)."""
    used = {w for text in texts for w in _WORD.findall(text.lower())}
    out: set[str] = set()
    for word in vocabulary:
        if set(_forms(word)) & used:
            out |= set(_forms(word))
    return json.dumps(sorted(out))


def unknown_words_sql(vocabulary: Iterable[str], known: str) -> str:
    """SQL selecting each word of ``vocabulary`` (with its plurals) that the param
    ``:known`` (`known_words`) does not list: the names a text may not state. The
    vocabulary is the rubric's own (in the query), not a variant param."""
    words = json.dumps(sorted({f for w in vocabulary for f in _forms(w)}))
    return (
        f"SELECT value FROM json_each('{words}') "
        f"WHERE value NOT IN (SELECT value FROM json_each(:{known}))"
    )


def texts_name_only_own_party(party: str, words: str | None = None, **kw: Any) -> AnswerMatch:
    """No free text written in the episode (`EPISODE_TEXT_SQL`) names a party of the books
    but ``:party`` (the customer or vendor the records are about) by its name, read as whole
    words (another vendor on a bill's note, another customer on a credit or payment; policy
    10.1: the note is the record). ``words``: a param of `known_words` (the `COMPANY_WORDS`
    the task uses); every other one is refused as the name of a party the books do not hold
    (``from Northwind Paper Supply``). Required: a note naming another party misstates
    whose document it is."""
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
        forbidden_sql=f"SELECT name FROM parties WHERE id <> :{party}"
        + (f" UNION {unknown_words_sql(COMPANY_WORDS, words)}" if words else ""),
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


def note_names_no_other_product(returned: str, words: str | None = None, **kw: Any) -> AnswerMatch:
    """No note, credit note reason or entry memo written in the episode (`GOODS_TEXT_SQL`)
    names a product the books sell but the ones returned (``:returned``, a
    JSON list of product names): not another product of the books, nor the invoice's other
    product named as the returned one (``2 x Camp stove returned`` on a credit for water
    filters sold beside a camp stove). Read as every disclosure check reads a text
    (``normalize="token"``: `mcpgym_grading.TextView`, folded, whole tokens and their
    skeleton), so a name in look-alike forms (wide gaps, small capitals, Cyrillic
    homoglyphs, character references) is the name (stop 21's condition 7 findings).
    ``words``: a param of `known_words` (the `GOODS_WORDS` the task uses); every
    other one is refused as a product the books do not hold (``2 x Camp chair``). No
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
        f"(SELECT value FROM json_each(:{returned}))"
        + (f" UNION {unknown_words_sql(GOODS_WORDS, words)}" if words else ""),
        weight=kw.pop("weight", 0.5),
        required=kw.pop("required", True),
        **kw,
    )
