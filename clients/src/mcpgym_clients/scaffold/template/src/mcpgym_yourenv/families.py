"""The task family `recount-item`: correct an item's quantity after a stock count.

A family has a generator ``Generation -> VariantSpec`` (deterministic: it reads the snapshot
through ``g.db`` and draws only from ``g.rng``) and a rubric of weighted checks over the
sealed episode. Bands change the structure of the task, not just its numbers:

- easy: the task names the item by its SKU and gives the counted quantity;
- medium: it names the item by its name (one location holds it);
- hard: the item is stored in several locations; the task names the location and says how
  many units more or fewer were counted than the system shows, so the agent must read the
  current quantity first.

Every variant asks for the quantity the system showed before the change as the answer.
After editing the generator, bump ``generator_version``; after editing the rubric, sign it
again (``mcpgym sign``); then ``mcpgym lock`` and ``mcpgym record`` (see README.md).
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import AnswerMatch, NoCollateralChanges, Param, Rubric, SqlCheck, ToolCalled
from mcpgym_server import Generation, TaskFamily, ToolCall, VariantSpec

from mcpgym_yourenv.env import environment

NAME = "recount-item"


def _rows(g: Generation, sql: str) -> list[dict[str, Any]]:
    return [dict(r) for r in g.db.execute(sql).fetchall()]


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def generate(g: Generation) -> VariantSpec:
    """One variant of `recount-item` for ``g.band`` and ``g.seed`` (see the module docstring)."""
    if g.band == "easy":
        candidates = _rows(g, "SELECT * FROM items ORDER BY id")
    else:
        shared = "(SELECT COUNT(*) FROM items o WHERE o.name = i.name)"
        wanted = "= 1" if g.band == "medium" else "> 1"
        candidates = _rows(g, f"SELECT * FROM items i WHERE {shared} {wanted} ORDER BY i.id")
    item = candidates[g.rng.randrange(len(candidates))]
    old = int(item["quantity"])
    delta = g.rng.choice([d for d in range(-min(old, 5), 6) if d != 0])
    new = old + delta
    if g.band == "easy":
        what, lookup = f"the item with SKU {item['sku']}", {"text": item["sku"]}
        counted = f"counted {_units(new)} of {what}"
    elif g.band == "medium":
        what, lookup = f"the {item['name']}", {"text": item["name"]}
        counted = f"counted {_units(new)} of {what}"
    else:
        what = f"the {item['name']} stored in {item['location']}"
        lookup = {"text": item["name"], "location": item["location"]}
        more = "more" if delta > 0 else "fewer"
        counted = f"counted {_units(abs(delta))} {more} of {what} than the system shows"
    instruction = (
        f"A stock count has just {counted}. Correct its quantity with the reason "
        '"cycle count", then submit the quantity the system showed before your change '
        "as the answer (the number only)."
    )
    return VariantSpec(
        instruction=instruction,
        params={"item_id": item["id"], "old_quantity": old, "new_quantity": new},
        reference=[
            ToolCall("find_items", lookup),
            ToolCall(
                "set_quantity",
                {"item_id": item["id"], "quantity": new, "reason": "cycle count"},
            ),
        ],
        answer=str(old),
    )


RUBRIC = Rubric(
    threshold=0.85,
    checks=(
        SqlCheck(
            name="quantity-corrected",
            description="the item's quantity is the counted one",
            sql="SELECT quantity FROM items WHERE id = :item_id",
            expected=Param("new_quantity"),
            weight=3,
            required=True,
        ),
        NoCollateralChanges(
            name="no-collateral-changes",
            description="no other item changed (the stock log is free to differ: an agent "
            "may correct its own mistake)",
            except_tables=("stock_moves",),
            weight=2,
            required=True,
        ),
        AnswerMatch(
            name="answer-gives-old-quantity",
            description="the submitted answer is the quantity before the change",
            source="submitted",
            expected=Param("old_quantity"),
            normalize="token",
            mode="equals",
            weight=2,
            required=True,
        ),
        ToolCalled(
            name="looked-item-up",
            description="the agent looked the item up (tool-call log)",
            tool="find_items",
            weight=1,
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Correct an item's quantity after a stock count and report the old one "
        "(medium: find it by name; hard: several locations, counted as a difference).",
        bands=("easy", "medium", "hard"),
        generator=generate,
        generator_version="1",
        rubric=RUBRIC,
    )
)
