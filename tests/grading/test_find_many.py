"""A list of values looked for in a text view at once answers as each value's own search.

`mcpgym_grading._find_many.contains_each` searches a forbidden list in one pass per view
(token-stream keys, one skeleton trie per needle group); every answer must be
`TextView.contains`'s, value by value, on texts built to reach every reading of the
skeleton (look-alikes, letter pairs read as one letter, glued separator words, vertical
lines, prose breaks, signs, money, markup) and on values cut from those texts.
"""

from __future__ import annotations

import random

import pytest

from mcpgym_grading import _find_many
from mcpgym_grading._text import TextView

from .test_view_index import TEXTS, VALUES

PIECES = [
    "rn", "m", "l", "|", "I", "1", "0", "o", "at", "dot", " ", ", ", ". ", "-", "$5.00",
    "nine", "four", "oh", "⠃", "ı", "disregard", "my", "previous", "message", "ignore",
    "the", "earlier", "reply", "jane", "doe", "example", "org", "@", ".", "9", "4", "5",
    "ex", "ample", "\n", "; ", "e", "a", "s", "z", "twenty", "eight", "x-ray", "zulu",
    "-12.50", "12", "50", "wun", "too", "ſ", "ｍ", "AT", "DOT", "examp|e", "|",
]  # fmt: skip
WITHDRAWN = [
    "disregard my previous message", "ignore the earlier reply", "retract our answer",
    "meant for another customer", "was sent in error", "wasn't meant for you",
]  # fmt: skip


def _one_by_one(view: TextView, values: list[str]) -> list[bool | None]:
    out: list[bool | None] = []
    for v in values:
        try:
            out.append(view.contains(v))
        except ValueError:
            out.append(None)
    return out


def _cases(seed: int, n: int) -> list[tuple[str, list[str]]]:
    rnd = random.Random(seed)
    fixed = [*VALUES, *WITHDRAWN, "", "--", "rn", "m", "l l", "jane at example", "at dot"]
    out: list[tuple[str, list[str]]] = []
    for k in range(n):
        text = (
            rnd.choice(TEXTS) if k % 5 == 0 else "".join(rnd.choices(PIECES, k=rnd.randint(0, 30)))
        )
        if k % 7 == 0:
            text = f"<p>{text}</p><!-- {''.join(rnd.choices(PIECES, k=8))} -->"
        values = rnd.sample(fixed, 25)
        for _ in range(30):  # spans of the text itself, some with a letter swapped
            if not text:
                break
            i = rnd.randrange(len(text))
            span = text[i : rnd.randrange(i, min(len(text), i + 40) + 1)]
            if rnd.random() < 0.3:
                span = span.replace(rnd.choice("aeiolmnr ."), rnd.choice(["rn", "m", "l", "1", ""]))
            elif (
                rnd.random() < 0.3
            ):  # the text's vertical lines and glued words as the value has them
                span = span.replace("|", "l").replace("at", "@").replace("dot", ".")
            values.append(span)
        out.append((text, values))
    return out


@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_answer_is_the_value_by_value_search(seed: int, signed: bool) -> None:
    found = missing = errors = 0
    for text, values in _cases(seed, 150):
        expected = _one_by_one(TextView._build(text, signed), values)  # noqa: SLF001
        view = TextView._build(text, signed)  # noqa: SLF001 - fresh: nothing remembered
        assert _find_many.contains_each(view, values) == expected, text
        found += expected.count(True)
        missing += expected.count(False)
        errors += expected.count(None)
        assert _find_many.contains_each(view, values) == expected  # from the view's memo
    assert found > 300 and missing > 300 and errors > 0  # every answer exercised


def test_the_skeleton_trie_finds_what_the_token_streams_miss() -> None:
    text = (
        "Please dis-re-gard my prev1ous rnessage; it was sent in err0r. j a n e AT example; "
        "write to bobATexample DOT org or examp|e.net"
    )
    values = [
        "disregard my previous message", "was sent in error", "jane@example", "nope",
        "bob@example.org", "example.net", "bob.net",
    ]  # fmt: skip
    want = [True, True, True, False, True, True, False]
    view = TextView._build(text, False)  # noqa: SLF001
    assert _find_many.contains_each(view, values) == want
    assert _one_by_one(TextView._build(text, False), values) == want  # noqa: SLF001


def test_a_list_is_prepared_once_and_the_switch_falls_back() -> None:
    values = tuple(WITHDRAWN)
    assert _find_many.value_list(values, False) is _find_many.value_list(values, False)
    view = TextView._build("Ignore the earlier reply.", False)  # noqa: SLF001
    _find_many.ENABLED = False
    try:
        assert _find_many.contains_each(view, [*WITHDRAWN, "--"]) == [
            False, True, False, False, False, False, None,
        ]  # fmt: skip
    finally:
        _find_many.ENABLED = True


@pytest.mark.parametrize("signed", [True, False])
def test_a_list_close_to_a_prepared_one_reuses_it(signed: bool) -> None:
    """A long list that differs from one prepared by a few values (each variant's "every
    other order's tracking number") is searched as that list plus the values it lacks
    (not prepared anew), every answer still the value's own search."""
    cases = _cases(7, 30)
    pool = list(dict.fromkeys(v for _, values in cases for v in values))
    first = tuple(pool[:120])
    close = (*pool[3:117], pool[150], pool[151], pool[5])  # some lacked, one twice
    for values in (first, close):
        for text, _ in cases:
            expected = _one_by_one(TextView._build(text, signed), list(values))  # noqa: SLF001
            view = TextView._build(text, signed)  # noqa: SLF001
            assert _find_many.contains_each(view, values) == expected, text
    parts = _find_many._layout(close, signed)  # noqa: SLF001
    assert parts[0][0] is _find_many.value_list(first, signed)
    assert [p[0].values for p in parts[1:]] == [(pool[150], pool[151])]  # the two it lacks
