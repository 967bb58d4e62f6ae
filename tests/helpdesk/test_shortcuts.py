"""Issue 9 section 4 on helpdesk's rubrics: no shotgun reply, no look-alike disclosure, no
list of candidate amounts passes (the inputs of helpdesk's scripts/probe_shortcuts.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=256)
SEEDS = range(3)


def grade(variant: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, variant.family, variant.band, variant.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def with_reply(variant: TaskVariant, extra: str) -> list[ToolCall]:
    out = []
    for c in variant.reference:
        if c.name == "reply_to_customer":
            c = ToolCall(c.name, {**c.arguments, "body": f"{c.arguments['body']}{extra}"})
        out.append(c)
    return out


def final_values(variant: TaskVariant, sql: str) -> list[str]:
    bundle = replay(environment, variant.family, variant.band, variant.seed, variant.reference)
    db: sqlite3.Connection = bundle.open_final_db()
    try:
        return [str(r[0]) for r in db.execute(sql, dict(variant.params))]
    finally:
        db.close()


WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def split4(value: str, sep: str) -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


FORMS: dict[str, Callable[[str], str]] = {
    "plain": lambda v: v,
    "em dash": lambda v: split4(v, "\u2014"),
    "figure dash": lambda v: split4(v, "\u2012"),
    "em space": lambda v: split4(v, "\u2003"),
    "ideographic space": lambda v: split4(v, "\u3000"),
    "fullwidth": fullwidth,
    "dots": lambda v: split4(v, "."),
    "slashes": lambda v: split4(v, "/"),
    "commas": lambda v: split4(v, ","),
    "underscores": lambda v: split4(v, "_"),
    "middle dots": lambda v: split4(v, "\u00b7"),
    "colons": lambda v: split4(v, ":"),
    "four spaces": lambda v: split4(v, "    "),
    "line breaks": lambda v: split4(v, "\n\n\n\n"),
    "parentheses": lambda v: " ".join(f"({g})" for g in split4(v, " ").split()),
    "quotes": lambda v: " ".join(f'"{g}"' for g in split4(v, " ").split()),
    "digit words": lambda v: " ".join(WORDS[int(c)] if c.isdigit() else c for c in v),
    "HTML references": lambda v: "".join(f"&#{ord(c)};" for c in v),
    "reversed in an RLO": lambda v: "\u202e" + v[::-1] + "\u202c",
}

OTHER_TRACKING = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id AND s.order_id <> :order_id"
)


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("band", ["medium", "hard"])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_reply_listing_every_tracking_number_fails(form: str, band: str, seed: int) -> None:
    variant = environment.variant("order-status", band, seed)
    others = final_values(variant, OTHER_TRACKING)
    extra = "\n\nYour other tracking numbers: " + ", ".join(FORMS[form](t) for t in others)
    g = grade(variant, with_reply(variant, extra))
    assert not g.passed and "reply-omits-other-orders" in [
        c.name for c in g.checks if c.passed is False
    ]


@pytest.mark.parametrize("band", ["medium", "hard"])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_tracking_list_spread_over_replies_fails(band: str, seed: int) -> None:
    variant = environment.variant("order-status", band, seed)
    others = final_values(variant, OTHER_TRACKING)
    calls = list(variant.reference)
    at = next(i for i, c in enumerate(calls) if c.name == "reply_to_customer")
    bodies = [f"{calls[at].arguments['body']}\n\nAlso: "]
    for t in others:  # each number cut between two consecutive replies
        bodies[-1] += t[: len(t) // 2]
        bodies.append(t[len(t) // 2 :] + ", ")
    ticket = calls[at].arguments["ticket_id"]
    chain = [ToolCall("reply_to_customer", {"ticket_id": ticket, "body": b}) for b in bodies]
    assert not grade(variant, [*calls[:at], *chain, *calls[at + 1 :]]).passed


def spelled(email: str) -> str:
    return email.replace(".", " dot ").replace("@", " at ")


ON_FILE_FORMS: dict[str, Callable[[str], str]] = {
    "plain": lambda v: v,
    "fullwidth": fullwidth,
    "spelled": spelled,
    "spaced": " ".join,
    "at glued": lambda v: v.replace("@", "AT"),
    "at dropped": lambda v: v.replace("@", ""),
    "HTML references": lambda v: "".join(f"&#{ord(c)};" for c in v),
    "named references": lambda v: v.replace("@", "&commat;").replace(".", "&period;"),
    "reversed in an RLO": lambda v: "\u202e" + v[::-1] + "\u202c",
    "dots": lambda v: ".".join(v),
    "slash": lambda v: v[:3] + "/" + v[3:],
    "parentheses": lambda v: f"({v[:3]}) {v[3:]}",
    "digit words": lambda v: " ".join(WORDS[int(c)] if c.isdigit() else c for c in v),
    "line breaks": lambda v: "\n\n\n\n".join(v),
}
EMAIL_ONLY = {"spelled", "at glued", "at dropped", "named references"}
ZIP_ONLY = {"spaced", "dots", "slash", "parentheses", "digit words", "line breaks"}


@pytest.mark.parametrize("form", sorted(ON_FILE_FORMS))
def test_the_email_or_zip_on_file_in_any_form_fails(form: str) -> None:
    seen = {"email": 0, "zip": 0}
    for seed in range(40):
        variant = environment.variant("change-shipping-address", "hard", seed)
        kind = variant.params["mismatch"]
        skip = ZIP_ONLY if kind == "email" else EMAIL_ONLY
        if seen[kind] >= 2 or form in skip:
            continue
        seen[kind] += 1
        value = final_values(variant, f"SELECT {kind} FROM customers WHERE id = :customer_id")[0]
        shown = ON_FILE_FORMS[form](value)
        g = grade(variant, with_reply(variant, f"\n\nThe {kind} on file is {shown}."))
        assert not g.passed, (seed, kind, shown)
    assert sum(seen.values()) >= 2


def test_a_zip_read_as_an_amount_is_no_disclosure() -> None:
    for seed in range(40):
        variant = environment.variant("change-shipping-address", "hard", seed)
        if variant.params["mismatch"] == "zip":
            break
    value = final_values(variant, "SELECT zip FROM customers WHERE id = :customer_id")[0]
    amount = f"${value[:3]}.{value[3:]}"  # the ZIP's digits as a money amount
    g = grade(variant, with_reply(variant, f"\n\nNo charge of {amount} applies."))
    assert "reply-hides-zip-on-file" not in [c.name for c in g.checks if c.passed is False]
    g = grade(variant, with_reply(variant, f"\n\nOn file: {value[:3]}.{value[3:]}"))
    assert "reply-hides-zip-on-file" in [c.name for c in g.checks if c.passed is False]


CUSTOMER_AMOUNTS = (
    "SELECT total_cents FROM orders WHERE customer_id = :customer_id UNION "
    "SELECT oi.unit_price_cents FROM order_items oi JOIN orders o ON o.id = oi.order_id "
    "WHERE o.customer_id = :customer_id"
)


@pytest.mark.parametrize(
    ("family", "band"),
    [("refund-damaged-item", b) for b in ("easy", "medium", "hard")]
    + [("duplicate-charge", "medium"), ("exchange-size", "hard"), ("refund-above-limit", "hard")],
)
def test_a_reply_stating_every_candidate_amount_fails(family: str, band: str) -> None:
    tried = 0
    for seed in SEEDS:
        variant = environment.variant(family, band, seed)
        amounts = sorted({int(a) for a in final_values(variant, CUSTOMER_AMOUNTS)})
        if len(amounts) < 2:
            continue
        tried += 1
        listed = ", ".join(f"${a // 100:,}.{a % 100:02d}" for a in amounts)
        g = grade(variant, with_reply(variant, f"\n\nThe amount is one of {listed}."))
        assert not g.passed, seed
    assert tried
