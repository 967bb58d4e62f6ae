"""The text readers' internals as main had them before stop 26 (perfB26), for
`bench/grade_readers.py`: each entry of `BEFORE` is ``(module, attribute, the code before)``;
the benchmark swaps them in (the *off* way) and back (*on*).
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from mcpgym_grading import (
    _decision_check,
    _decision_futures,
    _decision_promises,
    _decision_records,
    _decisions,
    _decode,
    _language,
    _money,
    _money_prepare,
    _quoted,
    _skeleton,
    _text,
)
from mcpgym_grading._decision_forms import AFFIRMED_LEAD
from mcpgym_grading._decision_futures import _THIRD
from mcpgym_grading._decision_promises import _ASKED, _FIRST, _PASSIVE, _SENTENCE, _WAITS
from mcpgym_grading._decode import decode_references
from mcpgym_grading._text import (
    _FOLD,
    _joined,
    _pieces,
    _without_spelled,
    grouped_tokens,
    loose_tokens,
    money_spans,
    tokens,
)


def strip_markup(text: str) -> str:
    if "<" in text:
        text = _decode._TAG.sub("", text)  # noqa: SLF001
    if "](" in text:
        text = _decode._MD_LINK.sub(r"\1", text)  # noqa: SLF001
    if "\\" in text:
        text = _decode._TEX_MATH.sub(lambda m: _decode._TEX_SPACES.sub("", m.group(1)), text)  # noqa: SLF001
        text = _decode._TEX_SPACES.sub("", text)  # noqa: SLF001
    return _decode._MD_EMPHASIS.sub("", text)  # noqa: SLF001


_RTL_START = frozenset("\u202b\u202e\u2067")


def visual_order(text: str) -> str:
    if not _RTL_START.intersection(text):
        return text
    parts = _decode._LINE.split(text)  # noqa: SLF001
    return "".join(p if k % 2 else _decode._line_order(p) for k, p in enumerate(parts))  # noqa: SLF001


def _spans(line: str, source: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(line):
        close = _quoted._OPEN.get(line[i])  # noqa: SLF001
        if close is None or (line[i] in "'\u2019" and i > 0 and line[i - 1].isalnum()):
            out.append(line[i])
            i += 1
            continue
        best = -1
        for j in range(len(line) - 1, i, -1):
            if line[j] != close or (j + 1 < len(line) and line[j + 1].isalnum()):
                continue
            inner = line[i + 1 : j]
            if len(_quoted._ALNUM.findall(inner)) >= _quoted.MIN_SPAN and _quoted._found(  # noqa: SLF001
                inner, source
            ):
                best = -1 if AFFIRMED_LEAD.match(line, j + 1) else j
                break
        if best < 0:
            out.append(line[i])
            i += 1
        else:
            i = best + 1
    return "".join(out)


def fold_cased(text: str) -> str:
    return visual_order(strip_markup(decode_references(text))).translate(_FOLD)


def fold(text: str) -> str:
    return fold_cased(text).casefold()


def _of(cls: Any, text: str, signed: bool) -> Any:
    cased = fold_cased(text)
    folded = cased.casefold()
    pieces = _pieces(text, signed)
    lists = (
        tuple(tokens(text, signed=signed)),
        tuple(grouped_tokens(text, signed=signed)),
        tuple(loose_tokens(text, signed=signed)),
    )
    atoms = _skeleton.build(cased, money_spans(folded))
    return cls(folded, signed, _joined(pieces[0]), pieces, _without_spelled(*pieces), lists, atoms)


def _edited(module: Any, name: str, *edits: tuple[str, str]) -> Any:
    """``module.name`` (a function) with each ``(new, old)`` of ``edits`` undone in its
    source, compiled in the module's own globals (it reads the module's names as they are
    when it runs, swapped or not)."""
    new = vars(module)[name]
    src = textwrap.dedent(inspect.getsource(new))
    for now, before in edits:
        if src.count(now) != 1:
            raise RuntimeError(f"{name}: the edit {now!r} is not in the source once")
        src = src.replace(now, before)
    exec(compile(src, f"<{name} before stop 26>", "exec"), vars(module))  # noqa: S102
    old = vars(module)[name]
    setattr(module, name, new)
    return old


def taken_on(rows: Iterable[tuple[object, ...]]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for row in rows:
        if len(row) < 2 or row[0] is None or row[1] is None:
            continue
        out.setdefault(str(row[0]), set()).add(fold(str(row[1])).strip())
    return {a: frozenset(r) for a, r in out.items()}


def on_file(rows: Iterable[tuple[object, ...]]) -> frozenset[str]:
    return frozenset(
        fold(str(row[1])).strip()
        for row in rows
        if len(row) >= 2 and row[0] is None and row[1] is not None
    )


def record_patterns(
    taken: Mapping[str, frozenset[str]],
) -> tuple[dict[str, dict[str, re.Pattern[str]]], re.Pattern[str] | None]:
    # the lines of misbound_claims before stop 26, with record_pattern not remembered
    pattern = _decision_records.record_pattern.__wrapped__  # type: ignore[attr-defined]
    patterns = {a: {p.pattern: p for p in map(pattern, recs)} for a, recs in taken.items()}
    every = [pat for pats in patterns.values() for pat in pats.values()]
    kinds = re.compile("|".join(f"(?:{p.pattern})" for p in every)) if every else None
    return patterns, kinds


def stated_sentences(reading: str) -> Iterator[str]:
    start = 0
    for end_m in (*_SENTENCE.finditer(reading), None):
        end = len(reading) if end_m is None else end_m.end()
        sentence = reading[start:end]
        start = end
        if not sentence.rstrip().endswith("?") and not _WAITS.search(sentence):
            yield sentence


def promises(reading: str, matches: Callable[[str, int, bool], bool]) -> list[str]:
    out: list[str] = []
    for sentence in stated_sentences(reading):
        found = any(
            matches(sentence, m.end(), passive)
            for passive, marker in ((False, _FIRST), (True, _PASSIVE))
            for m in marker.finditer(sentence)
            if not _ASKED.search(sentence, 0, m.start())
        )
        if found:
            out.append(sentence.strip())
    return out


def futures(
    reading: str, matches: Callable[[str, int], bool] | None, noun: str | None
) -> list[str]:
    nouns = _decision_futures._noun_patterns.__wrapped__(noun) if noun else ()  # noqa: SLF001
    out: list[str] = []
    for sentence in stated_sentences(reading):
        found = matches is not None and any(
            matches(sentence, m.end())
            for m in _THIRD.finditer(sentence)
            if not _ASKED.search(sentence, 0, m.start())
        )
        found = found or any(
            not _ASKED.search(sentence, 0, m.start()) for p in nouns for m in p.finditer(sentence)
        )
        if found:
            out.append(sentence.strip())
    return out


_MONEY_MENTIONS = _edited(
    _money,
    "_money_mentions",
    (  # stop 27: the scan kept per text (`_money._scanned`); before it, scanned each time
        "    scan = _scanned(text) if len(text) <= REMEMBERED_CHARS else _scan(text)\n",
        "    scan = _scan(text)\n",
    ),
)
_SCAN = _edited(
    _money,
    "_scan",
    (
        "    if _DIGIT.search(prepared) is None:\n        return None\n",
        "",
    ),
)

BEFORE: list[tuple[Any, str, Any]] = [
    (_money, "_money_mentions", _MONEY_MENTIONS),
    (_money, "_scan", _SCAN),
    (
        _language,
        "_other_script",
        _edited(
            _language,
            "_other_script",
            ("    if sentence.isascii():\n        return False  # every letter a Latin one\n", ""),
        ),
    ),
    (
        _decisions,
        "decisions",
        _edited(
            _decisions,
            "decisions",
            ("@_remembered\n", ""),
            ("for action in _live_in(clause, live):", "for action in live:"),
        ),
    ),
    (_money_prepare, "prepare", _money_prepare._prepare),  # noqa: SLF001
    (_decision_promises, "stated_sentences", stated_sentences),
    (_decision_promises, "promises", promises),
    (_decision_futures, "futures", futures),
    (_decode, "strip_markup", strip_markup),
    (_decode, "visual_order", visual_order),
    (_text, "fold_cased", fold_cased),
    (_text.TextView, "_of", classmethod(_of)),
    (_quoted, "_spans", _spans),
    (_decision_check, "taken_on", taken_on),
    (_decision_check, "on_file", on_file),
    (_decision_check, "record_patterns", record_patterns),
]

TEXT_MEMOS: list[Any] = [
    _money_prepare._prepared,  # noqa: SLF001
    _text._atoms,  # noqa: SLF001
    _decisions.decisions,
    _decision_promises._stated_sentences,  # noqa: SLF001
    _decision_promises._marks,  # noqa: SLF001
    _decision_futures._third,  # noqa: SLF001
]
"""The memos of stop 26 keyed by a reply's text: emptied before each first-seen grade."""

VALUE_MEMOS: list[Any] = [
    _decision_records.record_name,
    _decision_records._taken_on,  # noqa: SLF001
    _decision_records._on_file,  # noqa: SLF001
    _decision_records._record_patterns,  # noqa: SLF001
    _decision_records.record_pattern,
    _decision_futures._noun_patterns,  # noqa: SLF001
]
"""The memos of stop 26 kept per value (a variant's records): emptied with ``--cold``."""
