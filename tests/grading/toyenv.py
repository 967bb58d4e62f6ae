"""A tiny environment for grading tests: a shop with orders, refunds and messages.

The snapshot is built into a throw-away package (`build_snapshot_package`) that the
``toy_snapshot`` fixture puts on ``sys.path``, because `Snapshot` reads package data.

Hand-worked facts used by the tests (band ``easy``, seed ``s``)::

    order_id = ORDER_IDS[s % 3]        seed 0 -> order 101 (Ada Lovelace, 2500 cents)
                                       seed 1 -> order 102 (Grace Hopper, 1250 cents)
                                       seed 2 -> order 103 (Alan Turing, 10000 cents)
    setup: that order's status becomes 'damaged'
    reference: get_order, refund(order_id, amount_cents) [+ send_message on band hard]
    answer: "Refunded $25.00 for order 101; tracking 1Z999AA10123456784" (seed 0)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcpgym_grading import (
    AnswerMatch,
    CalledBefore,
    Check,
    CheckResult,
    Grade,
    NoCollateralChanges,
    Param,
    ReferenceCache,
    Rubric,
    SqlCheck,
    StateMatchesReference,
    ToolCalled,
    ToolNotCalled,
    grade_bundle,
)
from mcpgym_server import (
    Environment,
    EpisodeBundle,
    EpisodeManager,
    EpisodeStore,
    Generation,
    MemoryEpisodeStore,
    Sandbox,
    Snapshot,
    TaskFamily,
    ToolCall,
    ToolError,
    VariantSpec,
)

PACKAGE = "mcpgym_toy_snapshot"
"""Import name of the throw-away package holding ``toy.db``."""

ORDER_IDS = (101, 102, 103)
TRACKING = "1Z999AA10123456784"

SCHEMA = """
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL,
    total_cents INTEGER NOT NULL, status TEXT NOT NULL
);
CREATE TABLE refunds (
    id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, amount_cents INTEGER NOT NULL,
    reason TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE messages (order_id INTEGER NOT NULL, body TEXT NOT NULL, sent_at TEXT NOT NULL);
INSERT INTO customers VALUES
    (1, 'Ada Lovelace', 'ada@example.com'),
    (2, 'Grace Hopper', 'grace@example.com'),
    (3, 'Alan Turing', 'alan@example.com');
INSERT INTO orders VALUES
    (101, 1, 2500, 'delivered'),
    (102, 2, 1250, 'delivered'),
    (103, 3, 10000, 'delivered'),
    (104, 1, 999, 'shipped');
"""


def build_snapshot_package(root: Path) -> Path:
    """Create ``root/mcpgym_toy_snapshot/{__init__.py,toy.db}``; return the package dir."""
    pkg = root / PACKAGE
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""Toy snapshot data for grading tests."""\n')
    db = sqlite3.connect(pkg / "toy.db")
    db.executescript(SCHEMA)
    db.commit()
    db.close()
    return pkg


def _get_order(sb: Sandbox, order_id: int) -> dict[str, Any]:
    """Look up one order.

    Args:
        order_id: the order number.
    """
    row = sb.query_one("SELECT * FROM orders WHERE id = ?", (order_id,))
    if row is None:
        raise ToolError(f"order {order_id} not found")
    return row


def _refund(
    sb: Sandbox, order_id: int, amount_cents: int, reason: str = "damaged"
) -> dict[str, Any]:
    """Refund an order.

    Args:
        order_id: the order number.
        amount_cents: amount in cents.
        reason: why.
    """
    order = _get_order(sb, order_id)
    if order["status"] == "refunded":
        raise ToolError(f"order {order_id} is already refunded")
    rid = sb.next_id("refund")
    sb.db.execute(
        "INSERT INTO refunds VALUES (?, ?, ?, ?, ?)",
        (rid, order_id, amount_cents, reason, sb.clock.iso()),
    )
    sb.db.execute("UPDATE orders SET status = 'refunded' WHERE id = ?", (order_id,))
    return {"refund_id": rid}


def _send_message(sb: Sandbox, order_id: int, body: str) -> dict[str, Any]:
    """Send a message to the customer of an order.

    Args:
        order_id: the order number.
        body: the text.
    """
    sb.db.execute("INSERT INTO messages VALUES (?, ?, ?)", (order_id, body, sb.clock.iso()))
    return {"sent": True}


def _delete_customer(sb: Sandbox, customer_id: int) -> dict[str, Any]:
    """Delete a customer.

    Args:
        customer_id: the customer id.
    """
    sb.db.execute("DELETE FROM customers WHERE id = ?", (customer_id,))
    return {"deleted": customer_id}


def _crash(sb: Sandbox) -> dict[str, Any]:
    """A tool with a bug (raises a non-ToolError)."""
    raise RuntimeError("boom")


def _generate(gen: Generation, broken_reference: bool = False) -> VariantSpec:
    order_id = ORDER_IDS[gen.seed % len(ORDER_IDS)]
    row = gen.db.execute(
        "SELECT o.total_cents, c.name FROM orders o JOIN customers c ON c.id = o.customer_id "
        "WHERE o.id = ?",
        (order_id,),
    ).fetchone()
    amount, customer = int(row[0]), str(row[1])
    notify = gen.band == "hard"
    reference = [
        ToolCall("get_order", {"order_id": order_id}),
        ToolCall("refund", {"order_id": order_id, "amount_cents": amount}),
    ]
    if broken_reference:
        reference.append(ToolCall("refund", {"order_id": 999, "amount_cents": 1}))
    if notify:
        reference.append(
            ToolCall(
                "send_message", {"order_id": order_id, "body": f"We refunded ${amount / 100:,.2f}."}
            )
        )
    return VariantSpec(
        instruction=f"Order {order_id} arrived damaged; refund it in full.",
        setup=[("UPDATE orders SET status = 'damaged' WHERE id = ?", [order_id])],
        params={
            "order_id": order_id,
            "amount_cents": amount,
            "customer": customer,
            "notify": notify,
            "tracking": TRACKING,
            "listing": [1, 2],
        },
        reference=reference,
        answer=f"Refunded ${amount / 100:,.2f} for order {order_id}; tracking {TRACKING}",
    )


DEFAULT_RUBRIC = Rubric(
    checks=(
        SqlCheck(
            name="refund-amount",
            sql="SELECT amount_cents FROM refunds WHERE order_id = :order_id",
            expected=Param("amount_cents"),
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="order-status",
            sql="SELECT status FROM orders WHERE id = :order_id",
            expected="refunded",
        ),
        StateMatchesReference(name="refund-state", tables=("orders", "refunds")),
        NoCollateralChanges(name="no-collateral", except_tables=("messages",)),
        ToolCalled(name="looked-up", tool="get_order", arguments={"order_id": Param("order_id")}),
        CalledBefore(name="lookup-first", first="get_order", then="refund"),
        ToolNotCalled(name="no-delete", tool="delete_customer", required=True),
        AnswerMatch(name="answer-amount", normalize="money", expected=Param("amount_cents")),
        AnswerMatch(
            name="customer-told",
            source="sql",
            sql="SELECT body FROM messages WHERE order_id = :order_id",
            normalize="money",
            expected=Param("amount_cents"),
            when="notify",
        ),
    ),
    threshold=0.8,
    volatile_columns={"refunds": ("created_at",)},
)
"""A realistic rubric for the ``refund`` family (weights sum to 10)."""


def make_env(
    rubric: Any = DEFAULT_RUBRIC, *, name: str = "toy", broken_reference: bool = False
) -> Environment:
    """A fresh toy environment whose ``refund`` family (bands easy, hard) uses ``rubric``.

    With ``broken_reference`` the reference solution ends with a refund of an order
    that does not exist (a tool error), and the generator version is ``"broken"``.
    """
    env = Environment(
        name=name,
        version="1.0.0",
        snapshot=Snapshot(PACKAGE, "toy.db", sha256=None),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    )
    env.tool(kind="read", name="get_order")(_get_order)
    env.tool(kind="write", name="refund")(_refund)
    env.tool(kind="write", name="send_message")(_send_message)
    env.tool(kind="write", name="delete_customer")(_delete_customer)
    env.tool(kind="write", name="crash")(_crash)
    env.add_family(
        TaskFamily(
            name="refund",
            description="Refund a damaged order.",
            bands=("easy", "hard"),
            generator=lambda gen: _generate(gen, broken_reference),
            generator_version="broken" if broken_reference else "1",
            rubric=rubric,
        )
    )
    return env


Calls = Sequence[tuple[str, dict[str, Any]]]


def run_episode(
    env: Environment,
    calls: Calls,
    *,
    band: str = "easy",
    seed: int = 0,
    answer: str | None = None,
    submit: bool = True,
    store: EpisodeStore | None = None,
) -> EpisodeBundle:
    """Run ``calls`` in a fresh ``refund`` episode, seal it and return its bundle.

    With ``submit`` the episode ends through ``submit`` (with ``answer``); otherwise
    it is sealed with termination ``ended``.
    """
    manager = EpisodeManager(env, store if store is not None else MemoryEpisodeStore())
    ep = manager.open("refund", band, seed)
    for tool, args in calls:
        manager.call(ep.id, tool, args)
    if submit:
        manager.call(ep.id, "submit", {} if answer is None else {"answer": answer})
    else:
        manager.seal(ep.id, "ended")
    return manager.store.read(ep.id)


def reference_calls(
    env: Environment, *, band: str = "easy", seed: int = 0
) -> list[tuple[str, dict[str, Any]]]:
    """The variant's reference solution as ``(tool, arguments)`` pairs."""
    variant = env.variant("refund", band, seed)
    return [(c.name, dict(c.arguments)) for c in variant.reference]


def grade_rubric(
    rubric: Rubric,
    calls: Calls,
    *,
    band: str = "easy",
    seed: int = 0,
    answer: str | None = None,
    submit: bool = True,
) -> Grade:
    """Run ``calls`` in a toy environment graded by ``rubric`` and return the grade."""
    env = make_env(rubric)
    bundle = run_episode(env, calls, band=band, seed=seed, answer=answer, submit=submit)
    return grade_bundle(bundle, env, reference_cache=ReferenceCache())


def grade_check(
    check: Check,
    calls: Calls,
    *,
    volatile_columns: dict[str, tuple[str, ...]] | None = None,
    band: str = "easy",
    seed: int = 0,
    answer: str | None = None,
    submit: bool = True,
) -> CheckResult:
    """Grade one check over an episode running ``calls``; return its result."""
    rubric = Rubric(checks=(check,), volatile_columns=volatile_columns or {})
    grade = grade_rubric(rubric, calls, band=band, seed=seed, answer=answer, submit=submit)
    (result,) = grade.checks
    if result.error is not None:
        assert grade.status == "error"
        assert grade.error == f"check `{check.name}`: {result.error}"
    return result
