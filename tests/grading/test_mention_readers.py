"""The mention readers (`PeriodReader`, `Lexicon`) and `MentionMatch` (issue 9, shotgun
answers): every item a text names is read, in any written form, so a text naming an
alternative beside the right item names none."""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

from mcpgym_grading import Lexicon, LexiconItem, MentionMatch, Param, PeriodReader, Rubric
from mcpgym_grading._mention_check import eval_mention_match
from mcpgym_grading._periods import period_mentions
from mcpgym_grading.errors import CheckEvaluationError


def months(text: str) -> list[list[str]]:
    """The months each mention of ``text`` names (its first reading)."""
    return [sorted(m.readings[0]) for m in period_mentions(text, year=2026)]


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("06/2026", "2026-06"),
        ("6/2026", "2026-06"),
        ("06/26", "2026-06"),
        ("06.2026", "2026-06"),
        ("06-2026", "2026-06"),
        ("30/06/2026", "2026-06"),
        ("6/30/2026", "2026-06"),
        ("2026-6", "2026-06"),
        ("2026 M06", "2026-06"),
        ("2026M06", "2026-06"),
        ("202606", "2026-06"),
        ("20260630", "2026-06"),
        ("FY26 P6", "2026-06"),
        ("P6 FY2026", "2026-06"),
        ("period 6", "2026-06"),
        ("fiscal period 06", "2026-06"),
        ("P06", "2026-06"),
        ("the sixth month", "2026-06"),
        ("June '26", "2026-06"),
        ("jun26", "2026-06"),
        ("\u1d0a\u1d1c\u0274\u1d07", "2026-06"),  # small capitals
        ("Dec 2025", "2025-12"),
        ("2026\u201406", "2026-06"),  # em dash
    ],
)
def test_a_month_in_any_written_form_is_read(text: str, month: str) -> None:
    assert months(f"Posted (not {text}).") == [[month]]


@pytest.mark.parametrize(
    ("text", "covered"),
    [
        ("Q2 2026", [4, 5, 6]),
        ("2026-Q2", [4, 5, 6]),
        ("2Q26", [4, 5, 6]),
        ("the second quarter", [4, 5, 6]),
        ("H1 2026", [1, 2, 3, 4, 5, 6]),
        ("first half of 2026", [1, 2, 3, 4, 5, 6]),
        ("FY2026", list(range(1, 13))),
        ("every month", list(range(1, 13))),
        ("January to March", [1, 2, 3]),
        ("Jan\u2013Mar 2026", [1, 2, 3]),
        ("P1-P3", [1, 2, 3]),
        ("months 1, 2 and 6", [1, 2, 6]),
    ],
)
def test_a_range_names_every_month_it_covers(text: str, covered: list[int]) -> None:
    found = period_mentions(f"It is in {text}.", year=2026)
    assert len(found) == 1 and not found[0].exact
    assert sorted(found[0].readings[0]) == [f"2026-{m:02d}" for m in covered]


@pytest.mark.parametrize(
    "text",
    [
        "See INV-2026-0151.",
        "Policy 2.2 and 2.1 apply; $6.20 and $1,206.20 posted to 6300.",
        "It may belong elsewhere.",
        "Posted in 2026, the year of the audit.",
        "Separately marked, decided.",
    ],
)
def test_no_period_is_read_where_there_is_none(text: str) -> None:
    assert period_mentions(text, year=2026) == []


def test_a_date_both_orders_fit_is_read_as_the_text_orders_its_dates() -> None:
    both = period_mentions("posted 05/06/2026", year=2026)[0]
    assert {frozenset({"2026-06"}), frozenset({"2026-05"})} == set(both.readings)
    us = period_mentions("asked 4/17/2026, posted 05/06/2026", year=2026)[1]
    assert us.readings == (frozenset({"2026-05"}),)  # month-day, as 4/17/2026


TEAMS = Lexicon(
    items={
        "billing": LexiconItem(names=("billing",), qualifiers=("finance",)),
        "returns": LexiconItem(qualifiers=("returns", "exchanges")),
        "fraud": LexiconItem(names=("fraud", "trust and safety"), qualifiers=("risk",)),
        "management": LexiconItem(names=("manager", "supervisor")),
    }
)


def team_items(text: str) -> list[str]:
    return [i for m in TEAMS.mentions(text) for i in sorted(m.readings[0])]


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("FraudTeam", ["fraud"]),
        ("fraudteam", ["fraud"]),
        ("managers", ["management"]),
        ("a supervisor", ["management"]),
        ("Returns Dept.", ["returns"]),
        ("Returns & Exchanges team", ["returns", "returns"]),
        ("returns/exchanges team", ["returns", "returns"]),
        ("Risk team", ["fraud"]),
        ("Trust & Safety", ["fraud"]),
        ("the escalations team", ["other: escalations"]),
        ("our finance department", ["billing"]),
    ],
)
def test_a_team_in_any_form_is_read(text: str, items: list[str]) -> None:
    assert team_items(f"Passed to {text}.") == items


@pytest.mark.parametrize(
    "text",
    [
        "Our support team is sorry about your returns.",
        "The customer service team and the relevant team will help.",
        "This is not fraudulent.",
        "I have notified the team.",
    ],
)
def test_no_team_is_read_where_there_is_none(text: str) -> None:
    assert team_items(text) == []


def test_team_like_names_can_be_ignored() -> None:
    lenient = TEAMS.model_copy(update={"others": "ignored"})
    assert [m for m in lenient.mentions("the escalations team")] == []


RANKED = Lexicon(
    items={
        "billing": LexiconItem(names=("billing",), qualifiers=("accounts", "receivable")),
        "fraud": LexiconItem(names=("fraud",)),
        "management": LexiconItem(
            names=("management", "mgmt", "manager", "team lead", "boss"),
            qualifiers=("senior",),
            ranks=True,
        ),
    }
)


def ranked_items(text: str) -> list[str]:
    return sorted({i for m in RANKED.mentions(text) for i in m.readings[0]})


@pytest.mark.parametrize(
    "text",
    [
        "I've passed it to our billing team lead.",
        "I've passed it to billing's senior colleague.",
        "I've passed it to the billing team's manager.",
        "I've passed it to our accounts receivable team lead.",
        "I've passed it to a senior colleague in billing.",
        "I've passed it to a senior team member from our billing team.",
        "I've passed it to a senior billing specialist.",
        "I've escalated it to billing; a senior colleague there will follow up.",
        "I've escalated it to billing; someone there will follow up.",
    ],
)
def test_a_rank_governed_by_another_item_is_that_item(text: str) -> None:
    # round 5, F5: a person's rank within a team names the team, not management
    assert ranked_items(text) == ["billing"]
    assert _passes(_check(RANKED, "billing"), text)


@pytest.mark.parametrize(
    "text",
    [
        "I've passed it to billing and our senior team.",
        "I've passed it to billing (and to my boss).",
        "I've passed it to billing and mgmt.",
        "I've passed it to billing management.",  # a collective name is no person's rank
        "I've passed it to billing/management.",
        "I've passed it to billing and my team lead.",
        "I've passed it to our billing team. A senior team member will follow up.",
        "I've passed it to mgmt; a senior colleague there will follow up, billing too.",
    ],
)
def test_a_rank_governed_by_nothing_names_its_item(text: str) -> None:
    assert "management" in ranked_items(text)
    assert not _passes(_check(RANKED, "billing"), text)


@pytest.mark.parametrize(
    ("text", "second"),
    [
        # adversarial round 7, B1: a second team in a bracket or an `or` after a rank
        ("I've passed it to our billing team lead (shipping).", "other: shipping"),
        ("I've passed it to a senior colleague in billing or in shipping.", "other: shipping"),
        ("I've passed it to a senior colleague in billing or shipping.", "other: shipping"),
        ("I've passed it to a senior colleague in billing (or in shipping).", "other: shipping"),
        ("I've passed it to our billing team lead, or shipping's.", "other: shipping"),
        ("I've passed it to a senior colleague in billing or someone in sales.", "other: sales"),
        ("I've passed it to our billing team lead (or fraud).", "fraud"),
        ("I've passed it to our billing team lead (accounts).", "billing"),
        ("I've passed it to a senior colleague (shipping).", "other: shipping"),
    ],
)
def test_a_second_team_after_a_rank_is_read(text: str, second: str) -> None:
    assert second in ranked_items(text)
    if second != "billing":
        assert not _passes(_check(RANKED, "billing"), text)


@pytest.mark.parametrize(
    "text",
    [
        "I've passed it to a senior colleague in billing (usually within 2 days).",
        "I've passed it to our billing team lead (who will reply today).",
        "I've passed it to our billing team lead (ticket 4412).",
        "I've passed it to a senior colleague in billing or, if needed, their team.",
        "I've passed it to our billing team lead or another colleague there.",
        "I've passed it to our billing team lead (billing).",
    ],
)
def test_a_bracket_or_an_or_after_a_rank_naming_no_team_is_no_team(text: str) -> None:
    assert ranked_items(text) == ["billing"], RANKED.mentions(text)
    assert _passes(_check(RANKED, "billing"), text)


def test_a_governed_rank_keeps_its_item_elsewhere_and_its_look_alikes() -> None:
    assert ranked_items("I've passed it to the fraud team lead.") == ["fraud"]
    # a look-alike of the rank is not read as a rank, so nothing governs it
    assert not _passes(_check(RANKED, "billing"), "Passed to billing team l e a d.")
    assert RANKED.lookup_texts("Passed to billing.") is None
    plain = RANKED.model_copy(
        update={
            "items": {
                **RANKED.items,
                "management": LexiconItem(names=("team lead",), qualifiers=("senior",)),
            }
        }
    )
    assert "management" in {
        i for m in plain.mentions("our billing team lead") for i in m.readings[0]
    }


def _check(reader: Any, expected: Any, allowed: Any = None) -> MentionMatch:
    return MentionMatch(name="c", reader=reader, expected=expected, allowed=allowed)


def _passes(check: MentionMatch, text: str, params: dict[str, Any] | None = None) -> bool:
    meta = SimpleNamespace(answer=text, answer_capped=None)
    ctx: Any = SimpleNamespace(params=params or {}, bundle=SimpleNamespace(meta=meta))
    return eval_mention_match(check, ctx).passed


def test_mention_match_passes_the_item_and_refuses_any_other() -> None:
    check = _check(PeriodReader(), Param("period"), ["2026-05"])
    params = {"period": "2026-04"}
    assert _passes(check, "Asked for 2026-04-17, posted 2026-05-01: belongs to April.", params)
    assert not _passes(check, "Belongs to April (or Q2 2026).", params)
    assert not _passes(check, "Belongs to April or J.u.n.e.", params)  # a look-alike
    assert not _passes(check, "Posted on 2026-05-01.", params)  # April never named
    billing = _check(TEAMS, "billing")
    assert _passes(billing, "Our billing team will follow up.")
    assert not _passes(billing, "Billing (or the escalations team) will follow up.")
    assert not _passes(billing, "Billing or f r a u d will follow up.")  # a look-alike


def test_mention_match_refuses_items_outside_its_vocabulary() -> None:
    with pytest.raises(ValidationError, match="no item of the lexicon"):
        _check(TEAMS, "shipping")
    with pytest.raises(CheckEvaluationError, match="YYYY-MM"):
        _passes(_check(PeriodReader(), "April"), "April")


def test_a_rubric_with_mention_checks_has_a_stable_digest() -> None:
    period = _check(PeriodReader(), "2026-04").model_copy(update={"name": "p"})
    rubric = Rubric(checks=(_check(TEAMS, "billing"), period))
    again = Rubric.model_validate_json(rubric.model_dump_json())
    assert again.digest() == rubric.digest()


def _notes_ctx(own: str, others: list[str]) -> Any:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, entity_id INTEGER, body TEXT)")
    db.executemany(
        "INSERT INTO notes (entity_id, body) VALUES (?, ?)",
        [(1, own), *((2, body) for body in others)],
    )
    meta = SimpleNamespace(answer=None, answer_capped=None)
    return SimpleNamespace(params={}, final_db=db, bundle=SimpleNamespace(meta=meta))


OWN_AND_OTHERS = MentionMatch(
    name="c",
    reader=PeriodReader(document_dates="ignored"),
    expected="2026-04",
    allowed=["2026-05"],
    source="sql",
    sql="SELECT body FROM notes WHERE entity_id = 1 ORDER BY id",
    others_sql="SELECT body FROM notes WHERE entity_id <> 1 ORDER BY id",
)


@pytest.mark.parametrize(
    ("own", "others", "passes"),
    [
        ("Belongs to April.", ["Posted as asked, in May."], True),
        ("Belongs to April.", [], True),
        ("Belongs to April.", ["Dated as asked; it belongs to March 2026."], False),
        ("Belongs to April.", ["Fine.", "Period P3."], False),
        ("Belongs to April.", ["Or maybe J.u.n.e."], False),  # look-alikes there too
        ("Posted.", ["Belongs to April."], False),  # the expected item counts in its own text
        # each further text is read alone: a document date ending one note keeps its
        # exemption whatever the next note says
        (
            "Belongs to April. (Issued in March.)",
            ["Belongs to April. (Issued in March.)", "Posted in May, the open period."],
            True,
        ),
    ],
)
def test_others_sql_texts_are_read_for_other_items_only(
    own: str, others: list[str], passes: bool
) -> None:
    """Issue 9 round 8 N2: the notes on the other records the agent wrote are read too."""
    assert eval_mention_match(OWN_AND_OTHERS, _notes_ctx(own, others)).passed is passes


def test_others_sql_at_its_default_keeps_a_rubrics_digest() -> None:
    check = MentionMatch(name="p", reader=PeriodReader(), expected="2026-04", sql="SELECT 1")
    assert "others_sql" not in Rubric(checks=(check,)).canonical_json()
    assert "others_sql" in Rubric(checks=(OWN_AND_OTHERS,)).canonical_json()
