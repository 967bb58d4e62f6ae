"""Text normalisation for `AnswerMatch`: text, whole tokens, money amounts."""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[^\W_]+")

_NUMBER = r"(?P<{g}>\d{{1,3}}(?:,\d{{3}})+(?:\.\d{{1,2}})?|\d+(?:\.\d{{1,2}})?)(?!\d|[.,]\d)"
_MONEY = re.compile(
    r"(?:(?:US\$|\$|\bUSD)\s?-?\s?" + _NUMBER.format(g="pre") + r")"
    r"|(?:(?<![\w.,$])" + _NUMBER.format(g="post") + r"\s?(?:USD\b|dollars?\b))",
    re.IGNORECASE,
)


def normalise_text(text: str) -> str:
    """Casefold and collapse runs of whitespace to one space (trimmed)."""
    return _WS.sub(" ", text.casefold()).strip()


def tokens(text: str) -> list[str]:
    """Casefolded alphanumeric tokens; everything else (punctuation, ``_``, space) separates."""
    return _TOKEN.findall(text.casefold())


def contains_tokens(haystack: list[str], needle: list[str]) -> bool:
    """Whether ``needle`` occurs as a contiguous run of whole tokens in ``haystack``."""
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def money_amounts(text: str) -> list[int]:
    """Money amounts in ``text`` as integer cents, in order of appearance.

    Recognised: ``$1,234.50``, ``$12``, ``US$ 5``, ``USD 12.00``, ``1234.50 USD``,
    ``12 dollars``. A sign is ignored (``-$5`` is 500). Bare numbers are not amounts.
    """
    amounts: list[int] = []
    for m in _MONEY.finditer(text):
        raw = (m.group("pre") or m.group("post")).replace(",", "")
        whole, _, frac = raw.partition(".")
        amounts.append(int(whole) * 100 + int(frac.ljust(2, "0") or "0"))
    return amounts
