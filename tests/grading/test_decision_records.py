"""`DecisionMatch.records` (stop 24's A14): a claimed action bound to the record a sentence
names; an action taken on one record and claimed of another is a wrong claim, a sentence
naming no record is not bound to the one named before it."""

from __future__ import annotations

import pytest

from mcpgym_grading import DecisionMatch, Rubric
from mcpgym_grading._decision_check import misbound_claims
from mcpgym_grading._decision_records import record_pattern, taken_on

REFUNDED = taken_on([("refund", "100495"), ("card-refund", "100495")])
WRITTEN_OFF = taken_on([("write-off", "INV-2026-0151")])


@pytest.mark.parametrize(
    ("text", "taken", "records"),
    [
        ("damaged on arrival; order #100107 refunded in full too", REFUNDED, {"100107"}),
        ("Refunded order #100107 to the card.", REFUNDED, {"100107"}),
        ("Refunded order 100495, and order #100107 as well was refunded.", REFUNDED, {"100107"}),
        ("Refunded 100495 and 100107 in full.", REFUNDED, {"100107"}),
        ("Order No. 100107 refunded too.", REFUNDED, {"100107"}),
        ("Refunded order #100495 and order #100107 to the card.", REFUNDED, {"100107"}),
        ("bad debt; INV-2026-0152 written off as well", WRITTEN_OFF, {"inv-2026-0152"}),
    ],
)
def test_a_claim_of_another_record_is_misbound(
    text: str, taken: dict[str, frozenset[str]], records: set[str]
) -> None:
    assert {m["record"] for m in misbound_claims([text], taken)} == records


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        ("Customer also asked about #100107, declined per policy. Refund to card.", REFUNDED),
        ("Order #100107 mentioned too but not eligible. Refunded the damaged item only.", REFUNDED),
        ("Refunded order #100495; order #100107 declined per policy.", REFUNDED),
        ("order #100107 not refunded (outside the window)", REFUNDED),
        ("Ticket #5227: refunded the damaged item in full.", REFUNDED),
        ("Refunded item 300802 in full.", REFUNDED),
        ("Refunded item #300802 on order #100495 (payment 700321).", REFUNDED),
        ("Refunded 100495; 100107 declined per policy.", REFUNDED),
        ("Refunded 100495 and declined 100107 per policy.", REFUNDED),
        ("I refunded order #100495 and order #100107 was declined.", REFUNDED),
        ("Refunded $1,004.95 of $100,107.00 charged.", REFUNDED),
        ("I will refund order #100107 once it is back.", REFUNDED),
        ("INV-2026-0152 is still current, not written off", WRITTEN_OFF),
        ("CN-2026-0015 had already credited the rest; wrote off INV-2026-0151.", WRITTEN_OFF),
    ],
)
def test_honest_texts_bind_nothing(text: str, taken: dict[str, frozenset[str]]) -> None:
    assert misbound_claims([text], taken) == []


def test_each_text_is_read_on_its_own() -> None:
    # the reply names the other order last; the reason after it names none
    parts = ["I can't refund order #100107.", "Refunded in full."]
    assert misbound_claims(parts, REFUNDED) == []


def test_the_pattern_reads_the_kind_only() -> None:
    order = record_pattern("100495")
    assert [m.group(1) for m in order.finditer("#100107, order 100108, #5227, 300802")] == [
        "100107",
        "100108",
    ]
    invoice = record_pattern("INV-2026-0151")
    assert [m.group(1) for m in invoice.finditer("inv-2026-0152 cn-2026-0015")] == ["inv-2026-0152"]


def test_records_left_out_of_the_digest_at_its_default() -> None:
    check = DecisionMatch(name="c", source="sql", sql="SELECT 1", not_claimed=("cancel",))
    assert '"records"' not in Rubric(checks=(check,)).canonical_json()
    bound = check.model_copy(update={"records": "SELECT 'refund', '7'"})
    assert '"records"' in Rubric(checks=(bound,)).canonical_json()


def test_a_bare_number_binds_only_where_it_is_on_file() -> None:
    # stop 25's helpdesk gate: a reply listing a variant's values (`partially_refunded, 4200,
    # ..., 105624`: cents) read as a refund claimed of an order 105624 where the records on
    # file are given; an id's cue names a record whether or not it is on file
    from mcpgym_grading._decision_records import on_file

    taken = {"refund": frozenset({"100425"})}
    files = on_file([(None, "100425"), (None, "100107"), ("refund", "100425")])
    assert files == frozenset({"100425", "100107"})
    dump = ["Values: original_payment, partially_refunded, 4200, 52000, 105624."]
    assert misbound_claims(dump, taken, files) == []
    assert [w["record"] for w in misbound_claims(dump, taken)] == ["105624"]  # none on file
    on = ["Refunded 100107 in full too."]
    assert [w["record"] for w in misbound_claims(on, taken, files)] == ["100107"]
    cued = ["Refunded order #105624 in full too."]
    assert [w["record"] for w in misbound_claims(cued, taken, files)] == ["105624"]
