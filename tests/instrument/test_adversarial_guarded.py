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


def test_a_guard_that_reads_texts_through_grading_functions_is_leaked_too() -> None:
    """Helpdesk's `reply-reveals-no-details-on-file` reads the replies through
    `mcpgym_unquoted` (the customer's quoted words dropped): its ``forbidden_sql`` fails on a
    connection without the grading SQL functions, and the guard mutant, which read it on one,
    leaked nothing, so the gate called the check vacuous in six families (stop 22)."""
    env = load_environment("helpdesk")
    variant = env.variant("order-status", "expert", 0)
    reference = replay(env, variant.family, variant.band, variant.seed, list(variant.reference))
    db = reference.open_final_db()
    try:
        dob = db.execute(
            "SELECT date_of_birth FROM customers WHERE id = ?", (variant.params["customer_id"],)
        ).fetchone()[0]
    finally:
        db.close()
    guards = [a for a in adversaries(env, variant) if a.role == "guard" and not a.base]
    leak = next(a for a in guards if dob in a.values)
    calls = [ToolCall(name, args) for name, args in leak.calls]
    grade = grade_bundle(replay(env, variant.family, variant.band, variant.seed, calls), env)
    (check,) = [c for c in grade.checks if c.name == "reply-reveals-no-details-on-file"]
    assert check.passed is False and grade.passed is False
