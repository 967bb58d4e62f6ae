"""Text normalisation for `AnswerMatch`: text, whole tokens, money amounts."""

from __future__ import annotations

import re

MAX_AMOUNT_DIGITS = 15
"""Longer digit runs are not read as money amounts (no real amount has them)."""

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[^\W_]+")

_NUMBER = r"(?P<{g}>\d{{1,3}}(?:,\d{{3}})+(?:\.\d{{1,2}})?|\d+(?:\.\d{{1,2}})?)(?!\d|[.,]\d)"
_MONEY = re.compile(
    r"(?:(?:US\$|\$|\bUSD)\s?-?\s?" + _NUMBER.format(g="pre") + r")"
    r"|(?:(?<![\w.,$])" + _NUMBER.format(g="post") + r"\s?(?:USD\b|(?:US\s)?dollars?\b|\$))",
    re.IGNORECASE,
)


def normalise_text(text: str) -> str:
    """Casefold and collapse runs of whitespace to one space (trimmed)."""
    return _WS.sub(" ", text.casefold()).strip()


def tokens(text: str) -> list[str]:
    """Casefolded alphanumeric tokens; everything else (punctuation, ``_``, space) separates."""
    return _TOKEN.findall(text.casefold())


_GROUP_SEPARATOR = re.compile(r"\s{1,3}|\s?[-\u2010-\u2014]\s?")
"""What may stand between digit groups: up to three spaces of any kind (NBSP included) or
one dash (hyphen, en or em dash) with a space either side at most."""


def grouped_tokens(text: str) -> list[str]:
    """Like `tokens`, but digit-bearing tokens split by spaces or a dash are joined.

    ``"9405 5932 3632"`` and ``"1Z-999-AA1"`` become one token each (how carriers and
    people write tracking and phone numbers), while words stay apart. Linear time.
    """
    folded = text.casefold()
    out: list[str] = []
    prev_end = -1
    prev_digit = False
    for m in _TOKEN.finditer(folded):
        tok = m.group(0)
        has_digit = any(c.isdigit() for c in tok)
        if (
            out
            and prev_digit
            and has_digit
            and _GROUP_SEPARATOR.fullmatch(folded[prev_end : m.start()])
        ):
            out[-1] += tok
        else:
            out.append(tok)
        prev_end, prev_digit = m.end(), has_digit
    return out


def contains_tokens(haystack: list[str], needle: list[str]) -> bool:
    """Whether ``needle`` occurs as a contiguous run of whole tokens in ``haystack``."""
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def money_amounts(text: str) -> list[int]:
    """Money amounts in ``text`` as integer cents, in order of appearance.

    Recognised: ``$1,234.50``, ``$12``, ``US$ 5``, ``USD 12.00``, ``1234.50 USD``,
    ``12 dollars``, ``249.00 US dollars``, ``249.00$``, ``249 $``. A sign is ignored
    (``-$5`` is 500). Bare numbers are not amounts.
    """
    amounts: list[int] = []
    for m in _MONEY.finditer(text):
        raw = (m.group("pre") or m.group("post")).replace(",", "")
        whole, _, frac = raw.partition(".")
        if len(whole) > MAX_AMOUNT_DIGITS:
            continue  # not a plausible amount (and int() refuses >4300 digits)
        amounts.append(int(whole) * 100 + int(frac.ljust(2, "0") or "0"))
    return amounts
