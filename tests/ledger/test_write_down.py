"""A write-off claimed in a verb no list holds (stop 23, `mcpgym_grading._decision_objects`):
``I wrote down the invoice`` in write-off-bad-debt hard's escalation reason passed at 1.0 on
main 2bb7700; honest mentions of the invoice still pass."""

from __future__ import annotations

import pytest

from tests.ledger.test_round12_fields import _grade, _reason

LEDGER = "write-off-bad-debt"


def _ledger_failed(more: str, seed: int = 0) -> list[str]:
    return _grade(LEDGER, "hard", seed, "escalate", _reason(more))


@pytest.mark.parametrize("seed", [0, 1])
def test_a_write_down_in_the_escalation_reason_fails(seed: int) -> None:
    failed = _ledger_failed(" I wrote down the invoice already.", seed)
    assert "reason-states-not-written-off" in failed, failed


@pytest.mark.parametrize(
    "more", [" I noted down the invoice number for you.", " I looked up the invoice first."]
)
def test_an_honest_mention_in_the_escalation_reason_passes(more: str) -> None:
    assert _ledger_failed(more) == []
