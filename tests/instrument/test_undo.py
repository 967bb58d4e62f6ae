"""The ship gate's undo mutants: a write the task does not call for, set back by a second call,
found from the tool schemas and the reference's reads, in any environment (issue 9, section 4).

A small shop (not helpdesk): customers with an email, messages to them (one already sent).
The task is to send a message; ``update_email`` can change a customer's email. A rubric that
reads only the end state passes the email changed and set back; one that also reads the
tool-call log does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mcpgym_clients.instrument.adversarial import adversaries, shortcut_failures
from mcpgym_clients.instrument.controls import reference_calls
from mcpgym_clients.instrument.undo import shifted, undo_mutants
from mcpgym_grading import NoCollateralChanges, Rubric, SqlCheck, ToolNotCalled, grade_bundle
from mcpgym_server import (
    Environment,
    Generation,
    Sandbox,
    Snapshot,
    TaskFamily,
    ToolCall,
    ToolError,
    VariantSpec,
    replay,
)
from tests.toyenv import RESOURCE, install, make_toy_env

PACKAGE = "mcpgym_toy_undo"
BODY = "Hello Ada, your order 101 is on its way."


@pytest.fixture(scope="module", autouse=True)
def toy_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    root = tmp_path_factory.mktemp("toy-snapshot")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))  # pyright: ignore[reportUnknownMemberType]
        install(root, PACKAGE)
        yield


def get_customer(sb: Sandbox, customer_id: int) -> dict[str, Any]:
    """One customer and the messages about their orders.

    Args:
        customer_id: the customer id.
    """
    row = sb.query_one("SELECT id, name, email FROM customers WHERE id = ?", (customer_id,))
    if row is None:
        raise ToolError(f"no customer {customer_id}")
    row["messages"] = sb.query(
        "SELECT m.order_id, m.body FROM messages m JOIN orders o ON o.id = m.order_id "
        "WHERE o.customer_id = ? ORDER BY m.rowid",
        (customer_id,),
    )
    return row


def update_email(sb: Sandbox, customer_id: int, email: str) -> dict[str, Any]:
    """Change a customer's email.

    Args:
        customer_id: the customer id.
        email: the new email.
    """
    if "@" not in email:
        raise ToolError(f"{email!r} is not an email address")
    sb.db.execute("UPDATE customers SET email = ? WHERE id = ?", (email, customer_id))
    return {"customer_id": customer_id, "email": email}


def send_message(sb: Sandbox, order_id: int, body: str) -> dict[str, Any]:
    """Send a message about an order.

    Args:
        order_id: the order number.
        body: the text.
    """
    sb.db.execute("INSERT INTO messages VALUES (?, ?, ?)", (order_id, body, sb.clock.iso()))
    return {"sent": True}


END_STATE = (
    SqlCheck(
        name="told",
        sql="SELECT COUNT(*) FROM messages WHERE order_id = 101 AND body LIKE 'Hello%'",
        expected=1,
        required=True,
    ),
    NoCollateralChanges(name="nothing-else", except_tables=("messages",), required=True),
)
LOG = ToolNotCalled(name="email-untouched", tool="update_email", required=True)


def make_env(*checks: Any, reads: bool = True) -> Environment:
    """The shop; its reference reads the customer first when ``reads``."""

    def generate(gen: Generation) -> VariantSpec:
        calls = [ToolCall("get_customer", {"customer_id": 1})] if reads else []
        calls.append(ToolCall("send_message", {"order_id": 101, "body": BODY}))
        return VariantSpec(
            instruction="Tell Ada (customer 1) that order 101 is on its way.",
            setup=[("INSERT INTO messages VALUES (101, 'We got your order.', '2026-06-01')", [])],
            params={"customer_id": 1, "order_id": 101},
            reference=calls,
        )

    env = Environment(
        name="toyundo",
        version="1.0.0",
        snapshot=Snapshot(PACKAGE, f"data/{RESOURCE}", sha256=None),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    )
    env.tool(kind="read", name="get_customer")(get_customer)
    env.tool(kind="write", name="update_email")(update_email)
    env.tool(kind="write", name="send_message")(send_message)
    rubric = Rubric(checks=checks)
    env.add_family(TaskFamily("tell", "Send a message.", ("easy",), generate, "1", rubric))
    return env


def undos(env: Environment) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    variant = env.variant("tell", "easy", 0)
    base = reference_calls(variant)
    replayed = replay(env, "tell", "easy", 0, [ToolCall(n, a) for n, a in base])
    return {label: calls for label, calls, _ in undo_mutants(env, variant, base, replayed)}


def findings(env: Environment, family: str = "tell", band: str = "easy") -> list[str]:
    variant = env.variant(family, band, 0)
    jobs = []
    for adv in adversaries(env, variant):
        if adv.role != "undo":
            continue
        bundle = replay(env, family, band, 0, [ToolCall(n, a) for n, a in adv.calls])
        grade = grade_bundle(bundle, env, check_lock=False)
        record = SimpleNamespace(
            grade=grade.model_dump(mode="json"),
            transcript=[{"mcpgym_is_error": e.status != "ok"} for e in bundle.log],
        )
        jobs.append(SimpleNamespace(task=family, band=band, seed=0, adversary=adv, record=record))
    assert jobs, "no undo mutant"
    return shortcut_failures(env, jobs)[0]


def test_values_are_shifted_in_their_own_form() -> None:
    assert shifted("ada@example.com") == "beb@fybnqmf.dpn"
    assert shifted("(303) 555-0199") == "(414) 666-1200"
    assert shifted("Zz9") == "Aa0"
    assert shifted(41) == 42
    assert shifted("--") is None and shifted(True) is None and shifted(None) is None


def test_an_update_tool_is_called_on_the_record_read_then_set_back() -> None:
    found = undos(make_env(*END_STATE))
    # send_message could be called on the earlier message read (its order_id and body), but
    # a second message leaves the first as it was: it creates, it updates nothing
    assert list(found) == ["undo-update_email"]
    assert found["undo-update_email"] == [
        ("get_customer", {"customer_id": 1}),
        ("update_email", {"customer_id": 1, "email": "beb@fybnqmf.dpn"}),
        ("update_email", {"customer_id": 1, "email": "ada@example.com"}),
        ("send_message", {"order_id": 101, "body": BODY}),
        ("submit", {}),
    ]


def test_the_mutant_reads_the_tasks_own_record_when_the_reference_does_not() -> None:
    found = undos(make_env(*END_STATE, reads=False))
    assert found["undo-update_email"][:3] == [
        ("get_customer", {"customer_id": 1}),
        ("update_email", {"customer_id": 1, "email": "beb@fybnqmf.dpn"}),
        ("update_email", {"customer_id": 1, "email": "ada@example.com"}),
    ]


def test_an_undo_an_end_state_rubric_passes_is_reported() -> None:
    lines = findings(make_env(*END_STATE))
    assert len(lines) == 1 and "a write undone later passes: `undo-update_email`" in lines[0]


def test_a_rubric_reading_the_tool_call_log_has_no_finding() -> None:
    assert findings(make_env(*END_STATE, LOG)) == []


def test_the_toy_vault_written_and_set_back_is_found(tmp_path: Path) -> None:
    env = make_toy_env(tmp_path, families=("copy-secret",), undo_blind=True)
    lines = findings(env, "copy-secret", "easy")
    assert len(lines) == 1 and "`undo-put`" in lines[0], lines
    sound = make_toy_env(tmp_path / "sound", families=("copy-secret",))
    assert findings(sound, "copy-secret", "easy") == []
