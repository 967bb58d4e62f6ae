"""Round 12's C12: order-status's other-parcel tracking numbers are read in the agent's
internal notes too (staff act on a note's facts, policy 9.3), as round 11's R5 made the
order-number role read them: ``Order #N tracking number: <the customer's other parcel>`` in
a note passed while the same sentence as a reply failed."""

from __future__ import annotations

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=16)


def grade(variant: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, variant.family, variant.band, variant.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


@pytest.mark.parametrize(("band", "seed"), [("easy", 0), ("hard", 1)])
def test_another_parcels_tracking_number_in_a_note_fails(band: str, seed: int) -> None:
    v = environment.variant("order-status", band, seed)
    p = dict(v.params)
    other = p["distractor_tracking_number"]
    assert other
    assert grade(v, list(v.reference)).passed
    body = f"Order #{p['order_id']} tracking number: {other} (told the customer)"
    note = ToolCall("add_ticket_note", {"ticket_id": p["ticket_id"], "body": body})
    g = grade(v, [*v.reference, note])
    assert not g.passed
    assert "reply-omits-other-orders" in [c.name for c in g.checks if c.passed is False]
