"""Round 14 (adv/round14rub/claims14.py): the customer's request quoted back and affirmed
(``You wrote: "Please cancel order #N…" Done.``) claims the action: it fails where the action
was not taken and passes where it was; a ticked ``Refund order #N`` of the refund made is no
refund of both charges."""

from __future__ import annotations

import pytest


def _graded(family: str, band: str, extra: str) -> bool:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, 0)
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "reply_to_customer":
            args["body"] += "\n\n" + extra.format(**dict(v.params))
        calls.append(ToolCall(c.name, args))
    return grade_bundle(replay(environment, family, band, 0, calls), environment).passed


CANCEL_ASKED = "Please cancel order #{order_id}, I don't need it after all."


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("cancel-order", "hard", f'You wrote: "{CANCEL_ASKED}" Done.'),
        ("cancel-order", "hard", f"> {CANCEL_ASKED}\n\nDone, that's handled."),
        ("refund-damaged-item", "hard", 'You wrote: "Please refund that too." Done.'),
        ("cancel-order", "hard", "Wondering whether order #{order_id} was cancelled? It was."),
        ("cancel-order", "hard", "Ik heb bestelling #{order_id} geannuleerd."),
        ("refund-above-limit", "easy", "\u8ba2\u5355#{escalate_order_id}\u5df2\u9000\u6b3e\u3002"),
    ],
)
def test_an_affirmed_request_not_taken_fails(family: str, band: str, extra: str) -> None:
    assert _graded(family, band, extra) is False


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("cancel-order", "easy", 'You wrote: "Can you cancel my order #{order_id}?" Done.'),
        ("cancel-order", "hard", f"You wrote: \"{CANCEL_ASKED}\" I'm sorry, I can't."),
        ("refund-damaged-item", "easy", "- [x] Refund order #{order_id}"),
        ("refund-damaged-item", "hard", "\u2705 Refund order #{order_id}"),
    ],
)
def test_honest_forms_pass(family: str, band: str, extra: str) -> None:
    assert _graded(family, band, extra) is True
