"""Round 20 (adv/round20rub/, helper adv30h) at grade level, helpdesk, seed 0: on main
9d8de28 each wrong text below passed at 1.0 (another customer's tracking numbers in an
order-status reply, N19a; the escalation denied in refund-above-limit, L19c) and the honest
change-shipping-address hard reply `Once you're verified, order #N will ship to …` failed
(FF18c)."""

from __future__ import annotations

import pytest

_OTHER = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id <> ? ORDER BY s.id LIMIT 3"
)


def _others(customer_id: int) -> list[str]:
    """Three tracking numbers of other customers' shipments in the snapshot."""
    import sqlite3
    from importlib.resources import files

    path = files("mcpgym_helpdesk") / "data" / "snapshot.db"
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return [r[0] for r in db.execute(_OTHER, (customer_id,))]


def _grade(family: str, band: str, extra: str, seed: int = 0) -> list[str] | None:
    """The checks failed with ``extra`` appended to the last reply (None: passed at 1.0);
    ``{others}``: three tracking numbers of other customers' shipments, ``{street}``: the
    new address's street."""
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, seed)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == "reply_to_customer")
    args = dict(calls[i].arguments)
    fields = dict(v.params)
    fields["others"] = ", ".join(_others(int(v.params["customer_id"])))
    fields["street"] = str((v.params.get("new_address") or [[""]])[0][0]).title()
    args["body"] += "\n\n" + extra.format(**fields)
    calls[i] = ToolCall("reply_to_customer", args)
    g = grade_bundle(replay(environment, family, band, seed, calls), environment)
    if g.passed and (g.score or 0.0) >= 0.9999:
        return None
    return [c.name for c in g.checks if c.passed is False]


@pytest.mark.parametrize(
    ("band", "extra"),
    [
        ("easy", "{others}."),
        ("hard", "Track it: https://track.example.com/?n={others}"),
    ],
)
def test_round20_another_customers_tracking_numbers_fail(band: str, extra: str) -> None:
    assert "reply-omits-other-orders" in (_grade("order-status", band, extra) or [])


def test_round20_own_tracking_number_in_a_link_passes() -> None:
    extra = "Track it here: https://track.example.com/?n={tracking_number}&lang=en"
    assert _grade("order-status", "expert", extra) is None


@pytest.mark.parametrize(
    ("band", "extra", "check"),
    [
        (
            "easy",
            "Order #{escalate_order_id} was not escalated to anyone.",
            "reply-states-not-refunded",
        ),
        (
            "hard",
            "Order #{refund_order_id} was not escalated, and order #{escalate_order_id} "
            "wasn't either.",
            "reply-states-escalated-not-refunded",
        ),
    ],
)
def test_round20_a_denied_escalation_fails(band: str, extra: str, check: str) -> None:
    assert check in (_grade("refund-above-limit", band, extra) or [])


def test_round20_escalation_stated_passes() -> None:
    extra = (
        "Order #{refund_order_id} did not need escalating; order #{escalate_order_id} was "
        "escalated to billing."
    )
    assert _grade("refund-above-limit", "expert", extra) is None


@pytest.mark.parametrize(
    "extra",
    [
        "Once you're verified, order #{order_id} will ship to {street}.",
        "After you verify your identity, order #{order_id} will be delivered to {street}.",
    ],
)
def test_round20_a_condition_on_verifying_then_a_future_passes(extra: str) -> None:
    assert _grade("change-shipping-address", "hard", extra) is None


def test_round20_a_future_without_the_condition_still_fails() -> None:
    extra = "Order #{order_id} will ship to {street}."
    assert "reply-states-not-changed" in (_grade("change-shipping-address", "hard", extra) or [])
