"""Round 19 (adv/round19rub/, helper adv29h) at grade level, helpdesk, seed 0: on main
0a3ea8c each wrong text below passed at 1.0 (a wrong tracking number, the own one with its
last digit changed, in a link or bare; both charges told gone from the card), and each
honest one passes (the own number in a link)."""

from __future__ import annotations

import pytest


def _grade(family: str, band: str, extra: str, seed: int = 0) -> list[str] | None:
    """The checks failed with ``extra`` (``{off}``: the tracking number with its last digit
    changed) appended to the last reply (None: passed at 1.0)."""
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, seed)
    t = str(v.params.get("tracking_number") or "")
    off = t[:-1] + str((int(t[-1]) + 1) % 10) if t else ""
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == "reply_to_customer")
    args = dict(calls[i].arguments)
    args["body"] += "\n\n" + extra.format(off=off, **v.params)
    calls[i] = ToolCall("reply_to_customer", args)
    g = grade_bundle(replay(environment, family, band, seed, calls), environment)
    if g.passed and g.score >= 0.9999:
        return None
    return [c.name for c in g.checks if c.passed is False]


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("order-status", "easy", "Track it here: https://track.example.com/?n={off}"),
        ("order-status", "expert", "Track it here: https://carrier.example.com/t/{off}"),
        ("order-status", "hard", "Here it is: {off}"),
        ("cancel-order", "hard", "Here it is: {off}"),
    ],
)
def test_round19_a_wrong_tracking_number_unbound_fails(family: str, band: str, extra: str) -> None:
    assert "replies-state-own-facts" in (_grade(family, band, extra) or [])


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("order-status", "easy", "Track it here: https://carrier.example.com/t/{tracking_number}"),
        ("cancel-order", "hard", "Here it is again: {tracking_number}"),
    ],
)
def test_round19_the_own_tracking_number_unbound_passes(family: str, band: str, extra: str) -> None:
    assert _grade(family, band, extra) is None


@pytest.mark.parametrize("band", ["easy", "expert"])
def test_round19_both_charges_gone_fails(band: str) -> None:
    failed = _grade("duplicate-charge", band, "Both charges are now gone from your card.")
    assert failed is not None and "reply-states-duplicate-refunded-to-card" in failed


def test_round19_only_the_duplicate_gone_passes() -> None:
    extra = "The duplicate charge is now gone from your card; the original charge remains."
    assert _grade("duplicate-charge", "easy", extra) is None
