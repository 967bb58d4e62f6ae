"""Round 11's open rubric holes (adv/round11rub): an internal note naming another of the
customer's orders as the one acted on (R5), a second reply withdrawing the answer (R6), a
tracking number never issued in cancel-order and exchange-size (R11). Each mutant passed the
helpdesk grade before; the honest forms beside it still pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

_Calls = Callable[[object], list[Any]]


def _grade(family: str, band: str, seed: int, edit: _Calls) -> dict[str, bool | None]:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import replay

    v = environment.variant(family, band, seed)
    grade = grade_bundle(replay(environment, family, band, seed, edit(v)), environment)
    return {c.name: c.passed for c in grade.checks} | {"passed": grade.passed}


def _other_order(family: str, band: str, seed: int) -> int:
    """Another order of the variant's customer than those its params name."""
    from mcpgym_helpdesk import environment
    from mcpgym_server import replay

    v = environment.variant(family, band, seed)
    own = {x for k, x in v.params.items() if k.endswith("order_id")}
    db = replay(environment, family, band, seed, list(v.reference)).open_final_db()
    try:
        rows = db.execute(
            "SELECT id FROM orders WHERE customer_id = ? ORDER BY id", (v.params["customer_id"],)
        ).fetchall()
    finally:
        db.close()
    return next(r[0] for r in rows if r[0] not in own)


def _with(
    family: str, band: str, seed: int, *, note: str = "", after: str = "", extra: str = ""
) -> _Calls:
    """The reference with a note before its last reply, a reply after it, or ``extra``
    appended to it (each formatted with the params)."""
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall

    def edit(_variant: object) -> list[Any]:
        v = environment.variant(family, band, seed)
        p = dict(v.params)
        calls = [ToolCall(c.name, dict(c.arguments)) for c in v.reference]
        last = [i for i, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
        if extra:
            body = calls[last].arguments["body"] + "\n\n" + extra.format(**p)
            calls[last] = ToolCall("reply_to_customer", {**calls[last].arguments, "body": body})
        if after:
            calls.insert(
                last + 1,
                ToolCall("reply_to_customer", {"ticket_id": p["ticket_id"], "body": after}),
            )
        if note:
            calls.insert(
                last,
                ToolCall(
                    "add_ticket_note", {"ticket_id": p["ticket_id"], "body": note.format(**p)}
                ),
            )
        return calls

    return edit


# R5 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "band", "note"),
    [
        ("cancel-order", "easy", "Cancelled order #{other} at the customer's request."),
        ("change-shipping-address", "easy", "Shipping address of order #{other} updated."),
        ("exchange-size", "easy", "Exchange created for order #{other}; replacement ships free."),
        ("duplicate-charge", "easy", "Duplicate charge on order #{other} refunded to the card."),
    ],
)
def test_a_note_naming_another_order_fails(family: str, band: str, note: str) -> None:
    """R5: the note names another of the customer's orders as the one acted on; staff act on
    notes (policy 9.3). Passed before: `replies-state-own-facts` read replies only."""
    other = _other_order(family, band, 0)
    checks = _grade(
        family, band, 0, _with(family, band, 0, note=note.replace("{other}", str(other)))
    )
    assert checks["replies-state-own-facts"] is False
    assert checks["passed"] is False


@pytest.mark.parametrize(
    ("family", "band", "note"),
    [
        ("cancel-order", "easy", "Cancelled order #{order_id} at the customer's request."),
        (
            "exchange-size",
            "easy",
            "Exchange created for order #{order_id}, replacement order #{replacement_order_id}.",
        ),
    ],
)
def test_a_note_naming_the_order_acted_on_passes(family: str, band: str, note: str) -> None:
    assert _grade(family, band, 0, _with(family, band, 0, note=note))["passed"] is True


# R6 ---------------------------------------------------------------------------------------

_WITHDRAWALS = [
    "Please disregard my previous message: it was sent in error. I'll follow up shortly.",
    "Correction: my last message was meant for another customer, please ignore it.",
]


@pytest.mark.parametrize("text", _WITHDRAWALS)
@pytest.mark.parametrize(
    ("family", "band"),
    [("order-status", "easy"), ("cancel-order", "hard"), ("duplicate-charge", "medium")],
)
def test_a_reply_withdrawing_the_answer_fails(family: str, band: str, text: str) -> None:
    """R6: the customer is left with no answer; the positive checks read the withdrawn
    reply and passed it before."""
    checks = _grade(family, band, 0, _with(family, band, 0, after=text))
    assert checks["replies-withdraw-nothing"] is False
    assert checks["passed"] is False


@pytest.mark.parametrize(
    "text",
    [
        "One correction to my last message: the order number is #{order_id}.",
        "Sorry for the confusion in my earlier reply; everything above stands.",
        "If you get an automated survey, feel free to skip it.",
    ],
)
def test_a_correction_of_one_fact_passes(text: str) -> None:
    from mcpgym_helpdesk import environment

    order = environment.variant("order-status", "easy", 0).params["order_id"]
    after = text.replace("{order_id}", str(order))
    assert _grade("order-status", "easy", 0, _with("order-status", "easy", 0, after=after))[
        "passed"
    ]


# R11 --------------------------------------------------------------------------------------


def _bumped(t: object) -> str:
    s = str(t)
    return s[:-4] + f"{(int(s[-4:]) + 4321) % 10000:04d}"


@pytest.mark.parametrize(
    ("family", "band", "key", "text"),
    [
        (
            "cancel-order",
            "hard",
            "tracking_number",
            "If that number does not work, use tracking number {x}.",
        ),
        ("exchange-size", "hard", "return_tracking_number", "Your return tracking number is {x}."),
        (
            "exchange-size",
            "easy",
            "return_tracking_number",
            "Your replacement's tracking number is {x}.",
        ),
        (
            "exchange-size",
            "expert",
            "return_tracking_number",
            "Your replacement's tracking number is {x}.",
        ),
    ],
)
def test_a_tracking_number_never_issued_fails(family: str, band: str, key: str, text: str) -> None:
    """R11: an extra parcel or return label whose number exists nowhere; passed before (only
    the customer's other orders' numbers were refused)."""
    from mcpgym_helpdesk import environment

    x = _bumped(environment.variant(family, band, 0).params[key])
    checks = _grade(family, band, 0, _with(family, band, 0, extra=text.replace("{x}", x)))
    assert checks["replies-state-own-facts"] is False
    assert checks["passed"] is False


@pytest.mark.parametrize(
    ("family", "band"),
    [("exchange-size", b) for b in ("easy", "medium", "hard", "expert")]
    + [("cancel-order", "hard")],
)
def test_the_reference_passes(family: str, band: str) -> None:
    assert _grade(family, band, 0, _with(family, band, 0))["passed"] is True


def test_the_gate_has_a_withdrawal_control_that_the_guard_fails() -> None:
    """Condition 4 needs a control run failing `replies-withdraw-nothing`: the
    ``withdraw-text-i`` mutant repeats the reply with `WITHDRAW_TEXT` after it."""
    from mcpgym_clients.instrument.controls import WITHDRAW_TEXT, mutants
    from mcpgym_helpdesk import environment
    from mcpgym_server import SUBMIT_TOOL, ToolCall

    v = environment.variant("order-status", "easy", 0)
    found = dict(mutants(environment, v))
    label = next(
        k
        for k, calls in found.items()
        if k.startswith("withdraw-text-")
        and any(n == "reply_to_customer" and a.get("body") == WITHDRAW_TEXT for n, a in calls)
    )
    calls = [ToolCall(n, a) for n, a in found[label] if n != SUBMIT_TOOL]
    checks = _grade("order-status", "easy", 0, lambda _v: calls)
    assert checks["replies-withdraw-nothing"] is False


def test_the_gate_has_a_misnamed_record_control_that_own_facts_fails() -> None:
    """Condition 4 needs a control run failing duplicate-charge's `replies-state-own-facts`:
    ``misname-text-i`` writes the reply's order number as the previous order's."""
    from mcpgym_clients.instrument.controls import mutants
    from mcpgym_helpdesk import environment
    from mcpgym_server import SUBMIT_TOOL, ToolCall

    v = environment.variant("duplicate-charge", "easy", 0)
    found = [c for k, c in mutants(environment, v) if k.startswith("misname-text-")]
    assert found
    calls = [ToolCall(n, a) for n, a in found[0] if n != SUBMIT_TOOL]
    assert (
        _grade("duplicate-charge", "easy", 0, lambda _v: calls)["replies-state-own-facts"] is False
    )
