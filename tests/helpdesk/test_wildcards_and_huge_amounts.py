"""The helpdesk tools take user text and amounts literally: LIKE wildcards in a search match
nothing special, and money amounts large enough to overflow SQLite's integer sums are tool
errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcpgym_helpdesk import environment
from mcpgym_helpdesk.tools._common import MAX_AMOUNT_CENTS, like_contains
from mcpgym_server import Sandbox, ToolCall, ToolError, VirtualClock, replay


@pytest.fixture
def sb() -> Sandbox:
    return Sandbox(
        db=environment.snapshot.open_copy(),
        clock=VirtualClock(environment.clock_start, environment.clock_step),
        seed=0,
        episode_id="t",
    )


def call(sb: Sandbox, tool: str, /, **arguments: Any) -> Any:
    """Call a tool the way the runtime does (tick, validate, run); the result is JSON."""
    sb.clock.tick()
    spec = environment.tools[tool]
    result = spec.fn(sb, **spec.validate(arguments))
    assert json.loads(json.dumps(result)) == result
    return result


# -- LIKE patterns: user text is literal --------------------------------------------------------


def test_like_contains_escapes_wildcards() -> None:
    assert like_contains("a%b_c\\d") == "%a\\%b\\_c\\\\d%"
    assert like_contains("plain") == "%plain%"


@pytest.mark.parametrize("text", ["%", "_", "\\", "%%", "_%_", "a%", "%\\"])
def test_wildcards_match_nothing(sb: Sandbox, text: str) -> None:
    assert call(sb, "find_customers", name=text) == []
    assert call(sb, "search_products", query=text) == []
    assert call(sb, "find_orders", product_name=text) == []


def test_wildcard_name_search_on_the_server() -> None:
    """The reported case: find_customers(name="%") returned 25 customers."""
    bundle = replay(
        environment, "order-status", "easy", 0, [ToolCall("find_customers", {"name": "%"})]
    )
    entry = bundle.log[0]
    assert entry.status == "ok" and entry.result == []


def test_literal_special_characters_still_match(sb: Sandbox) -> None:
    sb.db.execute(
        "INSERT INTO customers (first_name, last_name, email, phone, date_of_birth, zip, "
        "created_at) VALUES ('Zed', 'Under_Score%', 'zed@example.org', '(555) 555-0199', "
        "'1990-01-01', '80302', '2026-01-01T00:00:00Z')"
    )
    found = call(sb, "find_customers", name="under_score%")
    assert [c["last_name"] for c in found] == ["Under_Score%"]
    assert call(sb, "find_customers", name="underXscore") == []
    assert call(sb, "find_customers", name="under%core") == []
    # ordinary searches are unchanged
    product = sb.db.execute("SELECT name FROM products ORDER BY id").fetchone()[0]
    word = product.split()[0]
    assert product in [p["name"] for p in call(sb, "search_products", query=word.lower())]
    assert call(sb, "find_orders", product_name=product)


# -- money amounts are bounded -------------------------------------------------------------------


def _customer_and_order(sb: Sandbox) -> tuple[int, int]:
    row = sb.db.execute(
        "SELECT o.customer_id, o.id FROM orders o JOIN payments p ON p.order_id = o.id "
        "WHERE p.status = 'captured' AND p.refunded_cents = 0 ORDER BY o.id"
    ).fetchone()
    return int(row[0]), int(row[1])


def test_store_credit_amount_is_bounded(sb: Sandbox) -> None:
    customer_id, _ = _customer_and_order(sb)
    before = call(sb, "get_customer", customer_id=customer_id)["store_credit_balance_cents"]
    for amount in (2**62, 2**62, MAX_AMOUNT_CENTS + 1):
        with pytest.raises(ToolError, match=f"at most {MAX_AMOUNT_CENTS} cents"):
            call(sb, "add_store_credit", customer_id=customer_id, amount_cents=amount, reason="x")
    res = call(
        sb, "add_store_credit", customer_id=customer_id, amount_cents=MAX_AMOUNT_CENTS, reason="x"
    )
    assert res["store_credit_balance_cents"] == before + MAX_AMOUNT_CENTS


def test_store_credit_overflow_is_a_tool_error_on_the_server() -> None:
    """The reported case: add_store_credit(2**62) twice was an internal error."""
    variant = environment.variant("order-status", "easy", 0)
    credit = ToolCall(
        "add_store_credit",
        {"customer_id": variant.params["customer_id"], "amount_cents": 2**62, "reason": "x"},
    )
    bundle = replay(environment, "order-status", "easy", 0, [credit, credit])
    assert [e.status for e in bundle.log[:2]] == ["tool_error", "tool_error"]
    assert bundle.meta.internal_errors == 0


def test_refund_amount_is_bounded(sb: Sandbox) -> None:
    _, order_id = _customer_and_order(sb)
    with pytest.raises(ToolError, match=f"at most {MAX_AMOUNT_CENTS} cents"):
        call(
            sb,
            "issue_refund",
            order_id=order_id,
            amount_cents=2**62,
            method="store_credit",
            reason="x",
        )
