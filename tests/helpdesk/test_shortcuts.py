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


# ---- a shotgun of alternatives for a categorical answer; a near miss (issue 9, section 4) ----


def without_carriers(variant: TaskVariant, extra: str) -> list[ToolCall]:
    out = []
    for c in variant.reference:
        if c.name == "reply_to_customer":
            body = c.arguments["body"]
            for name in ("UPS", "FedEx", "USPS", "DHL"):
                body = body.replace(name, "the carrier")
            c = ToolCall(c.name, {**c.arguments, "body": body + extra})
        out.append(c)
    return out


def carrier_check(g: Grade) -> bool:
    return next(c for c in g.checks if c.name == "reply-gives-carrier").passed is True


@pytest.mark.parametrize("band", ["easy", "hard"])
@pytest.mark.parametrize(
    "listing",
    [
        "It is with UPS, FedEx, USPS or DHL.",
        "It is with United Parcel Service, Federal Express, the Postal Service or DHL.",
        "It is with ＵＰＳ, ＦｅｄＥｘ, ＵＳＰＳ or ＤＨＬ.",
    ],
)
def test_a_reply_naming_every_carrier_names_none(band: str, listing: str) -> None:
    for seed in SEEDS:
        variant = environment.variant("order-status", band, seed)
        assert carrier_check(grade(variant, list(variant.reference))), seed
        g = grade(variant, without_carriers(variant, f"\n{listing}"))
        assert not carrier_check(g) and not g.passed, (seed, listing)
        # the reply as it was, plus one alternative in fullwidth, is refused too
        own = final_values(variant, "SELECT carrier FROM shipments WHERE order_id = :order_id")
        other = next(c for c in ("UPS", "FedEx", "USPS", "DHL") if c not in own)
        wide = fullwidth(other)
        assert not carrier_check(grade(variant, with_reply(variant, f" (or {wide})"))), seed


CYRILLIC = str.maketrans({"P": "\u0420", "H": "\u041d", "E": "\u0415", "e": "\u0435"})
SMALL_CAPS = str.maketrans("upsfedxhl", "\u1d1c\u1d18\ua731\ua730\u1d07\u1d05x\u029c\u029f")


@pytest.mark.parametrize(
    "form",
    [
        lambda c: " ".join(c),  # D H L
        lambda c: "-".join(c),  # F-e-d-E-x
        lambda c: "_".join(c),
        lambda c: "/".join(c),
        lambda c: c.translate(CYRILLIC),  # UРS
        lambda c: c.lower().translate(SMALL_CAPS),  # ᴅʜʟ
    ],
    ids=["spaced", "hyphenated", "underscored", "slashes", "cyrillic", "small-caps"],
)
def test_another_carrier_in_a_look_alike_form_is_named(form: Callable[[str], str]) -> None:
    for band in ("easy", "hard"):
        variant = environment.variant("order-status", band, 0)
        own = final_values(variant, "SELECT carrier FROM shipments WHERE order_id = :order_id")
        others = ", ".join(form(c) for c in ("UPS", "FedEx", "USPS", "DHL") if c not in own)
        g = grade(variant, with_reply(variant, f"\nIf not, it is with {others}."))
        assert not carrier_check(g) and not g.passed, (band, others)


def test_the_right_carrier_in_a_look_alike_form_still_counts() -> None:
    variant = environment.variant("order-status", "easy", 0)
    own = final_values(variant, "SELECT carrier FROM shipments WHERE order_id = :order_id")
    spaced = " ".join(own[0])
    assert carrier_check(grade(variant, without_carriers(variant, f"\nIt is with {spaced}.")))


def test_a_reply_naming_every_team_does_not_say_billing() -> None:
    variant = environment.variant("refund-above-limit", "easy", 0)
    g = grade(variant, with_reply(variant, "\nBilling, fraud or management will follow up."))
    assert not next(c for c in g.checks if c.name == "reply-mentions-billing").passed
    assert not g.passed


@pytest.mark.parametrize(
    ("family", "band", "param"),
    [
        ("refund-damaged-item", "easy", "refund_cents"),
        ("refund-damaged-item", "hard", "refund_cents"),
        ("duplicate-charge", "medium", "duplicate_cents"),
        ("refund-above-limit", "hard", "refund_cents"),
    ],
)
@pytest.mark.parametrize("near", [lambda c: c + 1, lambda c: 2 * c])
def test_the_right_amount_beside_a_near_miss_is_not_stated(
    family: str, band: str, param: str, near: Callable[[int], int]
) -> None:
    for seed in SEEDS:
        variant = environment.variant(family, band, seed)
        cents = near(variant.params[param])
        g = grade(variant, with_reply(variant, f"\n(or ${cents // 100:,}.{cents % 100:02d})"))
        assert not g.passed and (g.score or 0.0) < 1.0, seed


@pytest.mark.parametrize(
    "form",
    [
        lambda c: f"{c} cents",
        lambda c: f"\u20ac{c // 100}.{c % 100:02d}",
        lambda c: f"{c // 100},{c % 100:02d} $",
        lambda c: f"{c // 100} dollars {c % 100:02d}",
    ],
)
def test_a_candidate_amount_in_another_form_is_still_stated(form: Callable[[int], str]) -> None:
    variant = environment.variant("refund-damaged-item", "easy", 0)
    others = final_values(variant, CUSTOMER_AMOUNTS)
    # an amount with cents: `X dollars YY` must not be read as X dollars
    other = next(
        int(a) for a in others if int(a) != variant.params["refund_cents"] and int(a) % 100
    )
    g = grade(variant, with_reply(variant, f"\n(or {form(other)})"))
    assert not next(c for c in g.checks if c.name == "reply-states-amount").passed


BANDS = ("easy", "medium", "hard", "expert")
OTHER_ORDERS = "SELECT id FROM orders WHERE customer_id = :customer_id AND id <> :order_id"
CUSTOMER_TRACKING = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id"
)
ID_CHECKS = [
    ("cancel-order", "easy", "reply-mentions-order", OTHER_ORDERS),
    ("cancel-order", "medium", "reply-mentions-order", OTHER_ORDERS),
    ("cancel-order", "expert", "reply-mentions-order", OTHER_ORDERS),
    ("cancel-order", "hard", "reply-gives-tracking", CUSTOMER_TRACKING),
    ("cancel-order", "expert", "reply-gives-shipped-tracking", CUSTOMER_TRACKING),
    ("exchange-size", "easy", "reply-gives-replacement-order", OTHER_ORDERS),
    ("exchange-size", "medium", "reply-gives-replacement-order", OTHER_ORDERS),
    ("exchange-size", "expert", "reply-gives-replacement-order", OTHER_ORDERS),
    *(("change-shipping-address", b, "reply-mentions-order", OTHER_ORDERS) for b in BANDS),
]


@pytest.mark.parametrize(("family", "band", "check", "sql"), ID_CHECKS)
@pytest.mark.parametrize("seed", range(4))
def test_a_reply_listing_every_id_of_the_customer_gives_none(
    family: str, band: str, check: str, sql: str, seed: int
) -> None:
    """Issue 9 section 4: the reference's reply plus every order number (or tracking number)
    of the customer fails the id check (before: passed at 1.0); the reference passes it."""
    variant = environment.variant(family, band, seed)
    said = {str(c.arguments.get("body", "")) for c in variant.reference}
    others = [v for v in final_values(variant, sql) if not any(v in s for s in said)]
    ref = grade(variant, list(variant.reference))
    assert ref.passed and ref.score == 1.0
    if not others:
        pytest.skip("the customer has no other id of this kind")
    extra = "\n\nFor reference, your other numbers: " + ", ".join(others)
    g = grade(variant, with_reply(variant, extra))
    failed = [c.name for c in g.checks if c.passed is False]
    assert check in failed and not g.passed, failed


# ---- an amount in a reply no exact-amount check reads (issue 9 section 4, round 3) ----

ABOVE_LIMIT_GUARD = "reply-states-no-other-amount"


@pytest.mark.parametrize("band", ["easy", "medium"])
@pytest.mark.parametrize(
    "form",
    [
        lambda c: f"\nThe amount may also be ${c // 100}.{c % 100:02d}.",
        lambda c: f"\n<!-- ${c // 100}.{c % 100:02d} -->",
        lambda c: f"\n[details](https://example.org/?amount=${c // 100}.{c % 100:02d})",
        lambda c: f"\nOther options:\n- {c // 100}.{c % 100:02d}",
    ],
    ids=["plain", "comment", "link-target", "bare-list"],
)
def test_an_escalation_reply_stating_another_candidate_amount_fails(
    band: str, form: Callable[[int], str]
) -> None:
    """refund-above-limit's reply to the customer was read by no money check below hard
    (escalation-states-amount reads the escalation's reason): a candidate amount in it,
    hidden in markup or not, passed. Now `reply-states-no-other-amount` reads it."""
    variant = environment.variant("refund-above-limit", band, 0)
    other = next(
        int(a)
        for a in final_values(variant, CUSTOMER_AMOUNTS)
        if int(a) != variant.params["escalate_cents"]
    )
    right = grade(variant, list(variant.reference))
    assert next(c for c in right.checks if c.name == ABOVE_LIMIT_GUARD).passed
    g = grade(variant, with_reply(variant, form(other)))
    assert not next(c for c in g.checks if c.name == ABOVE_LIMIT_GUARD).passed
