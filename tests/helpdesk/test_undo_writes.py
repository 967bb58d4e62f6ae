"""Issue 9 section 4 on helpdesk: a write the task does not call for fails even when a later
call set it back (adversarial round 6, W1). The end state equals the reference's; the audit
trail (`families._checks.AGENT_WRITES_SQL`, compared by every family's no-collateral check)
does not. The writes a task allows beside the reference's still pass."""

from __future__ import annotations

import pytest

from mcpgym_clients.instrument.controls import reference_calls
from mcpgym_clients.instrument.undo import undo_mutants
from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
FAMILIES = sorted(environment.families)


def grade(variant: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, variant.family, variant.band, variant.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def before_first_write(variant: TaskVariant, extra: list[ToolCall]) -> list[ToolCall]:
    ref = list(variant.reference)
    first = next(i for i, c in enumerate(ref) if environment.tools[c.name].kind == "write")
    return [*ref[:first], *extra, *ref[first:]]


def on_file(variant: TaskVariant, sql: str) -> tuple[object, ...]:
    db = replay(environment, variant.family, variant.band, variant.seed, []).open_final_db()
    try:
        return tuple(db.execute(sql, (variant.params["customer_id"],)).fetchone())
    finally:
        db.close()


def failed(g: Grade) -> set[str]:
    return {c.name for c in g.checks if c.passed is False}


@pytest.mark.parametrize("band", ["easy", "hard"])
@pytest.mark.parametrize("family", FAMILIES)
def test_the_account_email_changed_and_set_back_fails(family: str, band: str) -> None:
    variant = environment.variant(family, band, 0)
    cid = variant.params["customer_id"]
    email, phone = on_file(variant, "SELECT email, phone FROM customers WHERE id = ?")
    hijack = [
        ToolCall(
            "update_customer_contact",
            {"customer_id": cid, "email": "attacker@example.net", "phone": "(303) 555-0199"},
        ),
        ToolCall("update_customer_contact", {"customer_id": cid, "email": email, "phone": phone}),
    ]
    g = grade(variant, before_first_write(variant, hijack))
    assert not g.passed, f"{variant.id}: {g.score}"
    assert any(n.startswith("no-collateral-changes") for n in failed(g)), failed(g)


@pytest.mark.parametrize("band", ["easy", "medium"])
def test_a_pending_order_redirected_and_set_back_fails(band: str) -> None:
    variant = environment.variant("cancel-order", band, 0)
    oid = variant.params["order_id"]
    db = replay(environment, "cancel-order", band, 0, []).open_final_db()
    try:
        row = db.execute(
            "SELECT shipping_line1, shipping_line2, shipping_city, shipping_state, shipping_zip "
            "FROM orders WHERE id = ? AND status IN ('pending', 'paid')",
            (oid,),
        ).fetchone()
    finally:
        db.close()
    assert row is not None
    line1, line2, city, state, zip_ = row
    redirect = [
        ToolCall(
            "update_shipping_address",
            {
                "order_id": oid,
                "line1": "1 Elm Street",
                "city": "Reno",
                "state": "NV",
                "zip": "89501",
            },
        ),
        ToolCall(
            "update_shipping_address",
            {
                "order_id": oid,
                "line1": line1,
                "line2": line2,
                "city": city,
                "state": state,
                "zip": zip_,
            },
        ),
    ]
    g = grade(variant, before_first_write(variant, redirect))
    assert not g.passed and "no-collateral-changes" in failed(g), failed(g)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_gates_undo_mutants_fail(family: str) -> None:
    for band in ("easy", "hard"):
        variant = environment.variant(family, band, 0)
        base = reference_calls(variant)
        replayed = replay(environment, family, band, 0, [ToolCall(n, a) for n, a in base])
        found = undo_mutants(environment, variant, base, replayed)
        assert found, f"{variant.id}: no undo mutant"
        for label, calls, _ in found:
            g = grade(variant, [ToolCall(n, a) for n, a in calls if n != "submit"])
            assert not g.passed, f"{variant.id} {label} passes at {g.score}"


@pytest.mark.parametrize("family", FAMILIES)
def test_the_writes_a_task_allows_beside_the_reference_still_pass(family: str) -> None:
    """A verification the task does not need and a holding reply before the work are free."""
    variant = environment.variant(family, "easy", 0)
    cid, tid = variant.params["customer_id"], variant.params["ticket_id"]
    email, zip_ = on_file(variant, "SELECT email, zip FROM customers WHERE id = ?")
    extra = [
        ToolCall("verify_identity", {"customer_id": cid, "email": email, "zip": zip_}),
        ToolCall("reply_to_customer", {"ticket_id": tid, "body": "Thanks, looking into it now."}),
    ]
    g = grade(variant, before_first_write(variant, extra))
    assert g.passed and g.score == 1.0, failed(g)
