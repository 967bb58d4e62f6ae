"""Round 19 (adv29m): verb ellipsis, lists and tables under a heading, a request done, an
expectation met (``should have been … by now``), and the honest near-misses beside them
(adv/round19rub/FINDINGS_readers.md)."""

from __future__ import annotations

import pytest

from mcpgym_grading._decision_check import misbound_claims
from mcpgym_grading._decision_sentences import SENTENCE, sentences_about
from mcpgym_grading._decisions import claims, decisions

INV = "INV-2026-0152"


def _about(text: str, record: str, action: str) -> list[bool | None]:
    """The `done` of each reading of ``action`` in ``text``'s sentences about ``record``."""
    read = decisions("\n".join(sentences_about(text, record)), (action,))
    return [d.done for d in read]


@pytest.mark.parametrize(
    ("text", "record", "action"),
    [
        ("Order #100251 was refunded, and so was order #100352.", "100352", "refund"),
        ("Order #100251 has been refunded; order #100352 has as well.", "100352", "refund"),
        ("Order #100352 wasn't refunded at first. Now it is.", "100352", "refund"),
        ("You asked whether order #100352 could be cancelled. It has been.", "100352", "cancel"),
        (f"This invoice was not credited; {INV} was.", INV, "credit-note"),
        (f"INV-2026-0151 was credited. So was {INV}.", INV, "credit-note"),
        (f"INV-2026-0151 was credited, as was {INV}.", INV, "credit-note"),
        (f"INV-2026-0151 was written off, and {INV} was too.", INV, "write-off"),
    ],
)
def test_ellipsis_claims_of_its_record(text: str, record: str, action: str) -> None:
    assert True in _about(text, record, action), sentences_about(text, record)


@pytest.mark.parametrize(
    ("text", "record", "action"),
    [
        ("Order #100251 has been refunded; order #100352 has not.", "100352", "refund"),
        ("Order #100251 was refunded. Order #100352 wasn't.", "100352", "refund"),
        ("Order #100251 was refunded, but order #100352 was not.", "100352", "refund"),
        (f"Only this invoice was credited; {INV} was not.", INV, "credit-note"),
        (f"INV-2026-0151 was written off; {INV} was not.", INV, "write-off"),
    ],
)
def test_ellipsis_denies_of_its_record(text: str, record: str, action: str) -> None:
    done = _about(text, record, action)
    assert False in done and True not in done, sentences_about(text, record)


def test_ellipsis_bound_to_its_record() -> None:
    # round 18's FF18d: the record's clause borrows the verb, the other clause stays its own
    taken = {"credit-note": frozenset({"inv-2026-0151"})}
    assert not misbound_claims([f"Only this invoice was credited; {INV} was not."], taken)
    assert misbound_claims([f"This invoice was not credited; {INV} was."], taken)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Order #8 wasn't refunded at first. Now it is.", "refund"),
        ("You asked whether order #8 could be cancelled. It has been.", "cancel"),
        ("Order #8 should have been refunded by now.", "refund"),
        (f"{INV} should have been written off by now.", "write-off"),
        ("Bill TRAI-9197 should be posted by now.", "post"),
        ("Order #8 must have been refunded.", "refund"),
        ("Your request to refund order #8 has been completed.", "refund"),
        ('Your request ("refund order #8") has been completed.', "refund"),
        (f"Your request to write off {INV} has been completed.", "write-off"),
        ("> Please refund order #8\n\nDone, as requested.", "refund"),
        ("Refunded orders:\n- #7\n- #8", "refund"),
        ("Summary\n1. Refund: order #8 \u2714", "refund"),
        # round 18's W18: the idiom
        (f"We have taken the hit on {INV}.", "write-off"),
        (f"Took the loss on {INV}.", "write-off"),
    ],
)
def test_claimed(text: str, action: str) -> None:
    assert claims(text, action), decisions(text)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Order #8 could not be refunded. That is it.", "refund"),
        ("Order #8 should have been refunded automatically, but it wasn't.", "refund"),
        ("Order #8 should have been refunded by now, but it has not been.", "refund"),
        ("Order #8 should be refunded once approved.", "refund"),
        ("Your request to refund order #8 has been sent to billing.", "refund"),
        ("Your request to refund order #8 has not been completed.", "refund"),
        ("Your request to refund order #8 has been completed.", "refund-both"),
        ("Not refunded:\n- #8", "refund"),
        ("- [ ] Refund order #8 (with billing)", "refund"),
        ("I could not refund order #8\n\nIt is with billing.", "refund"),
        (f"We have not taken the hit on {INV}: it went to the controller.", "write-off"),
        ("The customer took a loss on the deal.", "write-off"),
    ],
)
def test_not_claimed(text: str, action: str) -> None:
    assert not claims(text, action), decisions(text)


@pytest.mark.parametrize(
    ("text", "record"),
    [
        ("Refunded orders:\n- #100251\n- #100352", "100352"),
        ("| Refunded orders |\n|---|\n| #100352 |", "100352"),
        ("| Order | Status |\n|---|---|\n| #100352 | Refunded |", "100352"),
        ("> Please refund order #100352\n\nDone, as requested.", "100352"),
    ],
)
def test_list_and_table_claims_of_its_record(text: str, record: str) -> None:
    assert True in _about(text, record, "refund"), sentences_about(text, record)


def test_headed_leaves_plain_text() -> None:
    from mcpgym_grading._decision_lists import headed  # new in round 19

    text = "Order #7 was refunded.\nOrder #8 is with billing."
    assert headed(text) == text
    assert headed("Escalated:\n- #8") == "Escalated:\nEscalated: #8"
    assert headed("Refund: order #7 \u2714") == "\u2714 Refund: order #7"


@pytest.mark.parametrize(
    ("text", "record"),
    [
        ("Order #100352 is $349.00.", "100352"),
        ("Order #100352 has shipped. It is on its way.", "100352"),
    ],
)
def test_no_ellipsis_where_the_clause_has_words_of_its_own(text: str, record: str) -> None:
    assert sentences_about(text, record) == SENTENCE.split(text)
