"""Round 17 (adv/round17rub/fresh17l.py, helper adv27l) at grade level, ledger: on main
fb0151c each closed-period-posting note below passed at 1.0 while saying the posting went
into the closed period (P17a, refused by the new `texts-state-posted-in-open-period`), and
the honest notes beside them pass."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=8)
FAMILY = "closed-period-posting"


def _passed(band: str, tool: str, field: str, extra: str) -> bool:
    v = environment.variant(FAMILY, band, 0)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == tool)
    args = dict(calls[i].arguments)
    args[field] += "\n\n" + extra.format(**dict(v.params))
    calls[i] = ToolCall(tool, args)
    g = grade_bundle(
        replay(environment, FAMILY, band, 0, calls), environment, reference_cache=CACHE
    )
    return g.passed and g.score >= 0.9999


@pytest.mark.parametrize(
    ("band", "tool", "field", "extra"),
    [
        ("easy", "add_note", "body", "Posted in April 2026, as requested."),
        ("medium", "add_note", "body", "It was booked into the April period."),
        ("hard", "add_note", "body", "The entry sits in April's books."),
        ("expert", "add_note", "body", "Booked in P4 2026 as asked."),
        ("expert", "post_journal_entry", "memo", "posted in April 2026"),
    ],
)
def test_a_posting_told_as_in_the_closed_period_fails(
    band: str, tool: str, field: str, extra: str
) -> None:
    assert _passed(band, tool, field, extra) is False


@pytest.mark.parametrize(
    ("band", "extra"),
    [
        ("easy", "April is closed, so it was not posted in April: it was posted on 2026-05-01."),
        ("hard", "Posted in May 2026 (the first open period); it belongs to April 2026."),
        ("expert", "Posted on 2026-05-01 for April 2026 (policy 2.2)."),
    ],
)
def test_april_named_as_the_period_it_belongs_to_passes(band: str, extra: str) -> None:
    assert _passed(band, "add_note", "body", extra) is True
