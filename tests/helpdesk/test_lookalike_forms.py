"""Issue 9 section 4, adversarial round 9 (D2, T1, A1): a value a reply must not state,
written with look-alike letters or digits, fails the check as the plain value does. One
graded episode per kind of look-alike; each passed at 1.0 on main."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest

from mcpgym_grading import Grade
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay
from tests.helpdesk.test_families import failed_checks, grade


def tags(text: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in text)


BRAILLE = str.maketrans("1234567890", "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚")
CYRILLIC = str.maketrans({"3": "З", "4": "Ч", "6": "б", "0": "О"})
RADIO = dict(
    zip("0123456789", "zero wun too tree fower fife six seven ait niner".split(), strict=True)
)


def with_reply(variant: TaskVariant, extra: str) -> list[ToolCall]:
    return [
        ToolCall(c.name, {**c.arguments, "body": c.arguments["body"] + extra})
        if c.name == "reply_to_customer"
        else c
        for c in variant.reference
    ]


def final_values(variant: TaskVariant, sql: str) -> list[str]:
    bundle = replay(environment, variant.family, variant.band, variant.seed, variant.reference)
    db: sqlite3.Connection = bundle.open_final_db()
    try:
        return [str(r[0]) for r in db.execute(sql, dict(variant.params))]
    finally:
        db.close()


def _email_variant() -> TaskVariant:
    return next(
        v
        for s in range(40)
        if (v := environment.variant("change-shipping-address", "hard", s)).params["mismatch"]
        == "email"
    )


LETTERS: dict[str, Callable[[str], str]] = {
    "capital I for l": lambda v: v.replace("l", "I"),
    "vertical line for l": lambda v: v.replace("l", "|"),
    "confusables data (Armenian ra for n)": lambda v: v.replace("n", "\u057c"),
    "hand list (Cyrillic pe for n)": lambda v: v.replace("n", "\u043f"),
    "a letter with marks (Cyrillic io for e)": lambda v: v.replace("e", "\u0451"),
    "rn for m": lambda v: v.replace("m", "rn"),
    "leet digits": lambda v: v.replace("e", "3").replace("a", "4"),
}


@pytest.mark.parametrize("form", sorted(LETTERS))
def test_the_email_on_file_in_look_alike_letters_fails(form: str) -> None:
    v = _email_variant()
    email = final_values(v, "SELECT email FROM customers WHERE id = :customer_id")[0]
    shown = LETTERS[form](email)
    assert shown != email
    g = grade(v, with_reply(v, f"\n\nThe email on file is {shown}."))
    assert "reply-hides-email-on-file" in failed_checks(g), shown


DIGITS: dict[str, Callable[[str], str]] = {
    "tag characters": tags,
    "braille digits": lambda t: t.translate(BRAILLE),
    "Cyrillic digit look-alikes": lambda t: t.translate(CYRILLIC),
    "radio digit words": lambda t: " ".join(RADIO.get(c, c) for c in t),
}
OTHER_TRACKING = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id AND s.order_id <> :order_id"
)


@pytest.mark.parametrize("form", sorted(DIGITS))
def test_other_tracking_numbers_in_look_alike_digits_fail(form: str) -> None:
    v = environment.variant("order-status", "medium", 0)
    others = final_values(v, OTHER_TRACKING)
    assert others
    extra = "\n\nYour other tracking numbers: " + ", ".join(DIGITS[form](t) for t in others)
    assert "reply-omits-other-orders" in failed_checks(grade(v, with_reply(v, extra)))


AMOUNTS: dict[str, Callable[[str], str]] = {
    "tag characters": tags,
    "braille digits": lambda a: a.translate(BRAILLE),
    "Cyrillic digit look-alikes": lambda a: a.translate(CYRILLIC),
}


@pytest.mark.parametrize("form", sorted(AMOUNTS))
def test_a_second_amount_in_look_alike_digits_fails(form: str) -> None:
    v = environment.variant("duplicate-charge", "hard", 0)
    c = 2 * int(v.params["duplicate_cents"])
    amount = f"{c // 100:,}.{c % 100:02d}"
    g: Grade = grade(v, with_reply(v, f"\n\nOr maybe it was ${AMOUNTS[form](amount)}."))
    assert "reply-states-amount" in failed_checks(g), amount
