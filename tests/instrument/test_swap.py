"""``swap-i-N`` mutants (issue 9 §4, round 10): two values of one kind an answer field states
exchanged, all else kept. Built from the text and the variant's own values; the gate reports
one graded passed with no check failing (nothing reads which value stands where), and none a
check fails. ``second-record-i``: the field's call made again on another record with a near
miss in its text; reported when no check reads it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from mcpgym_clients.instrument.adversarial import adversaries, shortcut_failures
from mcpgym_clients.instrument.candidates import money_text
from mcpgym_clients.instrument.controls import _looked_up, reference_calls
from mcpgym_clients.instrument.records import second_record_call
from mcpgym_clients.instrument.swap import MAX_SWAPS, swap_text, swaps
from mcpgym_grading import AnswerMatch, Param, ReferenceCache, Rubric, SqlCheck, grade_bundle
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import (
    Environment,
    Generation,
    Snapshot,
    TaskFamily,
    ToolCall,
    VariantSpec,
    replay,
)
from tests.toyenv import RESOURCE, install, send_message

CACHE = ReferenceCache(maxsize=16)


# --- the text operation -------------------------------------------------------------------


def test_swap_text_exchanges_every_occurrence_of_two_amounts() -> None:
    text = "Paid $778.52: $70.12 to INV-1; $708.40 to INV-2 ($70.12 was open)."
    assert swap_text(text, "amount", "$70.12", "$708.40") == (
        "Paid $778.52: $708.40 to INV-1; $70.12 to INV-2 ($708.40 was open)."
    )


def test_swap_text_swaps_whole_tokens_only() -> None:
    """A value inside an amount, a date or a longer id is not that value."""
    text = "Order 2026 of 2026-05-31 for $1,995.50; order 995, 12026 and #995."
    assert swap_text(text, "order_id", "2026", "995") == (
        "Order 995 of 2026-05-31 for $1,995.50; order 2026, 12026 and #2026."
    )
    assert swap_text("UPS and USPS", "category", "UPS", "USPS") == "USPS and UPS"


# --- the generator on the shipped environments --------------------------------------------


def _swaps(env: Environment, family: str, band: str, text: str | None = None) -> list[Any]:
    variant = env.variant(family, band, 0)
    calls = reference_calls(variant)
    body = calls[:-1]
    looked_up = _looked_up(env, variant, calls)
    if text is None:
        text = next(str(a["body"]) for n, a in body if n in ("add_note", "reply_to_customer"))
    return swaps(env, variant, body, looked_up, text)


def test_a_payment_note_gets_its_allocations_and_invoices_swapped() -> None:
    """ledger apply-customer-payment (N2'): the amounts applied to two invoices exchanged,
    and the invoices' numbers exchanged."""
    variant = ledger.variant("apply-customer-payment", "medium", 0)
    (_, first), (_, second) = variant.params["allocations"]
    found = {
        (k, frozenset((a, b))) for k, a, b, _ in _swaps(ledger, "apply-customer-payment", "medium")
    }
    assert ("amount", frozenset((money_text(first), money_text(second)))) in found
    assert any(k == "number" for k, _ in found), found


def test_two_parcels_get_their_tracking_numbers_and_carriers_swapped() -> None:
    """helpdesk order-status expert: two parcels of two carriers."""
    variant = helpdesk.variant("order-status", "expert", 0)
    params = variant.params
    found = {(k, frozenset((a, b))) for k, a, b, _ in _swaps(helpdesk, "order-status", "expert")}
    pair = frozenset((params["tracking_number"], params["second_tracking_number"]))
    assert ("number", pair) in found
    assert any(k == "category" and params["carrier"] in p for k, p in found), found


def test_a_swap_that_only_reorders_lines_is_left_out() -> None:
    variant = helpdesk.variant("order-status", "expert", 0)
    one, two = variant.params["tracking_number"], variant.params["second_tracking_number"]
    same = f"Hi,\n- {one}, estimated delivery 2026-06-18\n- {two}, estimated delivery 2026-06-18"
    assert _swaps(helpdesk, "order-status", "expert", same) == []
    other = same.replace("2026-06-18\n", "2026-06-18 (Ground)\n")
    assert [k for k, *_ in _swaps(helpdesk, "order-status", "expert", other)] == ["number"]


def test_at_most_max_swaps_per_field_taken_in_turn_from_each_kind() -> None:
    amounts = " ".join(money_text(100 * (i + 1)) + " to" for i in range(9))
    found = _swaps(ledger, "apply-customer-payment", "medium", amounts + " 2026-06-10, 2026-06-14.")
    assert len(found) == MAX_SWAPS
    assert [k for k, *_ in found][:3] == ["amount", "date", "amount"]


# --- the gate: a toy environment -----------------------------------------------------------

ONE, TWO = "9400111122223333", "9400555566667777"
PACKAGE = "mcpgym_toy_swap"
REPLIES = "SELECT body FROM messages WHERE order_id = :order_id ORDER BY rowid"
BODY = (
    f"Hello, your order 101 shipped in two parcels:\n- the tent: tracking number {ONE}\n"
    f"- the stove: tracking number {TWO}"
)


@pytest.fixture(scope="module", autouse=True)
def toy_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    root = tmp_path_factory.mktemp("toy-snapshot")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))  # pyright: ignore[reportUnknownMemberType]
        install(root, PACKAGE)
        yield


def _generate(gen: Generation) -> VariantSpec:
    return VariantSpec(
        instruction="Tell the customer of order 101 which parcel is which.",
        params={"order_id": 101, "tent_tracking_number": ONE, "stove_tracking_number": TWO},
        reference=[ToolCall("send_message", {"order_id": 101, "body": BODY})],
    )


def _toy(*checks: Any) -> Environment:
    env = Environment(
        name="toyswap",
        version="1.0.0",
        snapshot=Snapshot(PACKAGE, f"data/{RESOURCE}", sha256=None),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    )
    env.tool(kind="write", name="send_message")(send_message)
    env.add_family(
        TaskFamily(
            "parcels", "Which parcel is which.", ("easy",), _generate, "1", Rubric(checks=checks)
        )
    )
    return env


def _gives(param: str) -> AnswerMatch:
    return AnswerMatch(
        name=f"gives-{param}", source="sql", sql=REPLIES, expected=Param(param), required=True
    )


def _in_its_line(item: str, param: str) -> SqlCheck:
    """The number stated on the item's own line (reads which number stands where)."""
    return SqlCheck(
        name=f"{item}-line",
        sql=f"SELECT COUNT(*) FROM messages WHERE INSTR(body, '{item}: tracking number ' "
        f"|| :{param}) > 0",
        expected=1,
        required=True,
    )


def _gate(env: Environment, family: str, band: str, seed: int = 0, role: str = "swap") -> list[str]:
    variant = env.variant(family, band, seed)
    jobs = []
    for adv in adversaries(env, variant):
        if adv.role != role and not (role == "second" and adv.role in ("near", "blank")):
            continue
        calls = [ToolCall(n, a) for n, a in adv.calls]
        bundle = replay(env, family, band, seed, calls)
        grade = grade_bundle(bundle, env, check_lock=False, reference_cache=CACHE)
        record = SimpleNamespace(
            grade=grade.model_dump(mode="json"),
            transcript=[{"mcpgym_is_error": e.status != "ok"} for e in bundle.log],
        )
        jobs.append(
            SimpleNamespace(task=family, band=band, seed=seed, adversary=adv, record=record)
        )
    assert any(j.adversary.role == role for j in jobs), f"no {role} mutant"
    lines, compared = shortcut_failures(env, jobs)
    assert compared == len(jobs)
    return lines


def test_the_gate_reports_a_swap_no_check_reads() -> None:
    """Both numbers stated, each on the other's line: every 'states X' check passes."""
    env = _toy(_gives("tent_tracking_number"), _gives("stove_tracking_number"))
    lines = _gate(env, "parcels", "easy")
    assert len(lines) == 1, lines
    assert "a swap passes" in lines[0] and f"{ONE} and {TWO} exchanged" in lines[0]
    assert "`swap-1-1`" in lines[0]


def test_the_gate_is_silent_when_a_check_reads_the_roles() -> None:
    env = _toy(
        _gives("tent_tracking_number"),
        _gives("stove_tracking_number"),
        _in_its_line("tent", "tent_tracking_number"),
    )
    assert _gate(env, "parcels", "easy") == []


def test_a_swap_an_optional_check_fails_is_no_finding() -> None:
    """'No check failing': a quality check that sees the swap (not required) suffices."""
    optional = _in_its_line("stove", "stove_tracking_number").model_copy(update={"required": False})
    env = _toy(_gives("tent_tracking_number"), _gives("stove_tracking_number"), optional)
    assert _gate(env, "parcels", "easy") == []


# --- the gate: a shipped family whose checks read the roles --------------------------------


def test_a_refund_request_and_the_limit_swapped_is_failed_and_not_reported() -> None:
    """helpdesk refund-above-limit: the requested refund and the agent's limit exchanged
    ("a refund of $250.00 ... above the $299.00 limit") fails a check."""
    assert _gate(helpdesk, "refund-above-limit", "easy") == []


# --- second-record ---------------------------------------------------------------------------


def test_second_record_call_moves_the_first_record_argument() -> None:
    call = ("add_note", {"entity": "payment", "entity_id": 179, "body": "Paid $1.00."})
    made = second_record_call(call, "body", ["$1.01", "$2.00"])
    assert made is not None
    (name, args), where = made
    assert name == "add_note" and where == "entity_id=178"
    assert args == {"entity": "payment", "entity_id": 178, "body": "Paid $1.00.\n\n$1.01, $2.00."}
    assert second_record_call(("submit_note", {"body": "x" * 30}), "body", []) is None
    first = second_record_call(("t", {"row_id": 1, "body": "x"}), "body", [])
    assert first is not None and first[0][1]["row_id"] == 2  # no id 0: the next one


ALL_TEXTS_STATE_NO_AMOUNT = AnswerMatch(
    name="no-amount-anywhere",
    source="sql",
    sql="SELECT body FROM messages ORDER BY rowid",
    normalize="money",
    mode="states",
    required=True,
)
REPLIES_STATE_NO_AMOUNT = ALL_TEXTS_STATE_NO_AMOUNT.model_copy(
    update={"name": "no-amount-in-replies", "sql": REPLIES}
)


def test_the_gate_reports_a_second_record_no_check_reads() -> None:
    """The rubric reads order 101's messages only (a near miss there fails): a message on
    order 100 with a wrong amount in it passes."""
    env = _toy(_gives("tent_tracking_number"), REPLIES_STATE_NO_AMOUNT)
    lines = _gate(env, "parcels", "easy", role="second")
    assert len(lines) == 1 and "a note on another record is not read" in lines[0], lines
    assert "order_id=100" in lines[0] and "`second-record-1`" in lines[0]


def test_the_gate_is_silent_when_every_text_is_read() -> None:
    env = _toy(_gives("tent_tracking_number"), ALL_TEXTS_STATE_NO_AMOUNT)
    assert _gate(env, "parcels", "easy", role="second") == []


def test_a_field_whose_own_amounts_are_unread_is_near_is_finding_not_second_records() -> None:
    """No money check at all: ``near-1`` reports the unread amounts; no second finding."""
    env = _toy(_gives("tent_tracking_number"))
    lines = _gate(env, "parcels", "easy", role="second")
    assert lines and not [ln for ln in lines if "another record" in ln], lines
