"""The facts a reply states in words, each one of the episode's own: the greeting's name, the
card brand, the colour, the product and a decline's reason (round 10's F2 without digits).

A value role (`_facts`) closes a kind by its digits; a colour or a card brand has none. Each
kind here is closed by its vocabulary (`mcpgym_grading._stated_words`): the check selects the
phrases of the kind that are *not* the episode's (every catalogue colour but the item's, every
card brand but the order's card's) and a reply stating one fails. The episode's own product
names are read out of the text first (a colour word inside ``Forest Green Rain Shell``).

A vocabulary closes a kind only as far as it goes, so the card brand and the colour are
also read by their slot (stop 23, `brand_slot`, `colour_slot`): the words where a brand or a
colour stands (``your X card ending in``, ``to your X ending in``, ``in XL (X)``, ``(XL,
X)``, ``the X one``) must be the record's (its brand and aliases, its colours), or words of
no fact (``credit``, ``original``, ``new``, a size); any other word there is refused. And
where a family's reply speaks of two orders, each product it names is paired with the order
number nearest it (`order_pairs_sql`, ``mcpgym_paired_other``): another order's product
named for an order is a wrong fact.
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import SqlCheck
from mcpgym_helpdesk.families._reply_sql import AGENT_BODY, texts_read_check

_AGENT_REPLIES = (
    f"SELECT {AGENT_BODY} AS body FROM ticket_messages "
    "WHERE ticket_id = :ticket_id AND author = 'agent'"
)


def order_products_sql(orders: str) -> str:
    """SQL: the names of the products of the orders ``orders`` (a SQL list of ids) and those
    the customer's messages on the ticket name (what a reply may name)."""
    return (
        "SELECT p.name FROM order_items oi JOIN product_variants pv ON pv.id = oi.variant_id "
        f"JOIN products p ON p.id = pv.product_id WHERE oi.order_id IN ({orders}) "
        "UNION SELECT p.name FROM products p WHERE EXISTS (SELECT 1 FROM ticket_messages m "
        "WHERE m.ticket_id = :ticket_id AND m.author = 'customer' "
        "AND instr(lower(m.body), lower(p.name)) > 0)"
    )


def order_pairs_sql(*orders: str) -> str:
    """SQL: one row, the JSON array ``[[order number, [product names]], ...]`` of the
    orders ``orders`` (params, ``:order_id``; a NULL one left out) that
    ``mcpgym_paired_other`` reads: which order a reply names a product for; no row where
    fewer than two distinct orders are given."""
    groups = ", ".join(
        f"json_array(CAST({o} AS TEXT), (SELECT json_group_array(DISTINCT p.name) FROM "
        "order_items oi JOIN product_variants pv ON pv.id = oi.variant_id JOIN products p "
        f"ON p.id = pv.product_id WHERE oi.order_id = {o}))"
        for o in orders
    )
    distinct = " UNION ".join(f"SELECT {o} AS o" for o in orders)
    return (
        f"SELECT json_array({groups}) AS j "
        f"WHERE (SELECT count(DISTINCT o) FROM ({distinct}) WHERE o IS NOT NULL) > 1"
    )


def other_products_sql(orders: str) -> str:
    """SQL: every catalogue product that is none of `order_products_sql` (``orders``)."""
    return f"SELECT name FROM products WHERE name NOT IN ({order_products_sql(orders)})"


CARD_BRANDS = (
    "Visa",
    "Mastercard",
    "Master Card",
    "MasterCard",
    "Amex",
    "American Express",
    "Discover card",
    "PayPal",
    "Apple Pay",
    "Google Pay",
    "Maestro",
    "Diners Club",
    "JCB",
    "UnionPay",
)
"""Card brands and wallets a reply may name (``Discover`` only with ``card``: the verb)."""


BRAND_ALIASES = (
    ("amex", "American Express"),
    ("mastercard", "Master Card"),
    ("mastercard", "MC"),
)
"""Other names of a card brand on file (``card_brand`` folded, spaces aside): a reply may
name the customer's Amex ``American Express``."""


def own_brands_sql(orders: str) -> str:
    """SQL: the names of the card brands the orders ``orders`` (a SQL list of ids) were paid
    with, each folded without spaces (``mastercard``), ``card`` appended too, and their
    `BRAND_ALIASES` likewise."""
    aliases = ", ".join(f"('{k}', '{a}')" for k, a in BRAND_ALIASES)
    brands = (
        "SELECT replace(lower(card_brand), ' ', '') AS b FROM payments "
        f"WHERE order_id IN ({orders}) AND card_brand IS NOT NULL "
        "UNION SELECT replace(lower(column2), ' ', '') FROM (VALUES "
        f"{aliases}) WHERE column1 IN (SELECT replace(lower(card_brand), ' ', '') FROM payments "
        f"WHERE order_id IN ({orders}) AND card_brand IS NOT NULL)"
    )
    return f"SELECT b || x FROM ({brands}), (SELECT '' AS x UNION SELECT 'card')"


def other_brands_sql(orders: str) -> str:
    """SQL: the `CARD_BRANDS` that no card payment of the orders ``orders`` (a SQL list of
    ids, ``:order_id``) was made with (spaces aside: ``Master Card`` is ``Mastercard``; an
    alias of the brand, `BRAND_ALIASES`, is the brand)."""
    values = ", ".join(f"('{b}')" for b in CARD_BRANDS)
    return (
        f"SELECT column1 FROM (VALUES {values}) "
        f"WHERE replace(lower(column1), ' ', '') NOT IN ({own_brands_sql(orders)})"
    )


_DET = r"(?:your|the|my|a|an|this|that|same|its|their|our|to|on|with|via|from|onto|of|and|or)"
_SLOT_WORD = rf"(?!{_DET}\b)(?!card\b)(?!ending\b)[^\W\d_][\w&.-]*"
BRAND_SLOT = (
    rf"\b{_DET}\s+(?P<x>{_SLOT_WORD}(?:\s+{_SLOT_WORD}){{0,2}}?)\s+cards?\b"
    rf"|\b{_DET}\s+(?P<y>{_SLOT_WORD}(?:\s+{_SLOT_WORD})?)\s+ending\s+in\b"
)
"""The card brand's slot, over the folded text: the one to three words between a
determiner or preposition and ``card`` (``your X card ending in 1234``, ``the X card``),
or the one or two words between them and ``ending in`` (``to your X ending in 1234``; not
``the UPS tracking number ending in``: three words). Whatever fills it is the card's brand, one
of `GENERIC_CARD_WORDS` or refused (`brand_slot`): a brand no list holds (``Diners``,
``Revolut``) is no longer read as no brand."""

GENERIC_CARD_WORDS = (
    "credit debit bank payment original usual registered saved own physical virtual primary "
    "main personal business new old previous other different existing current billing "
    "prepaid charged linked stored default replacement expired card cards same one "
    "tracking number order parcel package shipment phone account return label"
)
"""Words of no brand that may fill `BRAND_SLOT` (``your credit card``, ``the original
payment card``, ``the tracking number ending in 3689``)."""


def brand_slot(orders: str) -> tuple[str, str]:
    """The card brand's slot rule for `replies_state_own_words`: `BRAND_SLOT` and the
    SQL of what may fill it (the brands the orders ``orders`` were paid with and their
    aliases, `own_brands_sql`, and `GENERIC_CARD_WORDS`)."""
    return (
        BRAND_SLOT,
        f"SELECT column1 FROM (VALUES ('{GENERIC_CARD_WORDS}')) UNION "
        f"SELECT b FROM (SELECT lower(card_brand) AS b FROM payments WHERE order_id IN "
        f"({orders}) AND card_brand IS NOT NULL UNION SELECT lower(column2) FROM (VALUES "
        + ", ".join(f"('{k}', '{a}')" for k, a in BRAND_ALIASES)
        + f") WHERE column1 IN (SELECT replace(lower(card_brand), ' ', '') FROM payments "
        f"WHERE order_id IN ({orders})))",
    )


COLOURS = (
    "Pink",
    "Neon Pink",
    "Hot Pink",
    "Magenta",
    "Beige",
    "Cream",
    "Maroon",
    "Gold",
    "Violet",
    "Indigo",
    "Turquoise",
    "Lavender",
    "Ivory",
    "Burgundy",
    "Coral",
    "Cyan",
    "Camo",
    "Camouflage",
    "Gray",
    "Dark Blue",
    "Light Blue",
    "Royal Blue",
    "Dark Green",
    "Tan",
)
"""Colour words beyond the catalogue's (which `other_colours_sql` lists from the state)."""


def other_colours_sql(variants: str) -> str:
    """SQL: every colour (the catalogue's and `COLOURS`) that is none of the variants
    ``variants`` (a SQL list of ids) nor a colour of their product the customer's messages
    name (expert: the first colour asked for, out of stock)."""
    values = ", ".join(f"('{c}')" for c in COLOURS)
    own = _own_colours_sql(variants)
    return (
        "SELECT c FROM (SELECT DISTINCT colour AS c FROM product_variants UNION "
        f"SELECT column1 FROM (VALUES {values})) WHERE lower(c) NOT IN ({own})"
    )


_SIZE = r"(?:one size|regular|long|wide|s/m|m/l|l/xl|us \d{1,2}(?:\.5)?|xxs|xs|s|m|l|xl|xxl|xxxl)"
_COLOUR = rf"(?!{_DET}\b)[^\W\d_][\w-]*(?:\s+(?!{_DET}\b)[^\W\d_][\w-]*)?"
COLOUR_SLOT = (
    rf"(?<![\w'\u2019]){_SIZE}\s*\(\s*(?P<x>[^(),\d]{{1,30}}?)\s*\)"
    rf"|\(\s*{_SIZE}\s*,\s*(?P<y>[^(),\d]{{1,30}}?)\s*\)"
    rf"|\b(?:in|the)\s+(?P<z>{_COLOUR})\s+(?:colou?r(?:way)?|shade|one)\b"
    rf"|\bcolou?r(?:way)?\s*[:=-]\s*(?P<w>{_COLOUR})"
)
"""The colour's slot, over the folded text: the words in brackets after a size (``in XL
(X)``, ``(XL, X)``), before ``colour``, ``shade`` or ``one`` (``the X one``, ``in X
colour``) and after a ``colour:`` key. Whatever fills it is one of the item's colours, a
size or one of `GENERIC_COLOUR_WORDS`, or refused (`colour_slot`): a colour no list holds
(``Mauve``) is no longer read as no colour."""

GENERIC_COLOUR_WORDS = (
    "same new old original other right correct wrong first second last current previous "
    "exact replacement exchanged returned bigger smaller larger shorter longer wider "
    "narrower tighter looser different usual matching size small medium large extra x "
    "one size regular long wide us only very next third cheaper identical updated ordered "
    "requested wanted preferred defective damaged faulty broken unused worn spare exchange "
    "another whole"
)
"""Words of no colour that may fill `COLOUR_SLOT` (``the new one``, ``the same colour``,
``in XL (extra large)``)."""


def colour_slot(variants: str) -> tuple[str, str]:
    """The colour's slot rule for `replies_state_own_words`: `COLOUR_SLOT` and the SQL of
    what may fill it: the colours `other_colours_sql` excepts for the variants ``variants``
    (theirs, and those of their product the customer named), every size of the catalogue
    and `GENERIC_COLOUR_WORDS`."""
    return (
        COLOUR_SLOT,
        f"SELECT column1 FROM (VALUES ('{GENERIC_COLOUR_WORDS}')) "
        "UNION SELECT DISTINCT size FROM product_variants "
        f"UNION {_own_colours_sql(variants)}",
    )


def _own_colours_sql(variants: str) -> str:
    return (
        f"SELECT lower(colour) FROM product_variants WHERE id IN ({variants}) UNION "
        "SELECT lower(pv.colour) FROM product_variants pv WHERE pv.product_id IN (SELECT "
        f"product_id FROM product_variants WHERE id IN ({variants})) AND EXISTS (SELECT 1 "
        "FROM ticket_messages m WHERE m.ticket_id = :ticket_id AND m.author = 'customer' "
        "AND instr(lower(m.body), lower(pv.colour)) > 0)"
    )


REASON_WORDS = {
    "final_sale": ("final sale", "final-sale", "clearance", "non-refundable", "non-returnable"),
    "outside_window": ("return window", "30-day", "30 day window", "too long ago", "too late"),
}
"""The words of each reason a refund is declined for (refund-damaged-item): a reply giving
another reason than the declined item's states a false one."""


def other_reasons_sql(reason: str = ":declined_reason") -> str:
    """SQL: the `REASON_WORDS` of every reason but ``reason`` (a SQL expression; NULL: none)."""
    rows = ", ".join(f"('{r}', '{w}')" for r, ws in REASON_WORDS.items() for w in ws)
    return f"SELECT column2 FROM (VALUES {rows}) WHERE {reason} IS NOT NULL AND column1 <> {reason}"


def replies_state_own_words(
    *forbidden: str,
    allowed: str = "SELECT NULL WHERE 0",
    slots: tuple[tuple[str, str], ...] = (),
    pairs: tuple[str, ...] = (),
    name: str = "replies-state-own-words",
    description: str = "every card brand, colour, product and reason a reply states in words, "
    "and the name it greets, is the episode's own (a wrong fact without digits misleads the "
    "customer; policy 9.2)",
    **kw: Any,
) -> SqlCheck:
    """No reply states a phrase of ``forbidden`` (SQL selections of one column: the kinds'
    phrases that are not the episode's) outside the phrases ``allowed`` selects (default
    none; `order_products_sql` where colours or products are read), nor greets
    anyone but the ticket's customer (first or last name), nor fills a slot of ``slots``
    (``(pattern, allowed SQL)`` pairs, `brand_slot` and `colour_slot`: the slot rule of a
    kind no list closes) with a word its SQL does not select, nor names a product of one of
    the orders ``pairs`` (params, `order_pairs_sql`) for another of them
    (``mcpgym_paired_other``: the order number nearest it). Required: a wrong card,
    colour, product, reason or name tells the customer a false fact (policy 9.2). ``kw``: as
    `texts_read_check`'s."""
    union = " UNION ".join(forbidden) if forbidden else "SELECT NULL WHERE 0"
    slot_values = "".join(
        f", s{i}(w) AS ({sql}), s{i}j AS (SELECT json_group_array(w) AS j FROM s{i} "
        "WHERE w IS NOT NULL)"
        for i, (_, sql) in enumerate(slots)
    )
    slot_reading = "".join(
        " UNION ALL SELECT 'fills a slot with ' || "
        f"mcpgym_slot_other(t.body, '{pattern.replace(chr(39), chr(39) * 2)}', s{i}j.j) "
        f"FROM t, s{i}j"
        for i, (pattern, _) in enumerate(slots)
    )
    if pairs:
        slot_values += f", pj(j) AS ({order_pairs_sql(*pairs)})"
        slot_reading += (
            " UNION ALL SELECT 'names for another order ' || mcpgym_paired_other(t.body, pj.j) "
            "FROM t, pj"
        )
    return texts_read_check(
        f"f(w) AS ({union}), a(w) AS ({allowed}), "
        "fj AS (SELECT json_group_array(w) AS j FROM f WHERE w IS NOT NULL), "
        "aj AS (SELECT json_group_array(w) AS j FROM a WHERE w IS NOT NULL), "
        "nj AS (SELECT json_array(first_name, last_name) AS j FROM customers "
        "WHERE id = (SELECT customer_id FROM tickets WHERE id = :ticket_id))" + slot_values,
        "SELECT mcpgym_stated_other(t.body, fj.j, aj.j) AS x FROM t, fj, aj "
        "UNION ALL SELECT 'greets ' || mcpgym_greeted_other(t.body, nj.j) FROM t, nj"
        + slot_reading,
        texts_sql=_AGENT_REPLIES,
        name=name,
        description=description,
        **kw,
    )
