"""Text normalisation helpers of AnswerMatch: tokens and money amounts."""

from __future__ import annotations

import pytest

from mcpgym_grading._decode import visual_order
from mcpgym_grading._text import (
    TextView,
    contains_tokens,
    fold,
    grouped_tokens,
    money_amounts,
    normalise_text,
    tokens,
)


def test_text_normalisation_casefolds_and_collapses_whitespace() -> None:
    assert (
        normalise_text("  Refunded\t$25.00\n\nfor  ORDER 101 ") == "refunded $25.00 for order 101"
    )


@pytest.mark.parametrize(
    ("text", "needle", "found"),
    [
        ("$100", "10", False),
        ("100", "10", False),
        ("refund of 10 dollars", "10", True),
        ("tracking: 1Z999AA10123456784.", "1Z999AA10123456784", True),
        ("tracking: 1Z999AA10123456784.", "1z999aa10123456784", True),
        ("Dear ADA  lovelace!", "Ada Lovelace", True),
        ("Dear Ada Lovelace", "Ada Love", False),
        ("order_101", "101", True),
        ("$12.50", "12.50", True),
    ],
)
def test_token_matching_needs_whole_contiguous_tokens(text: str, needle: str, found: bool) -> None:
    assert contains_tokens(tokens(text), tokens(needle)) is found


def test_tokens_split_on_every_non_alphanumeric() -> None:
    assert tokens("Ref#A-12_b, ok") == ["ref", "a", "12", "b", "ok"]


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("$1,234.50 refunded", [123450]),
        ("total 1234.50 USD", [123450]),
        ("we sent $12.", [1200]),
        ("US$ 5 and USD 12.00", [500, 1200]),
        ("12 dollars back", [1200]),
        ("$1.5", [150]),
        ("-$5.00 adjustment", [500]),
        ("$100 vs $10", [10000, 1000]),
        ("order 100234 for 25.00", []),
        ("$12.505", []),
        ("x1.50 USD", []),
        ("no money here", []),
    ],
)
def test_money_amounts_are_parsed_to_integer_cents(text: str, cents: list[int]) -> None:
    assert money_amounts(text) == cents


@pytest.mark.parametrize(
    ("text", "grouped"),
    [
        ("tracking 9405 5932 3632 2621 4688 48.", ["tracking", "9405593236322621468848"]),
        ("UPS 1Z-999-AA1-0123", ["ups", "1z999aa10123"]),
        ("order 100234 5 items", ["order", "1002345", "items"]),
        ("call me at 10 am", ["call", "me", "at", "10", "am"]),
        ("two  spaces 12  34", ["two", "spaces", "1234"]),
        ("12, 34", ["12", "34"]),
    ],
)
def test_grouped_tokens_join_digit_groups_split_by_one_space_or_hyphen(
    text: str, grouped: list[str]
) -> None:
    assert grouped_tokens(text) == grouped


def test_absurdly_long_amounts_are_not_amounts_and_never_raise() -> None:
    assert money_amounts("$" + "9" * 5000 + " then $12.50") == [1250]


@pytest.mark.parametrize(
    "text",
    ["9405\u00a05932\u202f3632", "9405 \u2013 5932-3632", "9405  5932   3632", "9405 - 5932 3632"],
)
def test_digit_groups_may_be_split_by_any_space_or_one_dash(text: str) -> None:
    assert grouped_tokens(text) == ["940559323632"]


def test_amounts_with_the_currency_after_the_number() -> None:
    assert money_amounts("249.00$, 249 $ and 249.00 US dollars") == [24900, 24900, 24900]


# --- what a reader sees: references, escapes, bidi overrides (issue 9 section 4) -------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("&#57;&#52;&#x31;&#X30;&#53;", "94105"),
        ("jane&commat;example&period;com", "jane@example.com"),
        ("jane&amp;#64;example.com", "jane@example.com"),  # nested: decoded twice
        ("＆＃５７；4105", "94105"),  # a reference in fullwidth is one too
        ("jane%40example.com", "jane@example.com"),
        ("\\u0039\\x34105", "94105"),
        ("50% off, 100%", "50% off, 100%"),  # a percent sign that codes nothing stays
    ],
)
def test_fold_decodes_character_references_and_escapes(text: str, folded: str) -> None:
    assert fold(text) == folded


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("zip \u202e50149\u202c ok", "zip 94105 ok"),  # RLO ... PDF
        ("\u202emoc.elpmaxe@enaj", "jane@example.com"),  # RLO to the end of the line
        ("\u202e50149\nnext", "94105\nnext"),  # a line break ends it
        ("\u202eba\u202dcd\u202cfe\u202c", "efcdab"),  # LRO inside RLO: its run reads forward
        # an isolate or an embedding does not reverse latin letters; an override does
        ("\u2067abc\u2069 \u202babc\u202c \u202e21\u202c", "abc abc 12"),
    ],
)
def test_fold_puts_bidi_overrides_in_display_order(text: str, shown: str) -> None:
    assert visual_order(text) == shown
    assert fold(text) == fold(shown)


SPELLED = {
    "nine four one zero five": "94105",
    "nine four one oh five": "94105",
    "twenty-eight eight oh one": "28801",
    "twenty-eight thousand eight hundred and one": "28801",
    "nineteen eighty-four": "1984",
    "one zee nine nine nine": "1Z999",
    "one zulu nine nine nine": "1Z999",
}


def test_the_skeleton_reads_spelled_numbers_as_digits() -> None:
    missed = [text for text, value in SPELLED.items() if not TextView.of(text).contains(value)]
    assert missed == []
    assert not TextView.of("one of nine").contains("19")  # a word between is a boundary


def test_money_amounts_are_read_as_amounts_before_digits_are_joined() -> None:
    found = {
        "refund of $288.01 today": False,  # an amount is read as an amount first
        "refund of 288.01 USD": False,
        "refund 288.01": True,  # not marked as money: digit groups split by a dot
        "zip 288 01": True,
        "order 1288012": False,  # whole digit runs only
        "zip28801": True,  # letters glued to a digit run are no disguise
        "order 28801st": True,
        "$288.01 28801": True,
    }
    assert {text: TextView.of(text).contains("28801") for text in found} == found


def test_a_long_value_is_looked_for_without_running_out_of_stack() -> None:
    value = "9" * 5000
    view = TextView.of("x " + ".".join(value) + " y")
    assert view.contains(value) is False  # past the skeleton's bound: only the other views
    assert TextView.of(value).contains(value)
    assert TextView.of(".".join("1234567890" * 10)).contains("1234567890" * 10)


def test_the_skeleton_reads_letters_drawn_like_others_as_those() -> None:
    found = {
        ("j\u0430ne@ex\u0430mple.com", "jane@example.com"): True,  # Cyrillic a
        ("\u0399\u039d\u03a4\u0395L", "intel"): True,  # Greek capitals
        ("zip 94lO5", "94105"): True,  # l and O where the value has 1 and 0
        ("lZR4E9l7O", "1ZR4E9170"): True,
        ("ninefouroneohfive", "94105"): True,  # spelled digits glued together
        ("twentyeighteightohone", "28801"): True,
        ("hello 5", "0"): False,  # not glued to a digit: a word
    }
    assert {k: TextView.of(k[0]).contains(k[1]) for k in found} == found


def test_digits_nfkc_keeps_are_read_as_their_digits() -> None:
    # dingbat, double-circled and sans-serif circled digits have a digit value but no
    # NFKC decomposition; a number past 9 (❿) is read as its number (test_lookalikes.py)
    for text in (
        "zip \u277e\u2779\u2776\u24ff\u277a",
        "zip \u2788\u2783\u2780\u24ea\u2784",
        "zip \u24fd\u24f8\u24f50\u24f9",
        "zip \u2792\u278d\u278a\u24ff\u278e",
    ):
        assert TextView.of(text).contains("94105"), text
    assert fold("\u277e\u24fd\u2788") == "999"
    assert fold("\u277f") == "10"  # dingbat ten: no digit value, its numeric value


def test_the_skeleton_reads_small_capitals_and_other_scripts_look_alikes() -> None:
    found = {
        ("j\u1d00ne.doe@example.org", "jane.doe@example.org"): True,  # small capital A
        ("ja\u0274e.doe@example.org", "jane.doe@example.org"): True,  # small capital N
        ("\u1d07x\u1d00\u1d0dp\u029f\u1d07", "example"): True,
        ("\u0280\ua731\u1d22", "rsz"): True,
        ("jane.d\u0585e@example.\u0585rg", "jane.doe@example.org"): True,  # Armenian o
        ("al\u0131ce@x.\u0131o", "alice@x.io"): True,  # dotless i
        ("\u0261re\u0261@x.com", "greg@x.com"): True,  # script g
        ("jane.doe@\u13acXAMPLE.org", "jane.doe@example.org"): True,  # Cherokee E
        ("jane.doe@examp\uabaee.org", "jane.doe@example.org"): True,  # Cherokee small L
        ("\u03bdictor@x.com", "victor@x.com"): True,  # Greek nu drawn like v
        ("\u039d\u0399NE", "nine"): True,  # and its capital like N
        ("jane.doe@example.org", "jane.dxe@example.org"): False,
    }
    assert {k: TextView.of(k[0]).contains(k[1]) for k in found} == found


def test_markup_a_reader_does_not_see_is_no_boundary() -> None:
    found = {
        "94<span>105</span>": True,
        "9<b>4</b>1<i>0</i>5": True,
        "94<!-- -->105": True,
        "[941](x)05": True,  # a markdown link: its text is shown
        "$94\\,105$": True,  # LaTeX thin space in math
        "94\\;105": True,
        "9**4**105": True,
        "94 <b>zip</b> 105": False,  # the words a tag holds stay
    }
    assert {t: TextView.of(t).contains("94105") for t in found} == found
    assert fold("<jane@example.org> a < b") == "<jane@example.org> a < b"
    assert fold("jane_doe __init__") == "jane_doe __init__"


def test_the_skeleton_reads_more_ways_of_spelling_digits() -> None:
    found = {
        ("nine, four, one, zero and five", "94105"): True,  # "and" before the last
        ("nine four one zero, and five", "94105"): True,
        ("nine four one double zero", "94100"): True,
        ("nine four one double oh", "94100"): True,
        ("triple five one two", "55512"): True,
        ("niner four one zero fife", "94105"): True,  # radio forms
        ("niner fower wun zero fife", "94105"): True,
        ("x-ray one", "x1"): True,  # the spelling alphabet's X with its hyphen
        ("x ray one", "x1"): True,
        ("double trouble", "00"): False,
        ("nine four one, and then five", "94105"): False,
    }
    assert {k: TextView.of(k[0]).contains(k[1]) for k in found} == found


@pytest.mark.parametrize(
    "text",
    [
        "[track it](https://www.ups.com/track?tracknum=1ZR4E9170210878329)",
        '<a href="https://tools.usps.com/go?tLabels=1ZR4E9170210878329">track</a>',
        '<span title="1ZR4E9170210878329">your parcel</span>',
        "Shipped. <!-- 1ZR4E9170210878329 -->",
        "<tracking 1ZR4E9170210878329>",
    ],
)
def test_a_value_hidden_in_markup_is_found_as_its_source_reads(text: str) -> None:
    """Markup a renderer drops (a link target, an attribute, a comment) still discloses
    what it holds: a check reads the rendered text and the source (before: not found)."""
    assert TextView.of(text).contains("1ZR4E9170210878329")
    assert TextView.of(["Hello.", text]).contains("1ZR4E9170210878329")


def test_a_value_split_by_tags_is_still_found_and_prose_angles_are_no_markup() -> None:
    assert TextView.of('9<b class="x">4</b>1<i>05</i>').contains("94105")
    assert not TextView.of("a < b and c > d, order 12").contains("94105")


def test_an_equal_answer_holds_nothing_hidden_beside_it() -> None:
    assert TextView.of("<b>12</b>").equals("12")
    assert not TextView.of("<!-- 7 --> 12").equals("12")
    assert not TextView.of('<span title="7">12</span>').equals("12")
