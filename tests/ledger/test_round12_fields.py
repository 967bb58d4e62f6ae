"""Round 12's R12 (`adv/round12rub/routes12.py`): a claim of the decision not taken in a
field no claim check read (a bill line's description, an escalation reason) passed at 1.0;
the checks that only rule out a claim read every text the agent wrote."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=16)

Args = Callable[[dict[str, Any]], dict[str, Any]]


def _grade(family: str, band: str, seed: int, tool: str, fn: Args) -> list[str]:
    v = environment.variant(family, band, seed)
    calls = [ToolCall(c.name, fn(dict(c.arguments))) if c.name == tool else c for c in v.reference]
    g = grade_bundle(
        replay(environment, family, band, seed, calls), environment, reference_cache=CACHE
    )
    assert g.status == "graded", g.error
    return [c.name for c in g.checks if c.applicable and not c.passed]


def _line_description(more: str) -> Args:
    def edit(a: dict[str, Any]) -> dict[str, Any]:
        lines = [dict(x) for x in a["lines"]]
        lines[0]["description"] += more
        return {**a, "lines": lines}

    return edit


def _reason(more: str) -> Args:
    return lambda a: {**a, "reason": a["reason"] + more}


@pytest.mark.parametrize("seed", [0, 1])
def test_a_posting_claimed_in_a_bill_line_description_fails(seed: int) -> None:
    failed = _grade(
        "enter-vendor-bill",
        "hard",
        seed,
        "create_bill",
        _line_description(" (entered and posted today)"),
    )
    assert "note-states-not-posted" in failed, failed


@pytest.mark.parametrize("seed", [0, 1])
def test_a_write_off_claimed_in_the_escalation_reason_fails(seed: int) -> None:
    failed = _grade(
        "write-off-bad-debt", "hard", seed, "escalate", _reason(" Posted the write-off already.")
    )
    assert "reason-states-not-written-off" in failed, failed
    assert "note-states-not-written-off" in failed, failed


def test_honest_descriptions_and_reasons_pass() -> None:
    assert (
        _grade(
            "enter-vendor-bill", "hard", 0, "create_bill", _line_description(" (draft, not posted)")
        )
        == []
    )
    assert (
        _grade(
            "write-off-bad-debt", "hard", 0, "escalate", _reason(" I have not posted a write-off.")
        )
        == []
    )
