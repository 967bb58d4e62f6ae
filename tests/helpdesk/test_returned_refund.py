"""refund-damaged-item expert: the honest ``I've returned $X to your card`` (the refund made
now) passes; ``returned`` alone was a cue of the earlier refund's role only, so the amount
refunded now stood in the wrong role (round 12's F12c: 14/16)."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=8)


def _graded(seed: int, old: str, new: str):
    v = environment.variant("refund-damaged-item", "expert", seed)
    calls = list(v.reference)
    last = max(i for i, c in enumerate(calls) if c.name == "reply_to_customer")
    body = str(calls[last].arguments["body"])
    assert old in body
    args = {**calls[last].arguments, "body": body.replace(old, new)}
    calls[last] = ToolCall(calls[last].name, args)
    return grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )


@pytest.mark.parametrize("seed", [0, 1])
def test_ive_returned_the_refund_passes(seed: int) -> None:
    g = _graded(seed, "I've refunded", "I've returned")
    assert g.passed, [c.name for c in g.checks if c.applicable and not c.passed]
