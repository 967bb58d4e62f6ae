"""The gate's ``amounts-i-allowed`` mutants state the policy figures the money checks allow
(the refund limit, the goodwill cap) bare beside the answer: a check that takes them in no
role is found (adversarial round 6, A1)."""

from __future__ import annotations

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.candidates import allowed_figures
from mcpgym_grading import grade_bundle
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_server import ToolCall, replay


def test_the_policy_figures_are_the_allowed_literals() -> None:
    v = helpdesk.variant("refund-above-limit", "hard", 0)
    assert allowed_figures(helpdesk, v) == [2000, 25000]


def test_the_allowed_figures_mutant_fails_the_amount_checks() -> None:
    v = helpdesk.variant("refund-above-limit", "hard", 0)
    mutants = [a for a in adversaries(helpdesk, v) if a.label.endswith("-allowed")]
    assert mutants and all(a.role == "amounts" for a in mutants)
    failed: set[str] = set()
    for a in mutants:
        bundle = replay(helpdesk, v.family, v.band, v.seed, [ToolCall(n, x) for n, x in a.calls])
        grade = grade_bundle(bundle, helpdesk, check_lock=False)
        failed |= {c.name for c in grade.checks if c.applicable and not c.passed}
    assert {"escalation-states-amount", "reply-states-refund-amount"} <= failed
