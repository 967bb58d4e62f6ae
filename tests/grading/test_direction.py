"""The direction reader (`mcpgym_grading._direction`, SQL ``mcpgym_reversed``): a change
from one value to another stated the wrong way round."""

from __future__ import annotations

import sqlite3

import pytest

from mcpgym_grading._direction import reversed_change
from mcpgym_grading._values import register_sql_functions

FORWARD = [
    ("too big: size US 12 -> US 11", "US 12", "US 11"),
    ("exchange from M/L to S/M", "M/L", "S/M"),
    ("I've exchanged the M for an L.", "M", "L"),
    ("You'll get the L instead of the M.", "M", "L"),
    ("You'll get the L, not the M.", "M", "L"),
    ("replace the Wide with a Long", "Wide", "Long"),
    ("Your US 11 ships today. Please send the US 12 back.", "US 12", "US 11"),
    (
        "The new one in size US 11 will ship free.\nWhen it arrives, return the US 12.",
        "US 12",
        "US 11",
    ),
    (
        "I'm sorry, the Pad in Long is out of stock. I started a return for the Wide.",
        "Wide",
        "Long",
    ),
    # "I'm" and "a.m." name no size M; a short size is read only as written
    ("I'm sorry: it ships at 9 a.m. tomorrow, the L that is.", "M", "L"),
    # both sizes, no change form: which is which is not read
    ("Once the M is back with us, we ship the L.", "M", "L"),
]
REVERSED = [
    ("too big: size US 11 -> US 12", "US 12", "US 11"),
    ("exchange from S/M to M/L", "M/L", "S/M"),
    ("I've exchanged the L for an M.", "M", "L"),
    ("You'll get the M instead of the L.", "M", "L"),
    ("Your US 12 ships today. Please send the US 11 back.", "US 12", "US 11"),
    (
        "I'm sorry, the Pad in Wide is out of stock. I started a return for the Long.",
        "Wide",
        "Long",
    ),
]


@pytest.mark.parametrize(("text", "old", "new"), FORWARD)
def test_the_change_stated_forward_is_not_reversed(text: str, old: str, new: str) -> None:
    assert reversed_change(text, old, new) == []


@pytest.mark.parametrize(("text", "old", "new"), REVERSED)
def test_the_change_stated_backward_is_reversed(text: str, old: str, new: str) -> None:
    assert reversed_change(text, old, new)


def test_same_or_empty_values_read_nothing() -> None:
    assert reversed_change("L -> L", "L", "L") == []
    assert reversed_change("L -> M", "", "M") == []


def test_sql_function() -> None:
    db = sqlite3.connect(":memory:")
    register_sql_functions(db)
    row = db.execute(
        "SELECT mcpgym_reversed('size L -> M', 'M', 'L'), "
        "mcpgym_reversed('size M -> L', 'M', 'L'), "
        "mcpgym_reversed(NULL, 'M', 'L')"
    ).fetchone()
    assert row == ("size L -> M", None, None)
