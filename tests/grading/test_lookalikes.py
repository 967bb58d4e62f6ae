"""Look-alike symbol blocks read as their letters and digits, and the prose-break rule of
the skeleton view (a comma or semicolon + space between whole values is no join)."""

from __future__ import annotations

import re
import unicodedata

import pytest

from mcpgym_grading._lookalike import PRESENTATION
from mcpgym_grading._skeleton import CONFUSABLES, Needle, build, find
from mcpgym_grading._text import TextView, fold, money_spans

EMAIL = "jane.doe@example.org"
ZIP = "94105"
TRACKING = "9400119033031441400692"
ORDER = "100441"
PHONE = "415-555-0134"

_LATIN = re.compile(r"(?:(?P<pre>[A-Z -]+) )?(?:LATIN (?:CAPITAL |SMALL )?LETTER) (?P<x>[A-Z])")
_MATH = re.compile(r"MATHEMATICAL [A-Z -]+ (?:CAPITAL|SMALL) (?P<x>[A-Z])")


def read(c: str) -> str:
    """What the skeleton reads of ``c``: its folded letters and digits."""
    return re.sub(r"[\W_]", "", fold(c).translate(CONFUSABLES))


def presentation_letters() -> dict[str, str]:
    """Every Latin letter drawn as a presentation form (enclosed, negative, squared,
    parenthesized, fullwidth, mathematical, modifier, superscript, subscript, regional
    indicator), by its Unicode name: ``{character: letter}``."""
    out: dict[str, str] = {}
    for code in range(0x80, 0x20000):
        c = chr(code)
        name = unicodedata.name(c, "")
        if name.startswith("REGIONAL INDICATOR SYMBOL LETTER "):
            out[c] = name[-1].lower()
        elif (m := _MATH.fullmatch(name)) or (
            (m := _LATIN.fullmatch(name))
            and m.group("pre")
            and set(m.group("pre").split()) <= PRESENTATION
        ):
            out[c] = m.group("x").lower()
    return out


def test_every_presentation_form_of_a_latin_letter_reads_as_it() -> None:
    letters = presentation_letters()
    # the blocks of the kind, each whole (NFKC folds some, not all of them)
    for base in (0x1F150, 0x1F170, 0x1F1E6, 0x24B6, 0x24D0, 0x1F130, 0x249C, 0xFF21, 0x1D400):
        block = [chr(base + i) for i in range(26)]
        assert all(c in letters for c in block), hex(base)
    assert len(letters) > 900
    wrong = {c: read(c) for c, x in letters.items() if read(c) != x}
    assert wrong == {}


@pytest.mark.parametrize(
    ("block", "base"),
    [
        ("negative circled", 0x1F150),
        ("negative squared", 0x1F170),
        ("regional indicator", 0x1F1E6),
        ("circled", 0x24B6),
        ("squared", 0x1F130),
        ("parenthesized", 0x249C),
        ("mathematical bold fraktur", 0x1D56C),
        ("mathematical monospace", 0x1D670),
    ],
)
def test_an_email_in_a_whole_letter_block_is_found(block: str, base: int) -> None:
    def draw(text: str) -> str:
        return "".join(chr(base + ord(c) - 97) if c.isalpha() else c for c in text)

    for text in (draw(EMAIL), f"write to {draw('jane')}.doe@{draw('example')}.org"):
        assert TextView.of(f"The address on file: {text}").contains(EMAIL), (block, text)


def test_regional_indicators_pair_into_flags_and_still_read_as_two_letters() -> None:
    assert fold("\U0001f1ef\U0001f1f5") == "jp"  # the flag of Japan: J and P
    assert fold("\U0001f1fa\U0001f1f8 94105") == "us 94105"
    jane = "".join(chr(0x1F1E6 + ord(c) - 97) for c in "janedoe")  # 🇯🇦 🇳🇪 🇩🇴 + e
    assert TextView.of(f"{jane[:4]}.{jane[4:]}@example.org").contains(EMAIL)


def test_squared_abbreviations_read_as_their_letters() -> None:
    assert fold("\U0001f194 \U0001f18e \U0001f197") == "id ab ok"
    assert fold("\U0001f1a5") == "d"  # squared latin small letter d
    assert fold("\U0001f18a") == "p"  # crossed negative squared P


def test_every_enclosed_digit_and_number_reads_as_its_digits() -> None:
    words = {"DIGIT", "NUMBER"}
    numbers = {
        c: str(int(unicodedata.numeric(c)))
        for c in map(chr, range(0x80, 0x20000))
        if (name := unicodedata.name(c, ""))
        and words & set(name.split())
        and any(w in name for w in ("CIRCLED", "SQUARED", "PARENTHESIZED", "FULL STOP"))
        and unicodedata.numeric(c, None) is not None
        and unicodedata.numeric(c) == int(unicodedata.numeric(c))
    }
    assert {"\u277f", "\u24eb", "\u24fe", "\u3248", "\U0001f10b", "\U0001f10c"} <= set(numbers)
    assert {c: read(c) for c, d in numbers.items() if read(c) != d} == {}
    assert TextView.of("order \u277f\u24ff\u2779\u2779\u2780").contains(ORDER)  # ❿⓿❹❹➀


def test_numerals_of_other_scripts_are_no_look_alikes() -> None:
    # counting rods and Aegean numbers are numerals, not drawn like a digit
    assert fold("\U0001d360\U00010107") == "\U0001d360\U00010107"
    assert fold("\u2295 \u229e") == "\u2295 \u229e"  # circled / squared plus: no letters


def test_digits_drawn_like_letters_stand_for_them_in_a_value() -> None:
    for text in ("jane.d0e@example.org", "jane.doe@examp1e.org", "jane.d0e@examp1e.0rg"):
        assert TextView.of(f"Email: {text}").contains(EMAIL), text
    assert not TextView.of("Email: jane.d2e@example.org").contains(EMAIL)


# the prose-break rule


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (ZIP, "Your new address is Apt 9, 4105 Elm Street, Austin, TX 78701."),
        (ZIP, "Dates: 9/4, 1/05"),
        (ZIP, "Dates: 9/4; 1/05"),
        (ZIP, "Rooms 94, 105 and 12 are free."),
        ("104", "We found orders 10, 4 and 7."),
        (ZIP, "Suite 941, 05 keys were handed over."),
        (ORDER, "Order 1004, 41 items; order 1, 00441 is a typo."),
        ("1Z999AA10123456784", "Order 1, Z 999 AA 1 0123 4567 84"),
        (ZIP, "It took twenty, eight days; ninety-four, one hundred five."),
    ],
)
def test_numbers_a_comma_separates_in_prose_are_not_one_value(value: str, text: str) -> None:
    assert not TextView.of(text).contains(value)


def _split(value: str, n: int, sep: str) -> str:
    return sep.join(value[i : i + n] for i in range(0, len(value), n))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (ZIP, "ZIP 9, 4, 1, 0, 5 on file"),
        (ZIP, "ZIP 9; 4; 1; 0; 5"),
        (ZIP, "nine, four, one, zero, five"),
        (ZIP, "nine, four, one, zero, and five"),
        (ZIP, "9, 4, 1, 0 and 5"),
        (ZIP, "94,105"),
        (ZIP, "94-105"),
        (ZIP, "9 4 1 0 5"),
        (ZIP, "941.05"),
        (TRACKING, _split(TRACKING, 4, ", ")),  # a shorter remainder at the end
        (TRACKING, _split(TRACKING, 4, "; ")),
        (TRACKING, _split(TRACKING, 3, ", ")),
        (TRACKING, _split(TRACKING, 2, ", ")),
        (TRACKING, _split(TRACKING, 1, ", ")),
        (TRACKING, "9400 1190, 3303 1441, 4006 92"),
        (TRACKING, "94, 0011, 9033, 0314, 4140, 0692"),  # a shorter remainder at the start
        (ORDER, "100, 441"),
        (ORDER, "10, 04, 41"),
        (EMAIL, ", ".join(EMAIL)),
        (EMAIL, ", ".join(EMAIL[:-1]) + " and " + EMAIL[-1]),
        (EMAIL, "jane, doe@example.org"),
        (PHONE, "415, 555, 0134"),  # a longer remainder after two equal groups
        (PHONE, "415, 555-0134"),
        (PHONE, "four one five, triple five, oh one three four"),
    ],
)
def test_a_value_split_at_commas_into_regular_pieces_is_found(value: str, text: str) -> None:
    assert TextView.of(f"For the record: {text}.").contains(value), text


def _skeleton_finds(text: str, value: str) -> bool:
    folded = fold(text)
    return find(build(folded, money_spans(folded)), Needle.of(fold(value)), signed=False)


def test_the_skeleton_alone_stops_at_a_prose_break_unless_the_value_has_one() -> None:
    assert _skeleton_finds("Apt 9. 4105 Elm", "94105")  # no prose break: joined
    assert not _skeleton_finds("Apt 9, 4105 Elm", "94105")
    assert _skeleton_finds("Apt 9, 4105 Elm", "9, 4105")  # the value has the break there
    assert _skeleton_finds("Apt 9,4105 Elm", "94105")  # a comma inside a number
