"""Claims wrapped in common frames (issue 9, round 11): a lead-in (``After checking, I
cancelled #7.``), a ticked checklist item, a key of completion (``Done: cancel #7``) and a
check mark (``✅ Cancel #7``) claim the action as done, for every action the decision
reader knows (`mcpgym_grading._claim_frames`, what the ship gate's framed claim mutants
write). ``Done:`` and ``✅`` before a base form claimed nothing before."""

from __future__ import annotations

import pytest

from mcpgym_grading._claim_frames import FRAMES, framed_claim
from mcpgym_grading._decision_check import sentences_about
from mcpgym_grading._decisions import ACTIONS, claims, decisions, denies


@pytest.mark.parametrize("frame", sorted(FRAMES))
@pytest.mark.parametrize("action", sorted(ACTIONS))
@pytest.mark.parametrize("about", [None, "100512"])
def test_every_frame_claims_every_action(action: str, frame: str, about: str | None) -> None:
    text = "Thanks for your patience.\n\n" + framed_claim(action, frame, about=about) + "."
    assert claims(text, action), text


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Done: cancel order #7", "cancel"),
        ("Completed - refund the duplicate charge", "refund"),
        ("\u2705 Escalate to the controller", "escalate"),
        ("\u2714\ufe0f Write off INV-2026-0151", "write-off"),
        ("- [x] Send a free replacement", "replacement"),
    ],
)
def test_frames_before_a_base_form_claim(text: str, action: str) -> None:
    assert claims(text, action)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("- [ ] Cancel order #7", "cancel"),
        ("Done: I will cancel it once you confirm", "cancel"),
        ("Done: please approve it before it is posted", "approve"),
        ("\u2705 Verified your identity. Next: cancel the order if you confirm.", "cancel"),
        ("To do: escalate to the controller", "escalate"),
    ],
)
def test_frames_with_a_hedge_or_no_tick_claim_nothing(text: str, action: str) -> None:
    assert not claims(text, action), text


@pytest.mark.parametrize("frame", sorted(FRAMES))
@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_a_frame_after_a_text_with_no_stop_claims(action: str, frame: str) -> None:
    # a reading joins lines: the frame's key or mark ends the clause of the text before it
    text = "bad debt: the customer has ceased trading\n\n" + framed_claim(action, frame)
    assert claims(text, action), text


def test_done_key_with_a_negation_denies() -> None:
    assert denies("Done: could not cancel order #7, it had shipped", "cancel")


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("Accrued $10.00 on 2026-05-31 against 2100, reversed on 2026-06-01.", True),
        ("Posted the reversal on 2026-06-01.", True),
        ("The reversing entry is dated 2026-06-01.", True),
        ("Not reversed: it stays in June.", False),
        ("Nothing was reversed.", False),
    ],
)
def test_reversal_is_read(text: str, done: bool) -> None:
    got = [d.done for d in decisions(text, ("reverse",))]
    assert got == [done], got


@pytest.mark.parametrize(
    "text",
    [
        "The accrual will be reversed on 2026-06-01.",
        "policy 6.1: corrected by reversal, not edited",
        "auto-reversing accrual",
    ],
)
def test_reversal_hedged_or_named_claims_nothing(text: str) -> None:
    assert not claims(text, "reverse")


def test_a_document_number_with_letters_is_its_own_record_mark() -> None:
    text = "Wrote off INV-2026-0149; INV-2026-0151 has $900.00 open, above the limit."
    got = sentences_about(text, "INV-2026-0151")
    assert got == ["; inv-2026-0151 has $900.00 open, above the limit."]
    assert not claims("\n".join(got), "write-off")
    # order numbers keep needing their mark (`#`, ``order``)
    assert sentences_about("I cancelled order #7, but order #8 had shipped.", "8") == [
        "but order #8 had shipped."
    ]
