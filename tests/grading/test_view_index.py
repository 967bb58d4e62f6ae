"""A text view's search indexes and the grading SQL functions' memo answer as the full work.

`mcpgym_grading._view_index` hands each search of a `TextView` only the starts its first
test lets through; `mcpgym_grading._sql_function_memo` keeps the grading SQL functions'
results per (function, typed arguments). Both must change no answer: the indexed search
is compared with the full scan on texts built to reach every reading of the skeleton
(spelled numbers, look-alikes, separator words, braille, money, signs, markup), and the
memo is checked for what it keeps and what it must not.
"""

from __future__ import annotations

import itertools
import sqlite3
from typing import Any

import pytest

from mcpgym_grading import _skeleton
from mcpgym_grading._sql_function_memo import SQL_FUNCTION_MEMO, FunctionMemo
from mcpgym_grading._text import TextView
from mcpgym_grading._values import register_sql_functions
from mcpgym_grading._view_index import AtomStarts, GroupStarts

TEXTS = [
    "Your refund of $288.01 for order 94105 is on its way; tracking 1Z999AA10123456784.",
    "Call us at (941) 05 or write to jane.doe@example.org - ref nine four one oh five.",
    "ZIP 2 8 8 0 1, order #A-1042, amount -12.50 USD; janeATexample DOT com",
    "Tracking: ⠃⠓⠓⠚⠁ / 1Z 999 AA1 0123 4567 84, carrier U/P/S, twenty-eight thousand one",
    "We can't cancel it: the parcel left with FedEx. Order rn-4150 is also fine, STTEZG4EE.",
    "<p>Order <b>94105</b></p><!-- 28801 --> <a href='https://x.test/9410'>link</a>",
    "Doe, Jane; double zero seven, triple five, wun too tree, x-ray zulu",
    "",
]
VALUES = [
    "94105", "28801", "1Z999AA10123456784", "jane.doe@example.org", "Doe, Jane", "UPS",
    "FedEx", "4150", "577326433", "-12.50", "12.50", "A-1042", "xz", "007", "555", "123",
    "we will not refund", "cancel", "m", "example.com", "9410", "28001", "bhhja", "941 05",
]  # fmt: skip


def _full_scan(view: TextView, value: str) -> bool:
    """``view``'s answer with every start scanned (no index) and nothing remembered."""
    plain = TextView.__new__(TextView)
    for name in view.__dataclass_fields__:
        object.__setattr__(plain, name, getattr(view, name))
    object.__setattr__(plain, "_found", {})
    object.__setattr__(plain, "_index", {})
    mp = pytest.MonkeyPatch()
    mp.setattr(TextView, "_starts", lambda _self, _name, _toks: None)
    mp.setattr(TextView, "_atom_starts", lambda _self: None)
    try:
        return plain._contains(value) or (  # noqa: SLF001
            plain._source is not None and plain._source._contains(value)  # noqa: SLF001
        )
    finally:
        mp.undo()


@pytest.mark.parametrize("signed", [True, False])
def test_indexed_search_answers_as_the_full_scan(signed: bool) -> None:
    found = 0
    for text, value in itertools.product(TEXTS + [" ".join(TEXTS)], VALUES):
        view = TextView._build(text, signed)  # noqa: SLF001 - a fresh view, no cache
        assert view.contains(value) == _full_scan(view, value), (text, value)
        found += view.contains(value)
    assert 20 < found < len(TEXTS) * len(VALUES)  # both answers are exercised


def test_group_starts_are_the_tokens_the_head_starts_with() -> None:
    toks = ("94", "941", "9", "05", "", "94105", "x")
    index = GroupStarts(toks)
    for head in ("94105", "9", "x", "", "05", "zz"):
        assert index.starts(head) == [i for i, t in enumerate(toks) if head.startswith(t)]


def test_atom_starts_follow_the_scan_and_refuse_empty_readings() -> None:
    atoms = _skeleton.build("order nine four one oh five, 1z999 ⠃⠓⠓⠚⠁", [])
    index = AtomStarts(atoms)
    assert index.usable
    for first in "9ozb1":
        expected = [
            (a, ci)
            for a, atom in enumerate(atoms)
            if atom.kind == _skeleton.TOK
            for ci, text in enumerate(atom.texts)
            if _skeleton._alike(text[0], first, None)  # noqa: SLF001
        ]
        assert list(index.starts(first, None)) == expected
    broken = (*atoms, _skeleton.Atom(_skeleton.TOK, ("",)))
    assert not AtomStarts(broken).usable  # the scan would raise there: the caller scans


def test_the_run_plan_is_kept_per_needle() -> None:
    needle = _skeleton.Needle.of("jane.doe@example.org")
    assert _skeleton._plan(needle) is _skeleton._plan(needle)  # noqa: SLF001
    long, more, nxt = _skeleton._plan(needle)  # noqa: SLF001
    assert (long, more) == (True, None) and nxt[0] == 4  # the first break: before "doe"


# -- the SQL function memo -------------------------------------------------------------------


def test_memo_keeps_results_by_typed_arguments() -> None:
    memo = FunctionMemo()
    seen: list[tuple[Any, ...]] = []

    def fn(*args: Any) -> str:
        seen.append(args)
        return repr(args)

    call = memo.wrap("f", 1, fn)
    assert call("a") == call("a") == "('a',)"
    assert call(1) == "(1,)" and call(1.0) == "(1.0,)" and call(True) == "(True,)"
    assert call(0.0) == "(0.0,)" and call(-0.0) == "(-0.0,)"
    assert call(b"a") == "(b'a',)" and call(None) == "(None,)"
    assert len(seen) == 8  # "a" once; 1, 1.0, True, 0.0, -0.0, b"a", None each their own
    assert memo.cache_info().hits == 1
    other = memo.wrap("g", 1, lambda x: "g")  # another function: another key
    assert other("a") == "g"


def test_memo_does_not_keep_errors_or_long_arguments_and_is_bounded() -> None:
    memo = FunctionMemo(max_entries=3)
    calls = []

    def fn(x: Any) -> Any:
        calls.append(x)
        if x == "bad":
            raise ValueError(x)
        return len(x)

    call = memo.wrap("f", 1, fn)
    for _ in range(2):
        with pytest.raises(ValueError):
            call("bad")
    long = "x" * 9000
    assert call(long) == call(long) == 9000
    assert calls == ["bad", "bad", long, long]
    for x in ("a", "b", "c", "d"):
        call(x)
    assert memo.cache_info().currsize == 3
    call("a")  # dropped first (least recently used): computed again
    assert calls[-1] == "a" and len(calls) == 9
    memo.enabled = False
    call("d")
    assert calls[-1] == "d"


def test_registered_functions_answer_from_the_shared_memo() -> None:
    SQL_FUNCTION_MEMO.cache_clear()
    sql = "SELECT mcpgym_withdrawal(?), mcpgym_mentions(?, 'UPS')"
    reply = "Sorry, we cannot refund this order. It ships with U/P/S."
    rows = []
    for _ in range(2):  # two connections, as two grades have
        db = sqlite3.connect(":memory:")
        register_sql_functions(db)
        rows.append(db.execute(sql, (reply, reply)).fetchall())
        db.close()
    assert rows[0] == rows[1] and rows[0][0][1] == 1
    info = SQL_FUNCTION_MEMO.cache_info()
    assert (info.hits, info.misses) == (2, 2)
