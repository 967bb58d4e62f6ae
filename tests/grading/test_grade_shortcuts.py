"""Work a grade skips where its answer is known (stop 28, issue 12 §1): a forbidden value
none of the form readers can read (`_answer_check._has_form`), a cue whose word stands
nowhere in a clause (`_clauses.cue_literal`), a decision form none of whose literals stands
in a clause (`_decision_stems.may_match`); each answer is the one the full work gives."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mcpgym_grading import _answer_check, _decision_stems, _parts_leak, _text
from mcpgym_grading._clauses import _cue_pattern, cue_literal
from mcpgym_grading._date_leak import date_form, date_leaked
from mcpgym_grading._decision_stems import may_match
from mcpgym_grading._email_leak import email_form, email_leaked
from mcpgym_grading._parts_leak import parts_form, parts_leaked
from mcpgym_grading._text import fold
from mcpgym_helpdesk.families._replies import WITHDRAWALS

VALUES = [
    *WITHDRAWALS[:40],
    "jane.doe+vip@example.net",
    "example.net",
    "jane.doe@example",
    "2026-06-15",
    "2026-13-40",
    "follow-up",
    "4111 1111 1111 1234",
    "+1 (415) 555-0142",
    "4155550142",
    "1234",
    "INV-2026-0151",
    "",
]
TEXTS = [
    "",
    "Please disregard my previous message; it was meant for another customer.",
    "Write to jane.doe at example dot net, or jane.doe+vip@example.net.",
    "Your order ships June 15th, 2026 (6/15/26).",
    "The card ends 1234; the full number starts with 4111 1111 then 1111 1234.",
    "Call us on 1 415 555 0142 or +14155550142.",
]


@pytest.mark.parametrize("value", VALUES)
def test_a_value_without_a_form_is_found_by_no_reader(value: str) -> None:
    has = _answer_check._has_form(value)  # noqa: SLF001
    assert has == (email_form(value) or date_form(value) or parts_form(value))
    for text in TEXTS:
        each = (email_leaked(text, value), date_leaked(text, value), parts_leaked(text, value))
        if not has:
            assert each == (False, False, False)
        assert _answer_check._leaked_in_form(text, value) == any(each)  # noqa: SLF001


def test_the_forms_are_those_of_the_values() -> None:
    assert email_form("jane.doe+vip@example.net") and email_form("example.net")
    assert not email_form("disregard my message")
    assert date_form("2026-06-15") and not date_form("2026-13-40") and not date_form("follow-up")
    assert parts_form("+1 (415) 555-0142") and not parts_form("1234")
    assert not parts_form("INV-2026-0151")
    assert not _answer_check._has_form("disregard my previous message")  # noqa: SLF001
    assert _answer_check._leaked_in_form(TEXTS[5], "4155550142")  # noqa: SLF001


def test_wanted_digits_and_fold_are_remembered_as_computed() -> None:
    assert _parts_leak._wanted("+1 (415) 555-0142") == "14155550142"  # noqa: SLF001
    assert _parts_leak._wanted("12 34") is None  # noqa: SLF001
    text = "Ｊａｎｅ\u00a0—\u3000ＤＯＥ"
    assert _text.fold(text) == _text.fold_cased(text).casefold() == _text.fold(text)
    long = "x" * (_text.REMEMBERED_CHARS + 1)
    assert _text.fold(long) == long


CUES = ["refund", "refund*", "charg*", "store credit", "unit  price", "a*b", "", "  ", "#"]
CUE_TEXTS = [
    "",
    "refunded $5.00",
    "we refund the charge; charged twice",
    "store\ncredit of $3",
    "Store credit",
    "unit price $4",
    "a*bc",
    "# 5",
]


@pytest.mark.parametrize("cue", CUES)
def test_a_cue_matches_only_where_its_literal_stands(cue: str) -> None:
    literal = cue_literal(cue)
    assert literal in cue
    for text in CUE_TEXTS:
        if literal not in text:
            assert list(_cue_pattern(cue).finditer(text)) == []
    assert cue_literal("store credit") == "credit" and cue_literal("charg*") == "charg"


def _decision_sentences() -> list[str]:
    here = Path(__file__).parent
    found: set[str] = set()
    for path in sorted(here.glob("test_decisions*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if 3 <= len(node.value) <= 2000:
                    found.update((node.value, fold(node.value)))
    return sorted(found)


def test_a_decision_form_matches_only_where_one_of_its_needs_stands() -> None:
    texts = _decision_sentences()
    assert len(texts) > 1000
    matched = 0
    for pattern, needs in _decision_stems._PATTERN_NEEDS.items():  # noqa: SLF001
        assert needs is not None  # every form has literals to test (else it is always run)
        for text in texts:
            found = [m.group(0) for m in pattern.finditer(text)]
            matched += len(found)
            assert all(any(x in m for x in needs) for m in found), (pattern.pattern, found)
            if found:
                assert may_match(pattern, text)
    assert matched > 1000
    assert not may_match(next(iter(_decision_stems._PATTERN_NEEDS)), "")  # noqa: SLF001
