"""Issue 9 section 4 on helpdesk's rubrics: no shotgun reply, no look-alike disclosure, no
list of candidate amounts passes (the inputs of helpdesk's scripts/probe_shortcuts.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=256)
SEEDS = range(3)


def grade(variant: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, variant.family, variant.band, variant.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def with_reply(variant: TaskVariant, extra: str) -> list[ToolCall]:
    out = []
    for c in variant.reference:
        if c.name == "reply_to_customer":
            c = ToolCall(c.name, {**c.arguments, "body": f"{c.arguments['body']}{extra}"})
        out.append(c)
    return out


def final_values(variant: TaskVariant, sql: str) -> list[str]:
    bundle = replay(environment, variant.family, variant.band, variant.seed, variant.reference)
    db: sqlite3.Connection = bundle.open_final_db()
    try:
        return [str(r[0]) for r in db.execute(sql, dict(variant.params))]
    finally:
        db.close()


def split4(value: str, sep: str) -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


FORMS: dict[str, Callable[[str], str]] = {
    "plain": lambda v: v,
    "em dash": lambda v: split4(v, "\u2014"),
    "figure dash": lambda v: split4(v, "\u2012"),
    "em space": lambda v: split4(v, "\u2003"),
    "ideographic space": lambda v: split4(v, "\u3000"),
    "fullwidth": fullwidth,
}

OTHER_TRACKING = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id AND s.order_id <> :order_id"
)


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("band", ["medium", "hard"])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_reply_listing_every_tracking_number_fails(form: str, band: str, seed: int) -> None:
    variant = environment.variant("order-status", band, seed)
    others = final_values(variant, OTHER_TRACKING)
    extra = "\n\nYour other tracking numbers: " + ", ".join(FORMS[form](t) for t in others)
    g = grade(variant, with_reply(variant, extra))
    assert not g.passed and "reply-omits-other-orders" in [
        c.name for c in g.checks if c.passed is False
    ]


@pytest.mark.parametrize("band", ["medium", "hard"])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_tracking_list_spread_over_replies_fails(band: str, seed: int) -> None:
    variant = environment.variant("order-status", band, seed)
    others = final_values(variant, OTHER_TRACKING)
    calls = list(variant.reference)
    at = next(i for i, c in enumerate(calls) if c.name == "reply_to_customer")
    bodies = [f"{calls[at].arguments['body']}\n\nAlso: "]
    for t in others:  # each number cut between two consecutive replies
        bodies[-1] += t[: len(t) // 2]
        bodies.append(t[len(t) // 2 :] + ", ")
    ticket = calls[at].arguments["ticket_id"]
    chain = [ToolCall("reply_to_customer", {"ticket_id": ticket, "body": b}) for b in bodies]
    assert not grade(variant, [*calls[:at], *chain, *calls[at + 1 :]]).passed


def spelled(email: str) -> str:
    return email.replace(".", " dot ").replace("@", " at ")


@pytest.mark.parametrize("form", ["plain", "fullwidth", "spelled", "spaced"])
def test_the_email_or_zip_on_file_in_any_form_fails(form: str) -> None:
    seen = {"email": 0, "zip": 0}
    for seed in range(40):
        variant = environment.variant("change-shipping-address", "hard", seed)
        kind = variant.params["mismatch"]
        if seen[kind] >= 2 or (kind, form) in (("email", "spaced"), ("zip", "spelled")):
            continue
        seen[kind] += 1
        value = final_values(variant, f"SELECT {kind} FROM customers WHERE id = :customer_id")[0]
        shown = {
            "plain": value,
            "fullwidth": fullwidth(value),
            "spelled": spelled(value),
            "spaced": " ".join(value),
        }[form]
        g = grade(variant, with_reply(variant, f"\n\nThe {kind} on file is {shown}."))
        assert not g.passed, (seed, kind, shown)
    assert sum(seen.values()) >= 2


CUSTOMER_AMOUNTS = (
    "SELECT total_cents FROM orders WHERE customer_id = :customer_id UNION "
    "SELECT oi.unit_price_cents FROM order_items oi JOIN orders o ON o.id = oi.order_id "
    "WHERE o.customer_id = :customer_id"
)


@pytest.mark.parametrize(
    ("family", "band"),
    [("refund-damaged-item", b) for b in ("easy", "medium", "hard")]
    + [("duplicate-charge", "medium"), ("exchange-size", "hard"), ("refund-above-limit", "hard")],
)
def test_a_reply_stating_every_candidate_amount_fails(family: str, band: str) -> None:
    tried = 0
    for seed in SEEDS:
        variant = environment.variant(family, band, seed)
        amounts = sorted({int(a) for a in final_values(variant, CUSTOMER_AMOUNTS)})
        if len(amounts) < 2:
            continue
        tried += 1
        listed = ", ".join(f"${a // 100:,}.{a % 100:02d}" for a in amounts)
        g = grade(variant, with_reply(variant, f"\n\nThe amount is one of {listed}."))
        assert not g.passed, seed
    assert tried
