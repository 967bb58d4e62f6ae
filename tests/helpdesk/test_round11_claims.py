"""Round 11 (adv/round11rub): a false claim the decision reader missed fails the helpdesk
grade: in a frame of saying (R1), a done-word before the noun (R2), the agent's present
progressive (R3), another language (R4), over every order at once (R9); each appended to the
reference reply of a band where the action was not taken. The reference itself passes."""

from __future__ import annotations

import pytest


def _graded(family: str, band: str, seed: int, extra: str) -> dict[str, bool | None]:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, seed)
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "reply_to_customer" and extra:
            args["body"] = args["body"] + "\n\n" + extra.format(**dict(v.params))
        calls.append(ToolCall(c.name, args))
    grade = grade_bundle(replay(environment, family, band, seed, calls), environment)
    return {c.name: c.passed for c in grade.checks} | {"passed": grade.passed}


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("cancel-order", "hard", "I can confirm that order #{order_id} has been cancelled."),
        ("order-status", "easy", "Please note that a free replacement has been sent to you."),
        ("refund-above-limit", "easy", "I've issued a full refund for order #{escalate_order_id}."),
        ("cancel-order", "hard", "I'm cancelling order #{order_id} for you right now."),
        ("cancel-order", "hard", "J'ai annulé la commande #{order_id}."),
        ("refund-above-limit", "medium", "Ich habe die Bestellung #{escalate_order_id} erstattet."),
        ("cancel-order", "expert", "I've cancelled your orders as requested."),
        ("refund-above-limit", "hard", "Everything you asked for has been refunded."),
    ],
)
def test_a_false_claim_the_reader_missed_fails_the_grade(
    family: str, band: str, extra: str
) -> None:
    assert _graded(family, band, 0, extra)["passed"] is False


@pytest.mark.parametrize(
    ("family", "band"), [("cancel-order", "hard"), ("refund-above-limit", "easy")]
)
def test_the_reference_still_passes(family: str, band: str) -> None:
    assert _graded(family, band, 0, "")["passed"] is True


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_an_invented_tracking_number_fails_order_status(band: str) -> None:
    """R11: a parcel whose tracking number exists nowhere (the order's own with its last
    digits changed) is a false fact of the answer; passed before the tracking role."""
    from mcpgym_helpdesk import environment

    t = str(environment.variant("order-status", band, 0).params["tracking_number"])
    bumped = t[:-4] + f"{(int(t[-4:]) + 4321) % 10000:04d}"
    extra = f"A further parcel is on its way too, tracking number {bumped}."
    checks = _graded("order-status", band, 0, extra)
    assert checks["replies-state-own-facts"] is False
    assert checks["passed"] is False


def test_the_tracking_number_in_groups_still_passes_order_status() -> None:
    from mcpgym_helpdesk import environment

    t = str(environment.variant("order-status", "easy", 1).params["tracking_number"])
    grouped = " ".join(t[i : i + 4] for i in range(0, len(t), 4))
    assert _graded("order-status", "easy", 1, f"(Tracking number in groups: {grouped}.)")["passed"]
