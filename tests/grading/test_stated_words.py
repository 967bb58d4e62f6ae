"""A kind closed by its vocabulary (`mcpgym_grading._stated_words`) and dates in words read
by the value roles (`mcpgym_grading._value_roles`; issue 9 section 4, stop 21)."""

from __future__ import annotations

import pytest

from mcpgym_grading._stated_words import greeted_other, sql_stated_other, stated_other
from mcpgym_grading._value_roles import value_outcome


def test_a_forbidden_phrase_is_read_whole_and_folded() -> None:
    assert stated_other("Your NEON-PINK jacket ships", ["Neon Pink"]) == ["Neon Pink"]
    assert stated_other("your Mastercard ending", ["Master Card"]) == ["Master Card"]
    assert stated_other("a redundant reply", ["Red"]) == []


def test_an_allowed_phrase_is_read_out_first() -> None:
    text = "Your Forest Green Rain Shell ships"
    assert stated_other(text, ["Forest", "Green"], ["Forest Green Rain Shell"]) == []
    assert stated_other(text, ["Forest"]) == ["Forest"]


def test_a_malformed_array_is_an_error() -> None:
    with pytest.raises(ValueError):
        sql_stated_other("text", "{}", "[]")
    assert sql_stated_other(None, "[]", "[]") is None


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("Hi Olivia,\n\nDone.", []),
        ("Hello Ms. Chen,", []),
        ("Good morning,\n\nOrder #1 is cancelled.", []),
        ("Hi there!", []),
        ("Hi Bob,\n\nDone.", ["Bob"]),
        ("Dear Mr Smith,", ["Smith"]),
        ("Thanks,\nHi Sam", ["Sam"]),
    ],
)
def test_the_greeting_names_the_customer(text: str, wrong: list[str]) -> None:
    assert greeted_other(text, ["Olivia", "Chen"]) == wrong


ETA = ("estimated delivery", "arriv*", "by")


@pytest.mark.parametrize(
    "text",
    [
        "Estimated delivery September 30.",
        "It should arrive by 30 Sept 2026.",
        "It should arrive by Sept. 30th.",
        "Estimated delivery the 30th of September.",
    ],
)
def test_a_wrong_date_in_words_is_misplaced(text: str) -> None:
    ok, wrong, _ = value_outcome(text, [("2026-06-12", ETA)])
    assert not ok and wrong[0].startswith("2026-09-30")


@pytest.mark.parametrize(
    "text",
    ["Estimated delivery June 12.", "It should arrive by Friday, June 12th, 2026.", "By 12 Jun."],
)
def test_the_own_date_in_words_stands(text: str) -> None:
    assert value_outcome(text, [("2026-06-12", ETA)])[0]


def test_words_without_a_date_role_are_not_read() -> None:
    assert value_outcome("You may 2 times ask; order 100510.", [("100510", ("order",))])[0]


def test_phrases_whose_words_the_text_lacks_are_skipped_with_the_same_answer() -> None:
    """`stated_other` neither compiles nor searches a phrase with a word the text lacks; its
    answer is the search of every phrase's pattern (round 25: compiling the phrases of
    every variant was ~0.7 ms of a grade)."""
    import random
    import re

    from mcpgym_grading import _stated_words
    from mcpgym_grading._text import normalise_text

    def every_pattern(text: str, forbidden: list[str], allowed: list[str]) -> list[str]:
        plain = normalise_text(text)
        for a in sorted({a for a in allowed if re.search(r"\w", a)}, key=len, reverse=True):
            plain = _stated_words.phrase_pattern(a).sub(" | ", plain)
        return [
            f
            for f in dict.fromkeys(forbidden)
            if re.search(r"\w", f) and _stated_words.phrase_pattern(f).search(plain)
        ]

    words = ["Master", "Card", "master-card", "Forest", "Green", "Rain", "Shell", "Ｖｉｓａ",
             "red", "pink", "Hot", "neon", "--", " ", "\u3164", "_"]  # fmt: skip
    rnd = random.Random(5)
    stated = 0
    for _ in range(400):
        text = " ".join(rnd.choices(words, k=rnd.randint(0, 12)))
        forbidden = [" ".join(rnd.choices(words, k=rnd.randint(1, 3))) for _ in range(8)]
        allowed = [" ".join(rnd.choices(words, k=rnd.randint(1, 3))) for _ in range(2)]
        got = _stated_words.stated_other(text, forbidden, allowed)
        assert got == every_pattern(text, forbidden, allowed), (text, forbidden, allowed)
        stated += len(got)
    assert stated > 100
