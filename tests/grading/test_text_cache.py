"""The remembered text views and value forms read what a fresh build reads."""

from __future__ import annotations

import pytest

from mcpgym_grading import _text
from mcpgym_grading._text import VIEW_CACHE_MAX_CHARS, TextView

TEXTS = [
    "Refunded $25.00 for order 101; tracking 9405 5932 3632.",
    "Reach jane dot doe at example dot org <!-- 764342929901 -->",
    "<b>Total</b>: -$5, ticket #T-77, 1Z-999-AA1",
    "",
]
VALUES = ["25.00", "9405 5932 3632", "jane.doe@example.org", "764342929901", "-5", "T-77"]


@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("text", TEXTS)
def test_a_remembered_view_finds_what_a_fresh_one_finds(text: str, signed: bool) -> None:
    fresh = TextView._build(text, signed)  # noqa: SLF001
    for _ in range(2):  # built once, then served from the cache
        view = TextView.of(text, signed=signed)
        assert view == fresh
        for value in VALUES:
            assert view.contains(value) == fresh.contains(value), value
            assert view.equals(value) == fresh.equals(value), value


def test_a_long_text_is_not_remembered() -> None:
    _text._cached_view.cache_clear()  # noqa: SLF001
    long = "order 101 " * (VIEW_CACHE_MAX_CHARS // 10 + 1)
    assert TextView.of(long).contains("101")
    assert _text._cached_view.cache_info().currsize == 0  # noqa: SLF001
    TextView.of("order 101")
    assert _text._cached_view.cache_info().currsize == 1  # noqa: SLF001


def test_a_value_without_tokens_is_refused_every_time() -> None:
    view = TextView.of("order 101")
    for _ in range(2):
        with pytest.raises(ValueError, match="no alphanumeric token"):
            view.contains("--")
