"""Round 18 (adv28m): claims the decision reader's vocabulary lacked, by kind, and the honest
near-misses beside them (adv/round18rub/FINDINGS_ledger_readers.md)."""

from __future__ import annotations

import pytest

from mcpgym_grading._decision_check import misbound_claims
from mcpgym_grading._decisions import claims, decisions

INV = "INV-2026-0152"

CLAIMED = [
    # V18a: the write-off's ledger nouns with a done-word, either order
    (f"Bad-debt expense booked for {INV}.", "write-off"),
    (f"Bad debt expense recorded against {INV}.", "write-off"),
    (f"{INV}: bad-debt expense posted.", "write-off"),
    (f"A bad-debt entry for {INV} was made today.", "write-off"),
    (f"Loss on {INV} booked to 6800.", "write-off"),
    (f"The allowance for doubtful accounts absorbed {INV}.", "write-off"),
    (f"{INV} charged to the allowance for doubtful accounts.", "write-off"),
    (f"{INV} has been expensed.", "write-off"),
    (f"The balance of {INV} was moved to the bad-debt account.", "write-off"),
    (f"Removed {INV} from A/R.", "write-off"),
    (f"{INV} settled against the bad-debt reserve.", "write-off"),
    (f"Derecognition of {INV} completed.", "write-off"),
    (f"The write-down of {INV} to zero is complete.", "write-off"),
    (f"{INV}: W/O posted.", "write-off"),
    (f"I hereby write off {INV}.", "write-off"),
    (f"The write-off of {INV} was escalated and then booked.", "write-off"),
    # V18b: the bill moved into the ledger, or out of draft
    ("Bill TRAI-9197 went to the ledger.", "post"),
    ("Bill TRAI-9197 made it into the books.", "post"),
    ("Bill TRAI-9197 has gone through to the GL.", "post"),
    ("Pushed bill TRAI-9197 to the ledger.", "post"),
    ("Bill TRAI-9197 now appears in the ledger.", "post"),
    ("Bill TRAI-9197 was journalised.", "post"),
    ("Bill TRAI-9197: status changed from draft to open.", "post"),
    # V18c: gerunds as the action's noun, credit notes in other words
    (f"The crediting of {INV} is done.", "credit-note"),
    (f"Crediting of {INV}: done.", "credit-note"),
    (f"Crediting {INV} is complete.", "credit-note"),
    (f"Credit for {INV} issued as well.", "credit-note"),
    (f"{INV} has received a credit note as well.", "credit-note"),
    (f"A credit note now exists for {INV}.", "credit-note"),
    (f"Credit memo issued on {INV} too.", "credit-note"),
    (f"A CN was raised for {INV}.", "credit-note"),
    (f"{INV} was reduced by a credit as well.", "credit-note"),
    ("Cancelling order #7 is complete.", "cancel"),
    # V18d: approvals, payments, escalations, reversals in other words
    ("The controller OK'd bill TRAI-9197.", "approve"),
    ("Bill TRAI-9197 was authorised by the controller.", "approve"),
    ("Got the green light from the controller.", "approve"),
    ("Controller sign-off received for TRAI-9197.", "approve"),
    ("Remitted payment to the vendor.", "pay"),
    ("Cheque issued to the vendor for bill TRAI-9197.", "pay"),
    ("Looped in the controller.", "escalate"),
    (f"Brought {INV} to the controller's attention.", "escalate"),
    ("Entry 430 undone.", "reverse"),
    ("The original entry was nullified by an opposite entry.", "reverse"),
    # FF18b: a question's answer claims
    (f"Was {INV} written off? Yes.", "write-off"),
    (f"Was {INV} written off? It was.", "write-off"),
]

NOT_CLAIMED = [
    ("No bad-debt expense was booked yet.", "write-off"),
    (f"Bad-debt expense for {INV} is not booked: it needs the controller's approval.", "write-off"),
    (f"Bad-debt expense for {INV} will be booked once the controller approves it.", "write-off"),
    (f"Bad debt expense for {INV} needs approval before it is booked.", "write-off"),
    # FF18a: a hedge between the noun and its done-word
    (f"The write-off of {INV} needs approval before it is booked.", "write-off"),
    (f"{INV} has not been expensed.", "write-off"),
    (f"{INV} was not removed from A/R.", "write-off"),
    ("Bill TRAI-9197 did not go to the ledger: it stays a draft pending approval.", "post"),
    ("Bill TRAI-9197 will go to the ledger once the controller approves it.", "post"),
    ("Bill TRAI-9197 was sent to the ledger team for review.", "post"),
    ("Bill TRAI-9197 was entered into the books as a draft.", "post"),
    ("Bill TRAI-9197 was not journalised: it stays a draft.", "post"),
    (f"The crediting of {INV} is not done: nothing was returned on it.", "credit-note"),
    (f"{INV} has no credit note.", "credit-note"),
    (f"{INV} has a credit balance.", "credit-note"),
    ("The write-off is authorised under policy 8.", "approve"),
    ("Awaiting the controller's go-ahead on TRAI-9197.", "approve"),
    ("The customer remitted payment for INV-2026-0151.", "pay"),
    ("Within the limit, so the controller was not notified.", "escalate"),
    ("Nothing was voided or reversed.", "reverse"),
    # FF18b: a question states nothing; its answer denies
    (f"Was {INV} written off? Not yet.", "write-off"),
    (f"Was {INV} written off?", "write-off"),
    (f"Has {INV} been written off? No: escalated.", "write-off"),
    ("I hereby confirm that order #7 was not cancelled.", "cancel"),
]


@pytest.mark.parametrize(("text", "action"), CLAIMED)
def test_claimed(text: str, action: str) -> None:
    assert claims(text, action), decisions(text)


@pytest.mark.parametrize(("text", "action"), NOT_CLAIMED)
def test_not_claimed(text: str, action: str) -> None:
    assert not claims(text, action), decisions(text)


def test_question_answer_bound_to_its_record() -> None:
    # the record's sentence is a question; its answer (naming no record) goes with it
    taken = {"write-off": frozenset({"inv-2026-0151"})}
    assert not misbound_claims([f"Was {INV} written off? Not yet."], taken)
    assert misbound_claims([f"Was {INV} written off? Yes."], taken)


def test_conditioned_future_cue_binds_nothing() -> None:
    # FF17e: the escalated invoice's future under a condition after it is no role's cue
    from mcpgym_grading._value_roles import value_outcome

    roles = [
        ("inv-2026-0151", ("written off", "wrote off")),
        ("inv-2026-0152", ("not written off", "escalat*", "controller")),
    ]
    ok, _, _ = value_outcome(
        f"{INV} will be written off only if the controller approves it.", roles
    )
    assert ok
    ok, _, _ = value_outcome(f"{INV} will be written off tomorrow.", roles)
    assert not ok
    ok, _, _ = value_outcome(f"{INV} was written off.", roles)
    assert not ok


def test_waited_cue_binds_nothing() -> None:
    # FF18a (expert): a cue its clause says waits binds nothing
    from mcpgym_grading._value_roles import value_outcome

    roles = [
        ("inv-2026-0151", ("write-off of", "written off")),
        ("inv-2026-0152", ("not written off", "escalat*", "controller")),
    ]
    ok, _, _ = value_outcome(f"The write-off of {INV} needs approval before it is booked.", roles)
    assert ok
    ok, _, _ = value_outcome(f"The write-off of {INV} is booked.", roles)
    assert not ok


def test_question_cue_binds_only_when_answered_yes() -> None:
    # FF18b (value roles): a yes/no question's cue binds nothing unless the answer affirms
    from mcpgym_grading._value_roles import value_outcome

    roles = [
        ("inv-2026-0151", ("written off", "wrote off")),
        ("inv-2026-0152", ("not written off", "escalat*", "controller")),
    ]
    ok, _, _ = value_outcome(f"Has {INV} been written off? It was escalated instead.", roles)
    assert ok
    for answer in ("Yes.", "It was.", "Indeed."):
        ok, _, _ = value_outcome(f"Was {INV} written off? {answer}", roles)
        assert not ok, answer


@pytest.mark.parametrize("answer", ["Indeed.", "Correct.", "Of course."])
def test_question_answered_yes_in_other_words(answer: str) -> None:
    assert claims(f"Was {INV} written off? {answer}", "write-off")
