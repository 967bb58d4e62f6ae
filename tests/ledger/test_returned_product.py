"""Issue 9, stop 21's open ledger holes in credit-returned-item: a text naming a product that
was not returned (in look-alike forms too: the ship gate's wide gaps, small capitals,
Cyrillic homoglyphs...; or the invoice's other product named as the returned one) fails
`note-names-no-other-product`, as does a product the books do not hold (``Camp chair``,
read by its vocabulary); a quantity in words (``returned nine units``) is read as a
quantity by `texts-state-no-other-amount`. Each edit of the reference below passed at 1.0 on
main ef00833; each honest edit passes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from mcpgym_clients.instrument.forms import FORMS
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._names import known_words
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=32)
FAMILY = "credit-returned-item"
Edit = Callable[[TaskVariant, str], str]


def _grade(v: TaskVariant, tool: str, key: str, fn: Edit) -> tuple[bool, list[str]]:
    calls = [
        ToolCall(c.name, {**c.arguments, key: fn(v, c.arguments[key])}) if c.name == tool else c
        for c in v.reference
    ]
    assert calls != list(v.reference)
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    return g.passed, [c.name for c in g.checks if c.applicable and not c.passed]


def _returned(v: TaskVariant) -> str:
    return re.search(r"for \d+ x (.*?) returned", _note(v)).group(1)  # type: ignore[union-attr]


def _note(v: TaskVariant) -> str:
    return next(str(c.arguments["body"]) for c in v.reference if c.name == "add_note")


def _kept(v: TaskVariant) -> str:
    """The invoice's other product (sold on it, not returned)."""
    invoice = next(c.arguments["invoice_id"] for c in v.reference if c.name == "get_invoice")
    db = replay(environment, v.family, v.band, v.seed, v.reference).open_final_db()
    try:
        rows = db.execute(
            "SELECT description FROM invoice_lines WHERE invoice_id = ? ORDER BY id", (invoice,)
        ).fetchall()
    finally:
        db.close()
    return next(r[0] for r in rows if r[0] != _returned(v))


LOOK_ALIKE = (
    "wide-gaps",
    "small-caps",
    "homoglyphs",
    "entities",
    "punctuation",
    "fullwidth",
    "invisible",
    "markup-split",
)


@pytest.mark.parametrize("form", LOOK_ALIKE)
def test_another_product_in_a_look_alike_form_fails(form: str) -> None:
    v = environment.variant(FAMILY, "easy", 0)
    other = "Camp stove" if "stove" not in _returned(v) else "Rain shell"
    written = FORMS[form](other)
    assert written and written != other
    passed, failed = _grade(
        v, "add_note", "body", lambda v, b: b.replace(f"x {_returned(v)} ", f"x {written} ")
    )
    assert not passed and "note-names-no-other-product" in failed, (written, failed)


@pytest.mark.parametrize("band", ["easy", "medium", "expert"])
@pytest.mark.parametrize("tool,key", [("add_note", "body"), ("issue_credit_note", "reason")])
def test_the_invoices_other_product_named_as_the_returned_one_fails(
    band: str, tool: str, key: str
) -> None:
    v = environment.variant(FAMILY, band, 0)
    kept = _kept(v)
    passed, failed = _grade(v, tool, key, lambda v, b: b.replace(_returned(v), kept))
    assert not passed and "note-names-no-other-product" in failed, failed


@pytest.mark.parametrize(
    "words",
    ["returned nine units", "returned 9 units", "nine water filters came back", "9 pcs returned"],
)
def test_another_quantity_in_words_or_units_fails(words: str) -> None:
    v = environment.variant(FAMILY, "easy", 0)
    words = words.replace("water filter", _returned(v).lower())
    passed, failed = _grade(v, "add_note", "body", lambda v, b: f"{b} The customer {words}.")
    assert not passed and "texts-state-no-other-amount" in failed, failed


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
def test_the_quantity_returned_in_words_or_units_passes(band: str) -> None:
    v = environment.variant(FAMILY, band, 0)
    qty = int(re.search(r"for (\d+) x", _note(v)).group(1))  # type: ignore[union-attr]
    words = "zero one two three four five six seven eight nine".split()[qty]
    passed, failed = _grade(
        v,
        "add_note",
        "body",
        lambda v, b: (
            b
            if "for " not in b
            else f"{b} The customer returned {words} units ({qty} {_returned(v)}s)."
        ),
    )
    assert passed, failed


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("product", ["Camp chair", "Kayak paddles", "Trail backpack"])
def test_a_product_the_books_do_not_hold_fails(band: str, product: str) -> None:
    v = environment.variant(FAMILY, band, 0)
    passed, failed = _grade(
        v, "add_note", "body", lambda v, b: b.replace(f"x {_returned(v)} ", f"x {product} ")
    )
    assert not passed and "note-names-no-other-product" in failed, failed


def test_known_words_are_the_vocabulary_the_task_and_records_use() -> None:
    words = json.loads(known_words(("chair", "stove", "supply"), "Camp stoves", "Upland Supply"))
    assert words == ["stove", "stovees", "stoves", "supply", "supplyes", "supplys"]
