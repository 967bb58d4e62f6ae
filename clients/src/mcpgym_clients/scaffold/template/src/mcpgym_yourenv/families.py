"""The task family `recount-item`: correct an item's quantity after a stock count.

The family is written with the author kit: `fetch_rows`, `pick` and `reference_call` from
`mcpgym_server` (scenario side; `Scenario` collects setup rows when a variant needs them) and
`record_state`, `nothing_else_changed` from `mcpgym_grading` (recurring checks).

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

from mcpgym_grading import (
    AnswerMatch,
    Param,
    Rubric,
    ToolCalled,
    nothing_else_changed,
    record_state,
)
from mcpgym_server import (
    Generation,
    TaskFamily,
    VariantSpec,
    fetch_rows,
    pick,
    reference_call,
)

from mcpgym_yourenv.env import environment

NAME = "recount-item"


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def generate(g: Generation) -> VariantSpec:
    """One variant of `recount-item` for ``g.band`` and ``g.seed`` (see the module docstring)."""
    if g.band == "easy":
        candidates = fetch_rows(g.db, "SELECT * FROM items ORDER BY id")
    else:
        shared = "(SELECT COUNT(*) FROM items o WHERE o.name = i.name)"
        wanted = "= 1" if g.band == "medium" else "> 1"
        candidates = fetch_rows(
            g.db, f"SELECT * FROM items i WHERE {shared} {wanted} ORDER BY i.id"
        )
    item: dict[str, Any] = pick(g.rng, candidates, f"{NAME}@{g.band}")
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
            reference_call("find_items", **lookup),
            reference_call("set_quantity", item_id=item["id"], quantity=new, reason="cycle count"),
        ],
        answer=str(old),
    )


RUBRIC = Rubric(
    threshold=0.85,
    checks=(
        record_state(
            "items",
            "quantity = :new_quantity",
            name="quantity-corrected",
            description="the item's quantity is the counted one",
            key_param="item_id",
            weight=3,
        ),
        nothing_else_changed(
            "stock_moves",
            description="no other item changed (the stock log is free to differ: an agent "
            "may correct its own mistake)",
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
