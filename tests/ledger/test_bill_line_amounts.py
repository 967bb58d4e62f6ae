"""A bill note may list each line's net and tax (adversarial round 10, FF8): true figures the
reference's note leaves out pass (they failed `texts-state-no-other-amount` and
`note-states-amount` in medium, hard and expert); a wrong line figure still fails."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._common import money
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=16)


def _graded(v: TaskVariant, extra: str) -> dict[str, bool]:
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "add_note" and args.get("entity_id") == v.params["bill_id"]:
            args["body"] += extra
        calls.append(ToolCall(c.name, args))
    g = grade_bundle(replay(environment, v.family, v.band, v.seed, calls), environment)
    return {c.name: bool(c.passed) for c in g.checks if c.applicable} | {"passed": g.passed}


def _lines(v: TaskVariant, bump: int = 0) -> str:
    parts = [
        f"{acct}: {money(net + bump)} net + {money(tax)} tax"
        for acct, net, _code, tax in v.params["lines"]
    ]
    return f" Lines: {'; '.join(parts)}."


@pytest.mark.parametrize("band", ["medium", "hard", "expert"])
def test_each_lines_net_and_tax_pass(band: str) -> None:
    v = environment.variant("enter-vendor-bill", band, 0)
    assert _graded(v, _lines(v))["passed"] is True


def test_a_wrong_line_figure_fails() -> None:
    v = environment.variant("enter-vendor-bill", "medium", 0)
    assert _graded(v, _lines(v, bump=1))["texts-state-no-other-amount"] is False
