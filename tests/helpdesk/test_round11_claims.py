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
