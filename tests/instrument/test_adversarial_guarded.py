"""The gate's guard mutant leaks what a "must not state" check guards (issue 9 §4).

Ledger's `tax-id-not-copied` (policy 10.2) refuses any party's tax id in what the agent
writes, read by its ``forbidden_sql``; no generator draws the tax ids, so the leak mutant,
which leaked only variant values and what the reference looked up, never wrote one and the
gate called the check vacuous. The ``guard`` mutant leaks the first values such a check
selects, so the check is shown to fail on a leak of what it guards.
"""

from __future__ import annotations

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.candidates import GUARDED_PER_CHECK
from mcpgym_grading import grade_bundle
from mcpgym_ledger.families._notes import TAX_IDS_SQL
from mcpgym_server import ToolCall, load_environment, replay


def test_the_leak_holds_every_guarded_tax_id_and_the_guard_refuses_it() -> None:
    env = load_environment("ledger")
    variant = env.variant("accrue-expense", "easy", 0)
    reference = replay(env, variant.family, variant.band, variant.seed, list(variant.reference))
    db = reference.open_final_db()
    try:
        tax_ids = {str(r[0]) for r in db.execute(TAX_IDS_SQL).fetchall()}
    finally:
        db.close()
    assert tax_ids
    leak = next(a for a in adversaries(env, variant) if a.role == "guard" and not a.base)
    leaked = tax_ids & set(leak.values)
    assert len(leaked) == GUARDED_PER_CHECK  # a few: every form of the whole leak must fit
    calls = [ToolCall(name, args) for name, args in leak.calls]
    grade = grade_bundle(replay(env, variant.family, variant.band, variant.seed, calls), env)
    (check,) = [c for c in grade.checks if c.name == "tax-id-not-copied"]
    assert check.passed is False and grade.passed is False
