"""The facts a reply states in words, each one of the episode's own: the greeting's name, the
card brand, the colour, the product and a decline's reason (round 10's F2 without digits).

A value role (`_facts`) closes a kind by its digits; a colour or a card brand has none. Each
kind here is closed by its vocabulary (`mcpgym_grading._stated_words`): the check selects the
phrases of the kind that are *not* the episode's (every catalogue colour but the item's, every
card brand but the order's card's) and a reply stating one fails. The episode's own product
names are read out of the text first (a colour word inside ``Forest Green Rain Shell``).
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


def other_brands_sql(orders: str) -> str:
    """SQL: the `CARD_BRANDS` that no card payment of the orders ``orders`` (a SQL list of
    ids, ``:order_id``) was made with (spaces aside: ``Master Card`` is ``Mastercard``)."""
    values = ", ".join(f"('{b}')" for b in CARD_BRANDS)
    own = (
        "SELECT replace(lower(card_brand), ' ', '') || x FROM payments, (SELECT '' AS x "
        f"UNION SELECT 'card') WHERE order_id IN ({orders}) AND card_brand IS NOT NULL"
    )
    return (
        f"SELECT column1 FROM (VALUES {values}) "
        f"WHERE replace(lower(column1), ' ', '') NOT IN ({own})"
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
    own = (
        f"SELECT lower(colour) FROM product_variants WHERE id IN ({variants}) UNION "
        "SELECT lower(pv.colour) FROM product_variants pv WHERE pv.product_id IN (SELECT "
        f"product_id FROM product_variants WHERE id IN ({variants})) AND EXISTS (SELECT 1 "
        "FROM ticket_messages m WHERE m.ticket_id = :ticket_id AND m.author = 'customer' "
        "AND instr(lower(m.body), lower(pv.colour)) > 0)"
    )
    return (
        "SELECT c FROM (SELECT DISTINCT colour AS c FROM product_variants UNION "
        f"SELECT column1 FROM (VALUES {values})) WHERE lower(c) NOT IN ({own})"
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
    name: str = "replies-state-own-words",
    description: str = "every card brand, colour, product and reason a reply states in words, "
    "and the name it greets, is the episode's own (a wrong fact without digits misleads the "
    "customer; policy 9.2)",
    **kw: Any,
) -> SqlCheck:
    """No reply states a phrase of ``forbidden`` (SQL selections of one column: the kinds'
    phrases that are not the episode's) outside the phrases ``allowed`` selects (default
    none; `order_products_sql` where colours or products are read), nor greets
    anyone but the ticket's customer (first or last name). Required: a wrong card, colour,
    product, reason or name tells the customer a false fact (policy 9.2). ``kw``: as
    `texts_read_check`'s."""
    union = " UNION ".join(forbidden) if forbidden else "SELECT NULL WHERE 0"
    return texts_read_check(
        f"f(w) AS ({union}), a(w) AS ({allowed}), "
        "fj AS (SELECT json_group_array(w) AS j FROM f WHERE w IS NOT NULL), "
        "aj AS (SELECT json_group_array(w) AS j FROM a WHERE w IS NOT NULL), "
        "nj AS (SELECT json_array(first_name, last_name) AS j FROM customers "
        "WHERE id = (SELECT customer_id FROM tickets WHERE id = :ticket_id))",
        "SELECT mcpgym_stated_other(t.body, fj.j, aj.j) AS x FROM t, fj, aj "
        "UNION ALL SELECT 'greets ' || mcpgym_greeted_other(t.body, nj.j) FROM t, nj",
        texts_sql=_AGENT_REPLIES,
        name=name,
        description=description,
        **kw,
    )
