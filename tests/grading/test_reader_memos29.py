"""Work a grade no longer does again (stop 29, issue 12 §1): the patterns built from a
record's value or a lexicon are kept by the reader, not left to `re`'s own cache (which a
campaign's values cycle through), and the result reader's sentences are read once per
reading; each gives what the work done afresh gives."""

from __future__ import annotations

import re

import pytest

from mcpgym_grading import _decision_results, _decision_sentences, _terms
from mcpgym_grading._text import fold

VALUES = ["100107", "7", "INV-2026-0151", "1Z999AA10123456784", "CN-2026-0015", "A-1"]
READINGS = [
    "",
    "i've refunded order #100107 in full. it will show as refunded in 3-5 days.",
    "if you look again, the order shows as cancelled. does it show as refunded?",
    "your refund of $12.50 has been issued! you'll see it once the bank posts it.\nthanks",
    "the order was cancelled. once you check, it will appear as cancelled",
    "we will refund 1.5 units. waiting on the warehouse before we refund the rest.",
]


@pytest.mark.parametrize("value", VALUES)
def test_value_patterns_are_kept_past_re_purge(value: str) -> None:
    """The same pattern object after `re.purge` (on main each was compiled again), and the
    same source as built afresh."""
    for build in (
        _decision_sentences._token,  # noqa: SLF001
        _decision_sentences._others,  # noqa: SLF001
        _decision_sentences._joined_record,  # noqa: SLF001
    ):
        first = build(value)
        re.purge()
        again = build(value)
        assert again is first
        assert again.pattern == build.__wrapped__(value).pattern  # type: ignore[attr-defined]
    token = _decision_sentences._token(value).pattern  # noqa: SLF001
    about = _decision_sentences._joined_about(token)  # noqa: SLF001
    re.purge()
    assert _decision_sentences._joined_about(token) is about  # noqa: SLF001


def test_govern_patterns_kept() -> None:
    """`_terms._govern_patterns` is kept per lexicon and reads as the patterns built afresh."""
    units = frozenset({"store", "shop", "team", "desk"})
    names = frozenset({"ana", "bob", "manager", *units})
    got = _terms._govern_patterns(units, names)  # noqa: SLF001
    re.purge()
    assert _terms._govern_patterns(units, names) is got  # noqa: SLF001
    fresh = _terms._govern_patterns.__wrapped__(units, names)  # noqa: SLF001
    for text in ("'s desk team ", " bob in the ", " ana there", " shop at that store", " x"):
        for kept, built in zip(got, fresh, strict=True):
            a, b = kept.match(text), built.match(text)
            assert (a and a.span()) == (b and b.span())


@pytest.mark.parametrize("reading", READINGS)
def test_result_sentences_read_once_per_reading(reading: str) -> None:
    """`_decision_results._sentences` gives `_read_sentences`' sentences, from memory the
    second time."""
    _decision_results._stated_sentences.cache_clear()  # noqa: SLF001
    first = _decision_results._sentences(fold(reading))  # noqa: SLF001
    assert first == _decision_results._read_sentences(fold(reading))  # noqa: SLF001
    again = _decision_results._sentences(fold(reading))  # noqa: SLF001
    assert again is first
    assert _decision_results._stated_sentences.cache_info().hits == 1  # noqa: SLF001
    for noun in (None, "order|refund"):
        assert _decision_results.results(fold(reading), noun, None) == _results_afresh(
            fold(reading), noun
        )


def _results_afresh(reading: str, noun: str | None) -> list[str]:
    """`results` as on main: the sentences read afresh for each call."""
    patterns = _decision_results._noun_patterns(noun) if noun else ()  # noqa: SLF001
    return [
        s.strip()
        for s in _decision_results._read_sentences(reading)  # noqa: SLF001
        if any(
            _decision_results._free(s, m.start())  # noqa: SLF001
            for p in patterns
            for m in p.finditer(s)
        )
    ]
