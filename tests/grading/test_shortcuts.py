"""No shortcut to a pass (issue 9 section 4): one canonical text form for every answer check,
forbidden values, signed numbers and float tolerance."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgym_grading import AnswerMatch, Param, Rubric, SqlCheck
from mcpgym_grading._text import TextView, fold

from .episodes import grade_check

RIGHT = "1ZR4E9170335758782"
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
OTHER = "9400119033031441400692"


def split4(value: str, sep: str) -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


LOOK_ALIKES = {
    "plain": OTHER,
    "em dash": split4(OTHER, "\u2014"),
    "figure dash": split4(OTHER, "\u2012"),
    "em space": split4(OTHER, "\u2003"),
    "ideographic space": split4(OTHER, "\u3000"),
    "NBSP and en dash": split4(OTHER, "\u00a0\u2013 "),
    "fullwidth": fullwidth(OTHER),
    "zero-width spaces": "\u200b".join(OTHER),
    "spaced digits": " ".join(OTHER),
    "glued after a date": f"2026-06-13\n\n{split4(OTHER, chr(0x2014))}",
    "variation selectors (beyond U+FFFF)": "\U000e0100".join(OTHER),
    "musical format controls": "\U0001d173".join(OTHER),
    "Hangul filler": OTHER[:3] + "\u3164" + OTHER[3:],
    "braille blank": OTHER[:3] + "\u2800" + OTHER[3:],
    "Arabic-Indic digits": "".join(chr(0x0660 + int(c)) if c.isdigit() else c for c in OTHER),
    "Devanagari digits, mixed": OTHER[:4]
    + "".join(chr(0x0966 + int(c)) if c.isdigit() else c for c in OTHER[4:]),
    # other separators between groups or characters
    "dots": split4(OTHER, "."),
    "slashes": split4(OTHER, "/"),
    "commas": split4(OTHER, ","),
    "underscores": split4(OTHER, "_"),
    "middle dots": split4(OTHER, "\u00b7"),
    "colons": split4(OTHER, ":"),
    "four spaces": split4(OTHER, "    "),
    "line breaks": split4(OTHER, "\n\n\n\n"),
    "parentheses": " ".join(f"({g})" for g in split4(OTHER, " ").split()),
    "quotes": " ".join(f'"{g}"' for g in split4(OTHER, " ").split()),
    "dash runs": split4(OTHER, " - - "),
    # encodings a reader does not see
    "digits as words": " ".join(WORDS[int(c)] for c in OTHER),
    "HTML references": "".join(f"&#{ord(c)};" for c in OTHER),
    "hex references, nested": "".join(f"&amp;#x{ord(c):x};" for c in OTHER),
    "reversed in an RLO": "\u202e" + OTHER[::-1] + "\u202c",
}


@pytest.mark.parametrize("form", sorted(LOOK_ALIKES))
def test_every_look_alike_of_a_value_is_found(form: str) -> None:
    assert TextView.of(f"Tracking {RIGHT}. Also: {LOOK_ALIKES[form]}.").contains(OTHER)


def test_a_value_cut_between_two_replies_is_found_like_one_cut_by_a_line_break() -> None:
    view = TextView.of([f"Tracking {RIGHT}, also {OTHER[:8]}", f"{OTHER[8:]}, thanks"])
    assert view.contains(OTHER) and view.contains(RIGHT)


@pytest.mark.parametrize(
    "text",
    [
        "olivia.harper@example.org",
        "ｏｌｉｖｉａ.ｈａｒｐｅｒ＠ｅｘａｍｐｌｅ.ｏｒｇ",
        "olivia dot harper at example dot org",
        "olivia [dot] harper (at) example [dot] org",
        "OLIVIA.HARPER@EXAMPLE.ORG",
        "oliviaDOTharperATexample.org",
        "olivia.harperATexample.org",
        "olivia.harper at-sign example.org",
        "olivia.harperexample.org",
        "oliviaharperexampleorg",
        "o l i v i a . h a r p e r @ e x a m p l e . o r g",
        "olivia.harper&commat;example&period;org",
        "\u202egro.elpmaxe@repraH.aivilo\u202c",
    ],
)
def test_an_email_is_found_in_fullwidth_and_spelled_out(text: str) -> None:
    assert TextView.of(f"Your email on file is {text}.").contains("olivia.harper@example.org")


def test_a_legitimate_reply_is_not_failed_by_digits_that_line_up() -> None:
    zip_code = "28801"
    reply = (
        "Hello, your refund of $288.01 was sent on 2026-06-15 for order 1288012; "
        "the $28.80 shipping and 1 item stay as they are. Order 4412 ships in 3-5 days."
    )
    check = sql_answer(forbidden=[zip_code, "9400119033031441400692"])
    assert grade_check(check, replies(reply)).passed is True
    assert grade_check(check, replies(reply + " ZIP on file: 288.01")).passed is False


@pytest.mark.parametrize("glued", ["-", "\u2212"])
def test_a_negated_check_is_not_evaded_by_a_glued_sign(glued: str) -> None:
    check = sql_answer("94105", negate=True)
    assert grade_check(check, replies("We updated the address.")).passed is True
    assert grade_check(check, replies(f"ZIP on file: {glued}94105")).passed is False


def test_whole_tokens_still_rule() -> None:
    assert not TextView.of("order 100234").contains("10023")
    assert not TextView.of("xolivia.harper@example.org").contains("olivia.harper@example.org")
    assert fold("Ｊａｎｅ\u00a0—\u3000ＤＯＥ") == "jane - doe"


@pytest.mark.parametrize(
    ("text", "value", "signed", "found"),
    [
        ("balance -5", "5", True, False),
        ("balance 5", "-5", True, False),
        ("balance \u22125", "-5", True, True),  # the minus sign folds to a hyphen-minus
        ("balance -5", "-5", True, True),
        ("balance -5", "5", False, True),
        ("tracking 1Z-999-AA1", "1Z-999-AA1", True, True),
        ("on 2026-06-15", "2026-06-15", True, True),
        ("tracking 9405---5932", "94055932", True, True),  # a dash run is no sign
    ],
)
def test_a_number_keeps_its_sign_unless_told_not_to(
    text: str, value: str, signed: bool, found: bool
) -> None:
    assert TextView.of(text, signed=signed).contains(value) is found


def sql_answer(expected: Any = None, **kw: Any) -> AnswerMatch:
    return AnswerMatch(
        name="a",
        source="sql",
        sql="SELECT body FROM messages WHERE order_id = :order_id ORDER BY rowid",
        expected=expected,
        **kw,
    )


def replies(*bodies: str) -> list[tuple[str, dict[str, Any]]]:
    return [("send_message", {"order_id": 101, "body": b}) for b in bodies]


@pytest.mark.parametrize("form", sorted(LOOK_ALIKES))
def test_a_shotgun_reply_fails_in_every_form(form: str) -> None:
    check = sql_answer(RIGHT, forbidden=[OTHER])
    assert grade_check(check, replies(f"Tracking {RIGHT}")).passed is True
    shotgun = grade_check(check, replies(f"Tracking {RIGHT}, or {LOOK_ALIKES[form]}"))
    assert shotgun.passed is False and shotgun.detail["forbidden_found"] == [OTHER]


@pytest.mark.parametrize("glued", ["-", "\n-", "\u2014", "\u2212"])
def test_a_sign_glued_to_a_forbidden_value_still_leaks_it(glued: str) -> None:
    check = sql_answer(RIGHT, forbidden=[OTHER])
    assert grade_check(check, replies(f"Tracking {RIGHT}")).passed is True
    leaked = grade_check(check, replies(f"Tracking {RIGHT}. {glued}{OTHER}"))
    assert leaked.passed is False and leaked.detail["forbidden_found"] == [OTHER]


def test_a_shotgun_spread_over_replies_fails() -> None:
    check = sql_answer(RIGHT, forbidden=[OTHER])
    cut = replies(f"Tracking {RIGHT}, or {OTHER[:10]}", f"{OTHER[10:]}.")
    assert grade_check(check, cut).passed is False
    assert grade_check(check, replies(f"Tracking {RIGHT}", f"or {OTHER}")).passed is False


def test_forbidden_values_come_from_sql_and_params_and_skip_the_expected_one() -> None:
    check = sql_answer(
        Param("tracking"),
        forbidden=[Param("tracking"), "Grace Hopper"],
        forbidden_sql="SELECT name FROM customers WHERE id <> 1",
    )
    ok = grade_check(check, replies("Tracking 1Z999AA10123456784, Ada Lovelace"))
    assert ok.passed is True and ok.detail["forbidden_checked"] == 2  # Grace, Alan
    leak = grade_check(check, replies("Tracking 1Z999AA10123456784; cc Ａｌａｎ　Ｔｕｒｉｎｇ"))
    assert leak.passed is False and leak.detail["forbidden_found"] == ["Alan Turing"]


def test_a_must_not_reveal_check_has_no_expected_value() -> None:
    check = sql_answer(normalize="token", forbidden_sql="SELECT email FROM customers WHERE id = 2")
    assert grade_check(check, replies("We updated your order.")).passed is True
    spelled = grade_check(check, replies("Your email is grace at example dot com"))
    assert spelled.passed is False


def test_an_amount_check_refuses_candidate_amounts_beside_the_right_one() -> None:
    check = sql_answer(Param("amount_cents"), normalize="money", forbidden=[2500, 1250, 999])
    assert grade_check(check, replies("We refunded $25.00.")).passed is True
    hedged = grade_check(check, replies("We refunded $25.00, $12.50 or $9.99."))
    assert hedged.passed is False and hedged.detail["forbidden_found"] == [1250, 999]
    wide = grade_check(check, replies("We refunded ＄１２．５０ and $25.00."))
    assert wide.passed is False


def test_inconsistent_answer_checks_are_refused() -> None:
    with pytest.raises(ValueError, match="give `expected`"):
        AnswerMatch(name="a", normalize="token")
    with pytest.raises(ValueError, match="`negate` inverts `expected` only"):
        AnswerMatch(name="a", expected="x", negate=True, forbidden=["y"])


def test_new_options_at_their_default_leave_the_rubric_digest_alone() -> None:
    old = Rubric(
        checks=(AnswerMatch(name="a", expected="x"), SqlCheck(name="s", sql="SELECT 1", expected=1))
    )
    assert '"signed"' not in old.canonical_json() and '"rel_tol"' not in old.canonical_json()
    changed = Rubric(checks=(AnswerMatch(name="a", expected="x", signed=False),))
    assert '"signed":false' in changed.canonical_json()


@pytest.mark.parametrize(
    ("sql", "kw", "passed"),
    [
        ("SELECT 0.1 + 0.2", {}, True),
        ("SELECT 0.1 + 0.2", {"rel_tol": 0.0}, False),
        ("SELECT 0.31", {}, False),
        ("SELECT 0.31", {"abs_tol": 0.02}, True),
        ("SELECT 3", {"abs_tol": 0.5}, True),
        ("SELECT 4", {"abs_tol": 0.5}, False),  # integers always compare exactly
    ],
)
def test_sql_floats_compare_within_a_tolerance(sql: str, kw: dict[str, Any], passed: bool) -> None:
    assert (
        grade_check(
            SqlCheck(name="s", sql=sql, expected=0.3 if "0." in sql else 3, **kw), []
        ).passed
        is passed
    )


def test_sql_rows_compare_within_a_tolerance_as_a_multiset() -> None:
    check = SqlCheck(name="s", sql="SELECT 0.1 + 0.2 UNION ALL SELECT 1", expected=[1, 0.3])
    assert grade_check(check, []).passed is True


@pytest.mark.parametrize(
    ("sql", "passed"),
    [
        ("SELECT CAST(1000000001 AS REAL)", False),  # off by one at 1e9, stored as REAL
        ("SELECT CAST(1000000000 AS REAL)", True),
        ("SELECT 999999999.5 + 0.5", True),
    ],
)
def test_an_off_by_one_at_a_large_magnitude_fails_a_default_sql_check(
    sql: str, passed: bool
) -> None:
    assert grade_check(SqlCheck(name="s", sql=sql, expected=1e9), []).passed is passed


def test_sql_checks_read_texts_through_the_normaliser() -> None:
    check = SqlCheck(
        name="s",
        sql="SELECT COUNT(*) > 0 FROM messages WHERE mcpgym_fold(body) GLOB '*fedex*'",
        expected=1,
    )
    assert grade_check(check, replies("It is with Ｆｅｄ\u200bＥｘ.")).passed is True
    assert grade_check(check, replies("It is with UPS.")).passed is False
