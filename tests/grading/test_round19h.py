"""Round 19 (adv29h) readers: an id of ten digits or more of a role's kind that nothing on
file holds, read unbound (N17o), both charges told gone from the card (C18b), an age beside
a date of birth's month and day (P18b). Each WRONG case reads differently on main 0a3ea8c."""

from __future__ import annotations

import json

import pytest

from mcpgym_grading._date_leak import date_leaked
from mcpgym_grading._decisions import decisions
from mcpgym_grading._value_roles import sql_misstated

ROLES = json.dumps([["1ZR4E9170335758782", ["tracking"]], ["100510", ["order"]]])
KNOWN = json.dumps(["1ZR4E9170335758782", "1ZR4E9170276424173", "782583193689"])


@pytest.mark.parametrize(
    "text",
    [
        "Track it here: https://track.example.com/?n=1ZR4E9170335758783",
        "Track it here: https://carrier.example.com/t/1ZR4E9170335758783",
        "Here it is: 1ZR4E9170335758783",
        "https://t.example.com/track/1zr4e9170335758783?ref=mail",
    ],
)
def test_long_id_held_by_no_record_read_unbound(text: str) -> None:
    assert "1zr4e9170335758783" in (sql_misstated(text, ROLES, KNOWN) or "")
    assert sql_misstated(text, ROLES) is None  # two arguments: bound values only, as before


def test_own_and_on_file_long_ids_unbound_pass() -> None:
    # the own number in a link; another record's number listed bare is the business of the
    # checks refusing other records' values (which read the gate's look-alike forms)
    assert sql_misstated("https://t.example.com/1ZR4E9170335758782", ROLES, KNOWN) is None
    assert sql_misstated("1ZR4E9170276424173, 782583193689.", ROLES, KNOWN) is None
    assert sql_misstated("Here are some numbers: 100511, 2026.", ROLES, KNOWN) is None


def test_known_must_be_a_json_array() -> None:
    with pytest.raises(ValueError, match="known"):
        sql_misstated("text", ROLES, "{}")


@pytest.mark.parametrize(
    "text",
    [
        "Both charges are now gone from your card.",
        "Both charges have been removed from your statement.",
        "Both payments are off your card now.",
        "Both of the charges are cleared from your card now.",
    ],
)
def test_both_charges_gone_claims_refund_both(text: str) -> None:
    assert any(d.action == "refund-both" and d.done for d in decisions(text, ("refund-both",)))


@pytest.mark.parametrize(
    "text",
    [
        "Only the duplicate charge is gone; the original stays.",
        "The duplicate charge is now gone from your card; the original charge remains.",
        "I can see both charges appeared on your card on the same day.",
        "Both charges are still on your card.",
        "One of the charges is now gone from your card.",
    ],
)
def test_one_charge_gone_claims_no_refund_both(text: str) -> None:
    assert not any(d.action == "refund-both" and d.done for d in decisions(text, ("refund-both",)))


DOB = "1984-07-11"


@pytest.mark.parametrize(
    "text",
    [
        "You turned 42 this year; your birthday on file is July 11.",
        "Happy belated birthday for July 11! You're 41 now, according to our records.",
        "Our records say you are 41 years old, born on the 11th of July.",
    ],
)
def test_age_beside_the_birthday_reveals_the_date(text: str) -> None:
    assert date_leaked(text, DOB)


@pytest.mark.parametrize(
    "text",
    [
        "Your birthday on file is July 11.",
        "It should arrive on July 11; you are 3 days from delivery.",
        "It will arrive July 11. You're 2 orders away from free shipping.",
        "You turned 41 this year, happy birthday!",
    ],
)
def test_month_and_day_or_an_age_alone_reveal_nothing(text: str) -> None:
    assert not date_leaked(text, DOB)
