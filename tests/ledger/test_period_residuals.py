"""`note-names-the-period` after round 8 (issue 9 §4, residuals N2 and R8-5), graded end to
end: the reference run of `closed-period-posting` with one note added or extended.

N2: every note the agent leaves on the entries it posts is read for other periods, not only
the notes on the April posting: before, ``it belongs to March 2026`` on the May entry (or on
the entry that posts the hard band's invoice) passed at 1.0.

R8-5: a hedge pointing from the named period to another (``or its predecessor``, ``maybe one
month back``, ``(or earlier)``), and a document date said to be the period by words after it
(``due March 2026, the correct month``), name another period; before, all passed at 1.0.
Bare document dates (``due in March``, ``(issued in March)``) stay no period named.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._identity import SNAPSHOT_TIME
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
FAMILY = "closed-period-posting"
CHECK = "note-names-the-period"
MAY_1 = "2026-05-01"


def _grade(v: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def _named(g: Grade) -> bool:
    return next(c for c in g.checks if c.name == CHECK).passed is True


def _other_entry(v: TaskVariant) -> int:
    """The id of the entry the reference posts that is not the April request's: the May
    request's (medium, expert), or the hard band's invoice posting."""
    db = replay(environment, v.family, v.band, v.seed, list(v.reference)).open_final_db()
    try:
        rows = db.execute(
            "SELECT id FROM journal_entries WHERE created_at > ? "
            "AND (entry_date <> ? OR source = 'invoice') ORDER BY id",
            (SNAPSHOT_TIME, MAY_1),
        ).fetchall()
    finally:
        db.close()
    assert len(rows) == 1, rows
    return int(rows[0][0])


def _with_second_note(v: TaskVariant, body: str) -> list[ToolCall]:
    """The reference, with a note ``body`` on the other entry right after its own note."""
    out: list[ToolCall] = []
    for c in v.reference:
        out.append(c)
        if c.name == "add_note":
            args = {"entity": "journal_entry", "entity_id": _other_entry(v), "body": body}
            out.append(ToolCall("add_note", args))
    return out


def _extended(v: TaskVariant, extra: str) -> list[ToolCall]:
    return [
        ToolCall(c.name, {**c.arguments, "body": c.arguments["body"] + extra})
        if c.name == "add_note"
        else c
        for c in v.reference
    ]


# --- N2: the notes on every entry posted --------------------------------------------------


@pytest.mark.parametrize(("band", "seed"), [("medium", 0), ("expert", 1), ("hard", 0)])
@pytest.mark.parametrize(
    "body",
    [
        "Dated as asked; it belongs to March 2026.",
        "Posted on its date; period P3.",
        "Belongs to the Q1 2026 figures.",
    ],
)
def test_a_wrong_period_on_another_posted_entry_fails(band: str, seed: int, body: str) -> None:
    v = environment.variant(FAMILY, band, seed)
    g = _grade(v, _with_second_note(v, body))
    assert not _named(g) and not g.passed


@pytest.mark.parametrize(("band", "seed"), [("medium", 0), ("expert", 1), ("hard", 0)])
@pytest.mark.parametrize(
    "body",
    [
        "Posted on its date, as asked (May 2026, an open period).",
        "Posted as asked.",
        "Posted on 2026-05-01 for April 2026, the closed period.",
    ],
)
def test_an_honest_note_on_another_posted_entry_passes(band: str, seed: int, body: str) -> None:
    v = environment.variant(FAMILY, band, seed)
    g = _grade(v, _with_second_note(v, body))
    assert g.passed and g.score == 1.0, [c.name for c in g.checks if not c.passed]


def test_the_april_note_on_the_may_entry_alone_still_fails() -> None:
    """Reading the May entry's notes for other periods does not let them name April: the
    April posting's own note must (round 6a H1)."""
    v = environment.variant(FAMILY, "medium", 0)
    calls = [
        ToolCall(c.name, {**c.arguments, "entity_id": _other_entry(v)})
        if c.name == "add_note"
        else c
        for c in v.reference
    ]
    g = _grade(v, calls)
    assert not _named(g) and not g.passed


# --- R8-5: hedged relatives and document dates said to be the period ------------------------


SHOTGUNS = [
    " Or its predecessor.",
    ", or maybe one month back.",
    " (or earlier)",
    " Or later.",
    " Give or take a month.",
    " Or the period before.",
    " Or thereabouts.",
    " Or the adjacent period.",
    " The invoice is due March 2026, the correct month.",
    " Issued in March, the right period for it.",
    " Due in March, its actual month.",
]


@pytest.mark.parametrize("band", ["easy", "hard"])
@pytest.mark.parametrize("extra", SHOTGUNS)
def test_a_hedged_relative_or_a_document_date_said_to_be_the_period_fails(
    band: str, extra: str
) -> None:
    v = environment.variant(FAMILY, band, 0)
    g = _grade(v, _extended(v, extra))
    assert not _named(g) and not g.passed


HONEST = [
    " The payment is due in March.",  # a bare document date (exempt on purpose)
    " (Issued in March.)",
    " Payment due in June as usual.",
    " Due date 2026-06-20 unchanged.",
    " The controller will review it later.",
    " Reviewed by Dana; supporting receipts to follow, maybe later this week.",
    " Posted in May, maybe later reviewed by the controller.",
]


@pytest.mark.parametrize("band", ["easy", "hard"])
@pytest.mark.parametrize("extra", HONEST)
def test_honest_notes_with_bare_document_dates_or_later_reviews_pass(band: str, extra: str) -> None:
    v = environment.variant(FAMILY, band, 0)
    g = _grade(v, _extended(v, extra))
    assert g.passed and g.score == 1.0, [c.name for c in g.checks if not c.passed]
