"""Work a first-seen grade skips where its answer is known (stop 30, issue 12 §1): the money
parser's preparation of a plain ASCII text (`_money_prepare._plain_ascii`) by `fold`'s
ASCII way with the line breaks kept, and the elliptical-clause reader
(`_decision_ellipsis.elided`) looking for a record only where it stands verbatim; each
gives what the full work gives."""

from __future__ import annotations

import html
import re

import pytest

from mcpgym_grading import _decision_ellipsis, _money_prepare
from mcpgym_grading._text import fold

TEXTS = [
    "",
    "Refunded $45.00 to your Visa.",
    "Hi Nathan,\n\nOrder #100545 shipped in two parcels:\n- DHL\t(Express)\r\n- UPS",
    "REFUNDED FORTY-FIVE DOLLARS and 00/100\r\nThanks",
    "a hundred and twenty bucks\x1cthen\x1d twelve\x0bdollars\x0c50",
    "CCV dollars, USD, 649.89 or 64989c; 1'995.50",
    "in USD, 2 refunds of %24 45 each",
    "Total: 90\n\n| item | price |\n|---|---|\n| socks | 7.95 |",
    # what `fold` decodes or strips (not the ASCII way): the full work
    "&#36;45.00 &amp; more",
    "94<span>105</span> and [941](x)05",
    "9**4**105 `x` ~~y~~ under_score 50% \\u0039",
    # outside ASCII: the full work
    "Refunded 45½ dollars 💵649.89 and 45⁰⁰ € ❺",
    "$2О5.О2 and $бЧ9.88\nnext line",
    "Ｊａｎｅ\u00a0—\u3000ＤＯＥ paid 1\u066b5",
]


def _full(text: str) -> str:
    """`_prepare` as main wrote it: every step, whatever the text."""
    mp = _money_prepare
    text = html.unescape(html.unescape(text))
    text = mp._ROMAN.sub(mp._roman, mp._THOUSANDS_QUOTE.sub(",", text))  # noqa: SLF001
    text = mp._DOLLAR_LOOKALIKES.sub("$", text)  # noqa: SLF001
    text = mp._MONEY_EMOJI.sub(lambda m: mp._EMOJI_SIGN.get(m.group("e"), "$"), text)  # noqa: SLF001
    text = mp._VULGAR_RE.sub(lambda m: (m.group("d") or "0") + mp._VULGAR[m.group("f")], text)  # noqa: SLF001
    text = mp._SUPER_AFTER_DIGIT.sub(  # noqa: SLF001
        lambda m: "." + "".join(str(mp._SUPERSCRIPTS.index(c)) for c in m.group(0)).ljust(2, "0"),  # noqa: SLF001
        text,
    )
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", mp._LINE_BREAK)  # noqa: SLF001
    text = fold(text).replace(mp._LINE_BREAK, "\n").translate(mp._OTHER_DIGITS)  # noqa: SLF001
    text = mp._lookalike_digits(text)  # noqa: SLF001
    text = text.replace("\u066b", ".").replace("\u066c", ",")
    text = mp._CODE_COMMA.sub(lambda m: m.group("code") + " ", text)  # noqa: SLF001
    text = mp._GLUED_CENTS.sub(lambda m: m.group("n") + " cents", text)  # noqa: SLF001
    return mp._CHECK_CENTS.sub(r"\1.\2", mp._digits_for_words(text))  # noqa: SLF001


@pytest.mark.parametrize("text", TEXTS)
def test_prepare_is_the_full_work(text: str) -> None:
    """The prepared text is the full work's, on the ASCII way and off it."""
    assert _money_prepare._prepare(text) == _full(text)  # noqa: SLF001


def test_plain_ascii_is_taken_only_where_fold_reads_ascii() -> None:
    """The ASCII way is taken for plain ASCII, never for what `fold` decodes or strips, nor
    outside ASCII (on main there is no such way: the name is missing)."""
    plain = _money_prepare._plain_ascii  # noqa: SLF001
    assert plain("Refunded $45.00\n\tto your card\x1c.")
    for text in ("&#36;45", "50%", "a\\u0039", "9<b>4</b>", "[x](y)", "9*4", "a_b", "~", "`"):
        assert not plain(text), text
    assert not plain("45½")


RECORDS = ["#100107", "100107", "inv-2026-0151", "it", "that"]
FOLDED = [
    "order #100107 wasn't refunded at first. now it is.",
    "order #100108 was cancelled, and so was #100107.",
    "inv-2026-0151 was written off; inv-2026-0152 was not.",
    "order #1001070 was refunded, and #100107 too.",
    "nothing here names a record.",
]


def _elided_full(folded: str, record: str, prior: str) -> str | None:
    """`elided` as main wrote it: the record's pattern searched in every text."""
    el = _decision_ellipsis
    found = re.search(rf"(?<![0-9a-z]){re.escape(record)}(?![0-9a-z])", folded)
    if found is None:
        return None
    before, clause = el._clause(folded, found.start())  # noqa: SLF001
    lender = before if el._PARTICIPLE.search(before) else prior  # noqa: SLF001
    return el._spell(clause.replace(record, " ", 1), record, lender)  # noqa: SLF001


@pytest.mark.parametrize("folded", FOLDED)
@pytest.mark.parametrize("record", RECORDS)
def test_elided_is_the_full_search(folded: str, record: str) -> None:
    """`elided` gives what the full search gives; the record's pattern is kept past
    `re.purge` (on main there is none: the name is missing)."""
    for prior in ("", "it was refunded."):
        got = _decision_ellipsis.elided(folded, record, prior=prior)
        assert got == _elided_full(folded, record, prior)
    pattern = _decision_ellipsis._named(record)  # noqa: SLF001
    re.purge()
    assert _decision_ellipsis._named(record) is pattern  # noqa: SLF001
