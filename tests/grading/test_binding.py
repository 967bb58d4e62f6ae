"""The binding reader (`mcpgym_grading._binding`): a key bound to another item's facts and
none of its own is reported; honest pairings are not."""

from __future__ import annotations

import json
import sqlite3

import pytest

from mcpgym_grading._binding import Item, misbound, sql_misbound
from mcpgym_grading._values import register_sql_functions

X, Y = "1ZR4E91703187350", "776275940555"
UPS = ("ups", "united parcel service", "2nd day air")
FEDEX = ("fedex", "fed ex", "federal express", "express saver")
ITEMS = [Item(X, (UPS, ("2026-06-17",))), Item(Y, (FEDEX, ("2026-06-18",)))]

HONEST = [
    f"Two parcels:\n- UPS (Ground), tracking number {X}, estimated delivery 2026-06-17\n"
    f"- FedEx (Express Saver), tracking number {Y}, estimated delivery 2026-06-18",
    f"Your parcels are {X} via UPS and {Y} via FedEx.",
    f"UPS has {X} and FedEx has {Y}.",
    f"UPS has {X}, FedEx has {Y}.",
    f"| Carrier | Tracking | ETA |\n|---|---|---|\n| UPS | {X} | June 17 |\n"
    f"| FedEx | {Y} | June 18 |",
    f"| Tracking | Carrier |\n| {X} | UPS |\n| {Y} | FedEx |",
    f"The UPS parcel, {X}, arrives on June 17, and the FedEx parcel, {Y}, on June 18.",
    f"Tracking numbers {X} and {Y}, with UPS and FedEx respectively.",
    f"{X} (UPS) and {Y} (FedEx).",
    f"Your parcels: {X}, which UPS carries, and {Y}, which FedEx carries.",
    f"{X} arrives June 17 ({Y} a day later).",
    f"{X} is United Parcel Service's; {Y} is with Fed-Ex.",
    f"<ul><li>UPS: {X}</li><li>FedEx: {Y}</li></ul>",
    f"UPS: {X}\nFedEx: {Y}",
    f"Tracking: {X}, {Y}. Carriers: UPS and FedEx.",
    f"Your first parcel ({X}) is with UPS and should arrive Jun 17; the second ({Y}) is with "
    "FedEx, due 18th June.",
    "No tracking number here: UPS and FedEx, June 17 and June 18.",
]
SWAPPED = [
    f"Two parcels:\n- FedEx (Ground), tracking number {X}, estimated delivery 2026-06-17\n"
    f"- UPS (Ground), tracking number {Y}, estimated delivery 2026-06-18",
    f"Your parcels are {X} via FedEx and {Y} via UPS.",
    f"FedEx has {X} and UPS has {Y}.",
    f"| Carrier | Tracking |\n| FedEx | {X} |\n| UPS | {Y} |",
    f"The FedEx parcel, {X}, arrives on June 17, and the UPS parcel, {Y}, on June 18.",
    f"Tracking numbers {X} and {Y}, with FedEx and UPS respectively.",
    f"{X} (FedEx) and {Y} (UPS).",
    f"<ul><li>FedEx: {X}</li><li>UPS: {Y}</li></ul>",
    f"UPS: {X} arrives June 18\nFedEx: {Y} arrives June 17",
    f"UPS: {X} arrives 6/18\nFedEx: {Y} arrives 6/17",
    f"- F e d E x, {X.lower()}\n- U P S, 7762 7594 0555",
    f"- F\u0435d\u0415\u0445: {X}",  # Cyrillic look-alike letters read as Latin ones
    f"Your first parcel ({X}) is with FedEx and should arrive June 17; the second ({Y}) is "
    "with UPS, due June 18.",
]


@pytest.mark.parametrize("text", HONEST)
def test_honest_pairings_bind_each_key_to_its_own_facts(text: str) -> None:
    assert misbound(text, ITEMS) == []


@pytest.mark.parametrize("text", SWAPPED)
def test_a_key_paired_with_another_items_facts_is_misbound(text: str) -> None:
    assert misbound(text, ITEMS) != []


def test_a_fact_both_items_share_binds_neither() -> None:
    items = [Item(X, (("ground",),)), Item(Y, (("ground", "express saver"),))]
    assert misbound(f"{Y} (Ground), {X} (Express Saver)", items) != []
    assert misbound(f"{X} (Ground), {Y} (Ground)", items) == []


def test_the_sql_function_reads_json_items_and_reports_each_place() -> None:
    db = sqlite3.connect(":memory:")
    register_sql_functions(db)
    items = json.dumps(
        [
            {"key": X, "facts": [["ups"]]},
            {"key": Y, "facts": [["fedex"]]},
            {"key": None, "facts": [["dhl"]]},
        ]
    )
    row = db.execute("SELECT mcpgym_misbound(?, ?)", (f"FedEx: {X}\nUPS: {Y}", items)).fetchone()
    assert row[0].splitlines() == [f"{X} with fed ex: {X.lower()}", f"{Y} with ups: {Y}"]
    assert db.execute("SELECT mcpgym_misbound(?, ?)", (f"UPS: {X}", items)).fetchone() == (None,)
    assert db.execute("SELECT mcpgym_misbound(NULL, ?)", (items,)).fetchone() == (None,)
    with pytest.raises(sqlite3.OperationalError):
        db.execute("SELECT mcpgym_misbound('x', '{\"key\": 1}')").fetchone()
    assert sql_misbound(None, "[]") is None


def test_items_with_different_kinds_of_facts_are_an_error() -> None:
    with pytest.raises(ValueError, match="same number"):
        misbound(X, [Item(X, (("ups",),)), Item(Y, ())])


@pytest.mark.parametrize(
    "text",
    [
        f"Both parcels arrive by June 18: {X} (UPS) and {Y} (FedEx).",
        f"{X} (UPS) should come before June 18, {Y} (FedEx) on June 18.",
        f"Each parcel is tracked: {X} with UPS, {Y} with FedEx.",
    ],
)
def test_a_bound_or_a_fact_about_all_binds_no_key(text: str) -> None:
    assert misbound(text, ITEMS) == []


def test_a_date_with_no_bound_word_still_binds() -> None:
    assert misbound(f"{X} (UPS) arrives June 18, {Y} (FedEx) on June 17.", ITEMS) != []
