"""The tools agents call: one read tool and one write tool.

A tool is a function ``fn(sb: Sandbox, **arguments) -> JSON`` registered with
``@environment.tool(kind="read" | "write")``. Its signature becomes the MCP input schema,
its docstring the description (the ``Args:`` lines describe the parameters), so write it
as a prompt. Rules that keep the environment an instrument:

- read and write only ``sb.db`` (the episode's private copy of the snapshot);
- take time from ``sb.clock`` and randomness from ``sb.rng``, never from the machine;
- raise `ToolError` with a message the agent can act on for anything the agent got wrong
  (any other exception is logged as an environment bug, apart from agent mistakes).
"""

from __future__ import annotations

from typing import Any

from mcpgym_server import Sandbox, ToolError

from mcpgym_yourenv.env import environment

MAX_RESULTS = 20
"""Most items `find_items` returns."""


@environment.tool(kind="read")
def find_items(sb: Sandbox, text: str = "", location: str | None = None) -> dict[str, Any]:
    """Find stock items whose SKU or name contains a text, optionally in one location.

    Returns at most 20 items (id, sku, name, location, quantity), ordered by id.

    Args:
        text: part of a SKU or an item name, case-insensitive, e.g. "HX-1" or "head torch";
            empty matches every item.
        location: only items stored here, e.g. "Aisle 3" (exact name, case-insensitive).
    """
    if len(text) > 200:
        raise ToolError("`text` is too long; give at most 200 characters of a SKU or name")
    sql = (
        "SELECT id, sku, name, location, quantity FROM items "
        "WHERE instr(lower(sku || ' ' || name), lower(?)) > 0"
    )
    params: list[Any] = [text.strip()]
    if location is not None:
        sql += " AND lower(location) = lower(?)"
        params.append(location.strip())
    rows = sb.query(sql + " ORDER BY id LIMIT ?", [*params, MAX_RESULTS + 1])
    return {"items": rows[:MAX_RESULTS], "truncated": len(rows) > MAX_RESULTS}


@environment.tool(kind="write")
def set_quantity(sb: Sandbox, item_id: int, quantity: int, reason: str) -> dict[str, Any]:
    """Set the on-hand quantity of one stock item, for example after a count, and log it.

    Args:
        item_id: the item's id (from find_items), e.g. 4.
        quantity: the new on-hand quantity, 0 or more.
        reason: why the quantity changes, e.g. "cycle count".
    """
    item = sb.query_one("SELECT id, sku, quantity FROM items WHERE id = ?", (item_id,))
    if item is None:
        raise ToolError(f"no item with id {item_id}; use find_items to look up the item's id")
    if quantity < 0:
        raise ToolError(f"quantity must be 0 or more, got {quantity}")
    if not 0 < len(reason.strip()) <= 200:
        raise ToolError('`reason` must be 1 to 200 characters, e.g. "cycle count"')
    sb.db.execute("UPDATE items SET quantity = ? WHERE id = ?", (quantity, item_id))
    sb.db.execute(
        "INSERT INTO stock_moves (item_id, old_quantity, new_quantity, reason, at) "
        "VALUES (?, ?, ?, ?, ?)",
        (item_id, item["quantity"], quantity, reason.strip(), sb.clock.iso()),
    )
    return {
        "item_id": item_id,
        "sku": item["sku"],
        "old_quantity": item["quantity"],
        "new_quantity": quantity,
    }
