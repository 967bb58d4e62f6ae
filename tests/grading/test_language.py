"""Sentences in another language than English (`mcpgym_grading._language`, round 11 R4): a
`DecisionMatch` that must know no claim of an action not taken stands fails a text with one;
English sentences with foreign names and addresses stay English."""

from __future__ import annotations

import pytest

from mcpgym_grading._language import foreign_sentences


@pytest.mark.parametrize(
    "text",
    [
        "J'ai annulé la commande #100200.",
        "Ich habe die Bestellung #100200 storniert.",
        "Ho annullato l'ordine #100200.",
        "Cancelei o pedido #100200.",
        "He reembolsado el pedido #100200.",
        "J\u2019ai remboursé la commande #100200.",
    ],
)
def test_a_claim_in_another_language_is_not_english(text: str) -> None:
    assert foreign_sentences(f"Hi Ana,\n\nOrder #100200 has already shipped. {text}") == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Order #100200 will now ship to 12 Rue de la Paix, Paris.",
        "Ship to: Calle de la Rosa y Gasset 12, Madrid",
        "Hi Le Van,",
        "As requested, order #7 is cancelled.",
        "Dr 6600 $1,995.50; Cr 2100 $1,995.50",
        "Your Summit Base Layer Top in XL (Black) ships at no charge on order #100593.",
    ],
)
def test_english_with_foreign_names_is_english(text: str) -> None:
    assert foreign_sentences(text) == []


def test_letters_inside_identifiers_are_no_words() -> None:
    """The ship gate's `stuff` mutant: a list of tracking numbers (``1ZR4E917…``: ``e``
    is Italian "and") read as another language failed `texts-claim-only-actions-taken`
    while its split form passed (condition 7)."""
    text = "782583193689, 1ZR4E9170276424173, 1ZR4E9170354452701, 9400148002803680343099."
    assert foreign_sentences(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Ik heb bestelling #100200 geannuleerd.",
        "Jag har avbrutit beställning #100200.",
        "Anulowałem zamówienie #100200.",
        "#100200 numaralı siparişi iptal ettim.",
        "Заказ #100200 отменён.",
        "ご注文#100200をキャンセルしました。",
        "订单#100200已取消。",
        "INV-2026-0151 wurde bereits abgeschrieben.",
        "J'ai déjà passé INV-2026-0151 en perte.",
    ],
)
def test_round14_languages_and_other_scripts_are_not_english(text: str) -> None:
    """Round 14 (adv/round14rub/claims14.py G rows): Dutch, Swedish, Polish, Turkish, short
    German and French claims, and sentences in another script passed as English."""
    assert foreign_sentences(f"Hi Ana,\n\nOrder #100200 has already shipped. {text}") == [text]


@pytest.mark.parametrize("text", ["Hi \u674e\u660e,", "Order #7 is en route.", "Thanks, Jeg."])
def test_a_name_in_another_script_or_a_loan_word_stays_english(text: str) -> None:
    assert foreign_sentences(text) == []
