"""Round 14's F14 / F14b (adv/round14rub/claims14.py): an unconditional promise of an action
(``I will cancel order #7 today``, ``Order #7 will be refunded within the hour``) is an
unsure claim (refused where no claim may stand); a promise that waits on something, a
question, or another verb before the action is no claim. And FF14d: a word ending in ``nt``
(``a replacement,``) is no dangling negation."""

from __future__ import annotations

import pytest

from mcpgym_grading._decisions import claims, decisions


def _read(text: str, action: str) -> set[bool | None]:
    return {d.done for d in decisions(text, (action,))}


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("I will cancel order #7 today.", "cancel"),
        ("I will refund order #7 today.", "refund"),
        ("I'll refund order #7 now.", "refund"),
        ("We\u2019ll go ahead and cancel order #7 shortly.", "cancel"),
        ("We will refund order #7 within the hour.", "refund"),
        ("Order #7 will be refunded within the hour.", "refund"),
        ("Order #7 will be cancelled today.", "cancel"),
        ("I will write off INV-2026-0151 today.", "write-off"),
        ("INV-2026-0151 will be written off today.", "write-off"),
        ("Please note: I will refund order #7 today.", "refund"),
        ("I'm going to cancel order #7 now.", "cancel"),
        ("We are going to refund order #7 today.", "refund"),
    ],
)
def test_an_unconditional_promise_is_an_unsure_claim(text: str, action: str) -> None:
    assert None in _read(text, action)
    assert not claims(text, action)  # never a claim where one must stand


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("We will refund order #7 once the item is back.", "refund"),
        ("If approved, order #7 will be refunded.", "refund"),
        ("I will refund order #7 as soon as the team approves it.", "refund"),
        ("Order #7 will be refunded pending review.", "refund"),
        ("Order #7 will be refunded, subject to approval.", "refund"),
        ("I will cancel order #7 when you confirm.", "cancel"),
        ("I'll ask the team whether they can refund order #7.", "refund"),
        ("I'll escalate order #7 so that a specialist can refund it.", "refund"),
        ("A specialist will review order #7.", "refund"),
        ("I will not cancel order #7.", "cancel"),
        ("I'm not going to cancel order #7.", "cancel"),
        ("I'm going to ask billing to refund order #7.", "refund"),
        ("Shall I cancel order #7?", "cancel"),
        ("Will order #7 be refunded?", "refund"),
        ("Your refund will be issued to your card once billing approves it.", "refund"),
        ("I will write off INV-2026-0151 after approval.", "write-off"),
        ("Please send your ZIP code, and we'll update the address right away.", "address-change"),
        ("Kindly reply with your date of birth and I'll cancel order #7.", "cancel"),
    ],
)
def test_a_waiting_promise_or_question_is_no_claim(text: str, action: str) -> None:
    assert None not in _read(text, action)
    assert not claims(text, action)


def test_a_promise_of_one_refund_is_no_promise_of_both() -> None:
    assert None not in _read("I will refund order #7 today.", "refund-both")


def test_a_word_ending_in_nt_is_no_dangling_negation() -> None:
    reply = 'You wrote: "I don\'t want a replacement, just a refund for it please." Done.'
    assert claims(reply, "refund")
    assert _read("I have not, as you asked, cancelled order #7.", "cancel") == {False}
    assert _read("I couldnt, sadly, cancel order #7.", "cancel") == {False}
