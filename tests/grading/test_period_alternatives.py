"""The period reader's alternatives and non-alternatives (issue 9, round 5 M1 / F7).

M1 (shotgun unseen): a month named in another European language (``marzo 2026``) or
relative to another (``the month before April``) beside the right one passed; so did a
hedged alternative no pattern reads. F7 (false fail): a month bound to a due date (``due
in June``) and a range holding the period with only open ones (``the Q2 2026 figures``)
made an honest note fail. Before: none of these forms was read, and neither option existed.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from mcpgym_grading import MentionMatch, PeriodReader, Rubric
from mcpgym_grading._mention_check import eval_mention_match
from mcpgym_grading._periods import UNREAD, period_mentions, read_periods


def months(text: str) -> list[list[str]]:
    """The months each mention of ``text`` names (its first reading)."""
    return [sorted(m.readings[0]) for m in period_mentions(text, year=2026)]


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("marzo 2026", "2026-03"),
        ("Marzo", "2026-03"),
        ("mars 2026", "2026-03"),
        ("März", "2026-03"),
        ("Maerz", "2026-03"),
        ("maart", "2026-03"),
        ("março de 2026", "2026-03"),
        ("février", "2026-02"),
        ("Febbraio", "2026-02"),
        ("avril", "2026-04"),
        ("aprile", "2026-04"),
        ("maggio", "2026-05"),
        ("mei 2026", "2026-05"),
        ("junho", "2026-06"),
        ("juillet", "2026-07"),
        ("août", "2026-08"),
        ("setembro", "2026-09"),
        ("set 2026", "2026-09"),
        ("Oktober", "2026-10"),
        ("out 2026", "2026-10"),
        ("dicembre", "2026-12"),
        ("Dezember 2025", "2025-12"),
        ("enero", "2026-01"),
        ("3月", "2026-03"),
        ("2026年3月", "2026-03"),
        ("3월", "2026-03"),
    ],
)
def test_a_month_in_another_language_is_read(text: str, month: str) -> None:
    assert months(f"Posted (not {text}).") == [[month]]


@pytest.mark.parametrize(
    ("text", "month"),
    [("en mars", "2026-03"), ("im Mai", "2026-05"), ("or maybe mars.", "2026-03")],
)
def test_a_guarded_word_is_read_in_a_months_context(text: str, month: str) -> None:
    assert months(text) == [[month]]


@pytest.mark.parametrize(
    "text",
    [
        "Set it aside for review.",
        "3 out of 4 lines were checked two weeks ago.",
        "The Mars bar supplier, Marco, approved it.",
        "A gen AI tool; the mag wheels; a lug nut.",
        "Entered by the AVR team, or maybe set aside.",
    ],
)
def test_a_guarded_word_elsewhere_is_no_month(text: str) -> None:
    assert months(text) == []


def test_a_guarded_word_before_a_date_is_no_month() -> None:
    assert months("I set 2026-05-01 as the date.") == [["2026-05"]]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Or maybe the month before April.", [["2026-03"]]),
        ("It belongs to the month after March.", [["2026-04"]]),
        ("two months after April", [["2026-06"]]),
        ("a month before May", [["2026-04"]]),
        ("Belongs to April, or maybe the prior month.", [["2026-04"], ["2026-03"]]),
        ("Asked for April; posted in the following month.", [["2026-04"], ["2026-05"]]),
        ("Asked for 2026-04-17, or one month earlier.", [["2026-04"], ["2026-03"]]),
    ],
)
def test_a_month_relative_to_another_is_resolved(text: str, found: list[list[str]]) -> None:
    assert months(text) == found
    assert period_mentions(text, year=2026)[-1].exact


@pytest.mark.parametrize(
    "text",
    [
        "It is reviewed next month.",
        "Posted the following month.",
        "April, the previous period, is closed.",  # an apposition describes April
    ],
)
def test_a_relative_month_with_nothing_to_count_from_is_not_read(text: str) -> None:
    assert [m for m in months(text) if m != ["2026-04"]] == []


@pytest.mark.parametrize(
    "text",
    [
        "Belongs to April. Or maybe 13.",
        "April, or maybe last month.",
        "April, possibly P13.",
        "April. Or the month before.",
        "April, possibly the previous quarter.",
    ],
)
def test_a_hedged_alternative_that_looks_like_a_period_is_one(text: str) -> None:
    assert [UNREAD] in months(text)


@pytest.mark.parametrize(
    "text",
    [
        "Policy 2.2, possibly 2.3.",
        "Lines 1 or 2.",
        "Checked, possibly 2 lines need review.",
        "Belongs to April, or maybe not.",
        "Posted in May, maybe later reviewed by the controller.",
    ],
)
def test_a_hedge_before_anything_else_is_no_period(text: str) -> None:
    assert [UNREAD] not in months(text)


IGNORING = PeriodReader(document_dates="ignored")


@pytest.mark.parametrize(
    "text",
    [
        "Belongs to April; the customer's payment is due in June as usual.",
        "Belongs to April; payable by 30 June 2026.",
        "Belongs to April. Due date: 2026-06-15.",
        "Belongs to April (invoice date 2026-04-03, due 06/15/2026).",
    ],
)
def test_a_month_bound_to_a_document_date_is_left_out(text: str) -> None:
    found = IGNORING.mentions(text, year=2026)
    assert [sorted(m.readings[0]) for m in found] == [["2026-04"]] * len(found)
    assert any(m.exact for m in found)
    assert len(PeriodReader().mentions(text, year=2026)) > len(found)  # default: named


@pytest.mark.parametrize(
    "text",
    [
        "Posted to April, or maybe due in March.",
        "Posted to April; due in March, perhaps.",
        "Posted to April. Or it is due in March?",
        "Belongs to April. It belongs to the period due in March.",  # said of the posting
        "Belongs to April; the entry is due in March.",
    ],
)
def test_a_hedged_document_date_is_an_alternative(text: str) -> None:
    assert ["2026-03"] in [sorted(m.readings[0]) for m in IGNORING.mentions(text, year=2026)]


def test_the_look_up_of_look_alikes_does_not_find_a_month_left_out() -> None:
    _, cleared = read_periods("Belongs to April; due in June.", year=2026, document_dates="ignored")
    assert cleared is not None and "june" not in cleared[0]
    assert read_periods("Belongs to April.", year=2026, document_dates="ignored")[1] is None


def _passes(check: MentionMatch, text: str) -> bool:
    meta = SimpleNamespace(answer=text, answer_capped=None)
    ctx: Any = SimpleNamespace(params={}, bundle=SimpleNamespace(meta=meta))
    return eval_mention_match(check, ctx).passed


def _check(reader: PeriodReader = IGNORING, range_allowed: Any = None) -> MentionMatch:
    return MentionMatch(
        name="c",
        reader=reader,
        expected="2026-04",
        allowed=["2026-05"],
        range_allowed=range_allowed,
    )


OPEN = ["2026-05", "2026-06"]


@pytest.mark.parametrize(
    ("text", "passes"),
    [
        ("Belongs to April; it will appear in the Q2 2026 figures either way.", True),
        ("Belongs to April; in the second quarter's figures.", True),
        ("Belongs to April (or Q2 2026).", False),  # hedged
        ("Belongs to April; Q2 maybe.", False),  # hedged
        ("Belongs to April; it shows in the H1 figures.", False),  # H1 holds closed months
        ("Belongs to April; it shows in the FY2026 figures.", False),
        ("It will appear in the Q2 2026 figures.", False),  # April is never named
        ("Belongs to April; Q3 2026 figures.", False),  # Q3 does not hold April
    ],
)
def test_a_range_holding_the_period_and_only_open_ones_does_not_compete(
    text: str, passes: bool
) -> None:
    assert _passes(_check(range_allowed=OPEN), text) is passes
    assert not _passes(_check(), text) or "q2" not in text.lower()  # default: it competes


@pytest.mark.parametrize(
    ("text", "passes"),
    [
        ("Belongs to April; the customer's payment is due in June as usual.", True),
        ("Posted 2026-05-01 for April; payment due 2026-06-15.", True),
        ("Belongs to April, or maybe due in March.", False),
        ("Belongs to April. Or maybe marzo 2026.", False),
        ("Belongs to April. Or maybe the month before April.", False),
        ("Belongs to April. Or maybe 13.", False),
        ("Belongs to April; nothing needed for March.", False),  # a denial names it
    ],
)
def test_mention_match_with_the_new_readings(text: str, passes: bool) -> None:
    assert _passes(_check(range_allowed=OPEN), text) is passes


def test_new_options_at_their_default_keep_a_rubrics_digest() -> None:
    check = MentionMatch(name="p", reader=PeriodReader(), expected="2026-04")
    data = Rubric(checks=(check,)).canonical_json()
    assert "range_allowed" not in data and "document_dates" not in data
    moved = Rubric(checks=(_check(range_allowed=OPEN),)).canonical_json()
    assert "range_allowed" in moved and "document_dates" in moved


@pytest.mark.parametrize(
    "text",
    [
        "Belongs to April; issued March 2026, which is where it really belongs.",
        "Belongs to April; invoice date March 2026 is the period it belongs to.",
        "Belongs to April; due 2026-03-31 (the period it belongs to).",
        "Belongs to April; issued in March, so book it there.",
        "Belongs to April; issued in March \u2014 its real period.",
        "Belongs to April; issued in March, which is right.",
    ],
)
def test_a_document_date_said_to_be_the_period_after_it_is_read(text: str) -> None:
    """Round 7 P1: the posting's words after the month, in its clause, keep it a period."""
    assert ["2026-03"] in [sorted(m.readings[0]) for m in IGNORING.mentions(text, year=2026)]
    assert not _passes(_check(range_allowed=OPEN), text)


def test_a_posting_word_said_of_a_later_month_leaves_the_document_date_out() -> None:
    found = IGNORING.mentions("Invoice issued in March, posted to April.", year=2026)
    assert [sorted(m.readings[0]) for m in found] == [["2026-04"]]


@pytest.mark.parametrize(
    "text",
    [
        "It belongs to April, the month before May, or the one before that.",
        "It belongs to the month before May, or the one before that.",
        "Belongs to April, or the one prior.",
        "Belongs to April, or the previous one.",
        "Belongs to April, or maybe the one after.",
    ],
)
def test_a_hedged_one_before_that_is_an_unread_period(text: str) -> None:
    """Round 7 P2: ``or the one before that`` names a month no pattern reads."""
    assert [UNREAD] in months(text)
    assert not _passes(_check(range_allowed=OPEN), text)


# --- round 8 (R8-5): hedged relatives, document dates said to be the period ----------------


@pytest.mark.parametrize(
    "text",
    [
        "Belongs to April, or its predecessor.",
        "Belongs to April, or maybe one month back.",
        "Belongs to April (or earlier)",
        "Belongs to April. Or later.",
        "Belongs to April 2026 as asked, or maybe one month back.",
        "Belongs to April, or the period immediately before.",
        "Belongs to April, or perhaps a bit earlier.",
        "Belongs to April, or else the last one.",
        "Belongs to April/earlier.",
        "Belongs to April, or so.",
        "Belongs to April. Or thereabouts.",
        "Belongs to April, or the adjacent period.",
        "Belongs to April, or its neighbour.",
        "Belongs to April or an adjoining month.",
        "Belongs to April, or a month or two earlier.",
        "Belongs to April. Give or take a month.",
        "Belongs to April +/- one period.",
    ],
)
def test_a_hedge_pointing_from_the_period_to_another_is_an_unread_period(text: str) -> None:
    """Before: none of these was read (``or its predecessor`` passed beside April)."""
    assert [UNREAD] in months(text)
    assert not _passes(_check(range_allowed=OPEN), text)


@pytest.mark.parametrize(
    "text",
    [
        "Belongs to April. Reviewed, maybe later.",  # the hedge is not next to the period
        "Belongs to April. The controller will review it later.",  # no hedge
        "Belongs to April; receipts to follow, maybe later this week.",  # other words
        "Posted in May, maybe later reviewed by the controller.",
        "Belongs to April; posted on or after 2026-05-01.",  # a period the patterns read
        "Belongs to April, or so the controller confirmed.",
        "Maybe later.",  # no period named before it
    ],
)
def test_a_hedge_that_points_at_no_other_period_is_none(text: str) -> None:
    assert [UNREAD] not in months(text)


@pytest.mark.parametrize(
    "text",
    [
        "Belongs to April. The invoice is due March 2026, the correct month.",
        "Belongs to April. Due in March, its actual month.",
        "Belongs to April; issued March 2026, its true period.",
        "Belongs to April; due in March, the right month for it.",
        "Belongs to April; payable in March, the proper quarter.",
    ],
)
def test_a_document_date_described_as_the_period_after_it_is_read(text: str) -> None:
    """Before: words after the month outside the posting list left it a mere due date."""
    assert ["2026-03"] in [sorted(m.readings[0]) for m in IGNORING.mentions(text, year=2026)]
    assert not _passes(_check(range_allowed=OPEN), text)


@pytest.mark.parametrize(
    "text",
    [
        "Belongs to April; the payment is due in March.",
        "Belongs to April (issued in March).",
        "Belongs to April; due in June at month-end as usual.",
        "Belongs to April; due in June, right on schedule.",
        "Belongs to April; due in June per the customer's 30-day terms.",
    ],
)
def test_a_bare_document_date_stays_exempt(text: str) -> None:
    assert _passes(_check(range_allowed=OPEN), text)
