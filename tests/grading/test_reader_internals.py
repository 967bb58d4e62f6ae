"""The text readers' shortcuts of stop 26 (perfB26) read what the long way reads: the ASCII
fold, a view's token lists from one fold, the decision reader's clause filter, the records
and prepared texts remembered."""

from __future__ import annotations

import ast
import random
import re
import re._parser as sre_parse  # noqa: PLC2701 - the parser `_decision_stems` reads
from pathlib import Path

import pytest

from mcpgym_grading import _decision_records, _decisions, _money_prepare, _skeleton, _text
from mcpgym_grading._decision_stems import _CLAUSE_NEEDS, _live_in, _needed
from mcpgym_grading._decode import decode_references, strip_markup, visual_order
from mcpgym_grading._language import _other_script

_TESTS = Path(__file__).parent


def _long_fold(text: str) -> str:
    return visual_order(strip_markup(decode_references(text))).translate(_text._FOLD)  # noqa: SLF001


def _strings(glob: str) -> list[str]:
    """The string constants of the test modules ``glob`` (sentences the readers are tried on)."""
    out: set[str] = set()
    for path in sorted(_TESTS.glob(glob)):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if len(node.value) > 3:
                    out.add(node.value)
    return sorted(out)


def test_an_ascii_text_folds_as_the_long_way_folds_it() -> None:
    rnd = random.Random(26)
    alphabet = "ab1 \n\t\r\x0b\x1c\x1f*_~`&%\\<>]([#$.-;'" + "xyz09"
    texts = [
        "Order #7 is cancelled.\n\nRefund: $45.00",
        "9**4**105 and 9`4`1 and a_b",
        "&#57;&#x34; %40 \\u0039",
        "94<span>105</span> [941](x)05 $94\\,105$",
        *("".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 30))) for _ in range(20000)),
    ]
    for text in texts:
        assert _text.fold_cased(text) == _long_fold(text), text


def test_a_view_reads_the_token_lists_the_token_functions_read() -> None:
    rnd = random.Random(7)
    words = ["at", "dot", "-", " ", "12", "34", "a1", "-5", "\u2014", "   ", "x", "\u00a0", "--"]
    for _ in range(3000):
        text = "".join(rnd.choice(words) for _ in range(rnd.randint(0, 15)))
        for signed in (False, True):
            view = _text.TextView._of(text, signed)  # noqa: SLF001
            assert view._lists == (  # noqa: SLF001
                tuple(_text.tokens(text, signed=signed)),
                tuple(_text.grouped_tokens(text, signed=signed)),
                tuple(_text.loose_tokens(text, signed=signed)),
            ), text


@pytest.mark.parametrize(
    ("pattern", "needed"),
    [
        (r"\b(?:i|we)\s+(?:have\s+)?refunded", ["refunded"]),
        (r"\bannul+ed\b", ["annu"]),
        (r"(?:cancel|void)(?:led|ed)", ["cancel", "void"]),
        (r"a?b+c", ["b"]),
        (r"x*", None),
        (r"(?i:refunded)", None),
        (r"[0-9]+", None),
    ],
)
def test_the_literals_a_pattern_needs(pattern: str, needed: list[str] | None) -> None:
    got = _needed(list(sre_parse.parse(pattern).data))
    assert got == needed
    if got is not None:  # sound: every match holds one of them
        for text in ("annulled", "we have refunded", "voidled", "abbbc", "cancelled"):
            for m in re.finditer(pattern, text):
                assert any(x in m.group(0) for x in got)


def test_the_clause_filter_changes_no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _strings("test_decision*.py")
    assert len(texts) > 300
    filtered = [_decisions.decisions(t) for t in texts]
    monkeypatch.setattr(_decisions, "_live_in", lambda _clause, live: live)
    assert [_decisions.decisions(t) for t in texts] == filtered
    # and the filter is one: most actions are not asked in most clauses
    asked = sum(len(_live_in(t, tuple(_CLAUSE_NEEDS))) for t in texts)
    assert asked < len(texts) * len(_CLAUSE_NEEDS) / 2


def test_records_read_once_read_as_the_first_time() -> None:
    rows = [("refund", "100107"), ("cancel", " #100108 "), (None, "100107"), (None, "100200")]
    taken = _decision_records.taken_on(rows)
    assert taken == {"refund": frozenset({"100107"}), "cancel": frozenset({"#100108"})}
    taken["refund"] = frozenset()  # the caller's own copy
    assert _decision_records.taken_on(list(rows))["refund"] == frozenset({"100107"})
    assert _decision_records.on_file(rows) == frozenset({"100107", "100200"})
    patterns, kinds = _decision_records.record_patterns(_decision_records.taken_on(rows))
    assert set(patterns) == {"refund", "cancel"}
    assert kinds is not None and kinds.search("order 100999")
    assert _decision_records.record_patterns({}) == ({}, None)


def test_equal_rows_of_other_types_are_read_apart() -> None:
    # (None, 1) == (None, 1.0), but the names differ: a result is shared only by the
    # same row objects
    assert _decision_records.on_file([(None, 1)]) == frozenset({"1"})
    assert _decision_records.on_file([(None, 1.0)]) == frozenset({"1.0"})
    assert _decision_records.taken_on([("refund", 7)]) == {"refund": frozenset({"7"})}
    assert _decision_records.taken_on([("refund", 7.0)]) == {"refund": frozenset({"7.0"})}


def test_a_prepared_text_is_the_text_prepared() -> None:
    for text in ("forty-five dollars", "$1'995.50", "CCV dollars", "64989c", "in USD, 649.89"):
        assert _money_prepare.prepare(text) == _money_prepare._prepare(text)  # noqa: SLF001
        assert _money_prepare.prepare(text) == _money_prepare._prepare(text)  # noqa: SLF001


def test_an_ascii_sentence_is_in_no_other_script() -> None:
    assert not _other_script("Order #7 was cancelled.")
    assert _other_script("Заказ #7 отменён.")


def test_a_long_text_is_read_as_a_short_one_and_not_kept() -> None:
    long = "I've refunded $45.00 to your card and cancelled order #7. " * 200
    assert len(long) > _decisions.REMEMBERED_CHARS
    assert _decisions.decisions(long) == _decisions.decisions.__wrapped__(long)  # type: ignore[attr-defined]
    assert _money_prepare.prepare(long) == _money_prepare._prepare(long)  # noqa: SLF001
    before = _money_prepare._prepared.cache_info().currsize  # noqa: SLF001
    _money_prepare.prepare(long + "x")
    assert _money_prepare._prepared.cache_info().currsize == before  # noqa: SLF001
    view = _text.TextView._of(long, True)  # noqa: SLF001
    assert view._atoms == _skeleton.build(  # noqa: SLF001
        _text.fold_cased(long), _text.money_spans(view.folded)
    )
