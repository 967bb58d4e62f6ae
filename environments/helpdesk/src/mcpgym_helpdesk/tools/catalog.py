"""Catalog tools: product search and product details with variants and stock."""

from __future__ import annotations

from typing import Any

from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.tools._common import like_contains, with_money
from mcpgym_server import Sandbox, ToolError

MAX_QUERY_WORDS = 20
"""Most words `search_products` accepts: each word adds three LIKE terms to one SQL expression,
and SQLite refuses expressions deeper than 1000 ("Expression tree is too large")."""

CATEGORIES = (
    "tents",
    "sleeping-bags",
    "backpacks",
    "footwear",
    "jackets",
    "apparel",
    "climbing",
    "camp-kitchen",
    "accessories",
)


@environment.tool(kind="read")
def search_products(sb: Sandbox, query: str, category: str | None = None) -> list[dict[str, Any]]:
    """Search the catalog by words in the product name, SKU or description.

    Every word of the query must match (at most 20 words). Returns at most 25 products with
    their price, final-sale flag and total units in stock.

    Args:
        query: e.g. "rain jacket" or "RO-TEN-0003"; "" lists the category; at most 20 words.
        category: optional, one of tents, sleeping-bags, backpacks, footwear, jackets, apparel,
            climbing, camp-kitchen, accessories.
    """
    if category is not None and category not in CATEGORIES:
        raise ToolError(f"unknown category {category!r}; valid categories: {', '.join(CATEGORIES)}")
    words = query.lower().split()
    if not words and category is None:
        raise ToolError("give a `query` (words of the product name) or a `category`")
    if len(words) > MAX_QUERY_WORDS:
        raise ToolError(
            f"`query` has {len(words)} words; give at most {MAX_QUERY_WORDS} (every word must "
            "match, so a few words of the product name or its SKU work best)"
        )
    where = ["1 = 1"]
    params: list[Any] = []
    for w in words:
        where.append(
            "(LOWER(p.name) LIKE ? ESCAPE '\\' OR LOWER(p.sku) LIKE ? ESCAPE '\\' "
            "OR LOWER(p.description) LIKE ? ESCAPE '\\')"
        )
        params += [like_contains(w, "query")] * 3
    if category is not None:
        where.append("p.category = ?")
        params.append(category)
    rows = sb.query(
        "SELECT p.id, p.sku, p.name, p.category, p.price_cents, p.final_sale, "
        "COALESCE(SUM(v.stock), 0) AS units_in_stock, COUNT(v.id) AS variant_count "
        "FROM products p LEFT JOIN product_variants v ON v.product_id = p.id "
        f"WHERE {' AND '.join(where)} GROUP BY p.id ORDER BY p.name, p.id LIMIT 25",
        params,
    )
    for r in rows:
        r["final_sale"] = bool(r["final_sale"])
        with_money(r, "price_cents")
    return rows


@environment.tool(kind="read")
def get_product(sb: Sandbox, product_id: int) -> dict[str, Any]:
    """Get a product with all its variants (id, SKU, size, colour, price, units in stock).

    Args:
        product_id: the product's id (from search_products or get_order).
    """
    p = sb.query_one("SELECT * FROM products WHERE id = ?", (product_id,))
    if p is None:
        raise ToolError(f"no product with id {product_id}; use search_products to find it")
    p["final_sale"] = bool(p["final_sale"])
    p["active"] = bool(p["active"])
    with_money(p, "price_cents")
    p["variants"] = [
        with_money(v, "price_cents")
        for v in sb.query(
            "SELECT id, sku, size, colour, price_cents, stock, stock > 0 AS in_stock "
            "FROM product_variants WHERE product_id = ? ORDER BY id",
            (product_id,),
        )
    ]
    for v in p["variants"]:
        v["in_stock"] = bool(v["in_stock"])
    return p
