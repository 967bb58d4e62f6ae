"""The tools, called the way the runtime calls them: through an episode on a fresh sandbox.

Some tests read particular rows of data/seed_rows.json (the head torches HX-101..103, item 4
TP-210 with 41 on hand): update them when you change those rows. Counts come from the seed
file, so adding rows or tools breaks nothing here.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from mcpgym_server import EpisodeManager, LogEntry, MemoryEpisodeStore

from mcpgym_yourenv import environment
from mcpgym_yourenv.tools import MAX_RESULTS

SEED_ROWS = json.loads(
    (
        Path(str(resources.files(environment.snapshot.package))) / "data" / "seed_rows.json"
    ).read_text()
)


@pytest.fixture
def manager() -> EpisodeManager:
    return EpisodeManager(environment, MemoryEpisodeStore())


def run(manager: EpisodeManager, *calls: tuple[str, dict[str, Any]]) -> list[LogEntry]:
    """Open a `recount-item` episode and make ``calls``; return their log entries."""
    ep = manager.open("recount-item", band="easy", seed=0)
    return [manager.call(ep.id, tool, args) for tool, args in calls]


def test_tools_are_declared_with_their_kind() -> None:
    kinds = {name: tool.kind for name, tool in environment.tools.items()}
    assert {
        "find_items": "read",
        "set_quantity": "write",
        "submit": "write",
    }.items() <= kinds.items()
    assert set(kinds.values()) <= {"read", "write"}


def test_find_items_matches_sku_or_name_case_insensitively(manager: EpisodeManager) -> None:
    by_sku, by_name = run(
        manager, ("find_items", {"text": "hx-10"}), ("find_items", {"text": "HEAD TORCH"})
    )
    assert by_sku.status == by_name.status == "ok"
    assert [i["sku"] for i in by_sku.result["items"]] == ["HX-101", "HX-102", "HX-103"]
    assert by_name.result == by_sku.result


def test_find_items_filters_by_location(manager: EpisodeManager) -> None:
    (entry,) = run(manager, ("find_items", {"text": "torch", "location": "back room"}))
    assert entry.result == {
        "items": [
            {
                "id": 3,
                "sku": "HX-103",
                "name": "Head torch",
                "location": "Back room",
                "quantity": 27,
            }
        ],
        "truncated": False,
    }


def test_find_items_with_empty_text_lists_the_first_items_by_id(manager: EpisodeManager) -> None:
    (entry,) = run(manager, ("find_items", {}))
    ids = sorted(row["id"] for row in SEED_ROWS["items"])
    assert [item["id"] for item in entry.result["items"]] == ids[:MAX_RESULTS]
    assert entry.result["truncated"] is (len(ids) > MAX_RESULTS)


def test_set_quantity_updates_the_item_and_logs_the_move(manager: EpisodeManager) -> None:
    ep = manager.open("recount-item", band="easy", seed=0)
    entry = manager.call(ep.id, "set_quantity", {"item_id": 4, "quantity": 39, "reason": "count"})
    assert entry.status == "ok"
    assert entry.result == {"item_id": 4, "sku": "TP-210", "old_quantity": 41, "new_quantity": 39}
    sb = ep.sandbox
    assert sb.query_one("SELECT quantity FROM items WHERE id = 4") == {"quantity": 39}
    move = sb.query_one("SELECT * FROM stock_moves ORDER BY id DESC LIMIT 1")
    assert move is not None
    assert (move["item_id"], move["old_quantity"], move["new_quantity"]) == (4, 41, 39)
    assert move["at"] == entry.clock  # the virtual clock, never wall time


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"item_id": 999, "quantity": 1, "reason": "count"}, "no item with id 999"),
        ({"item_id": 4, "quantity": -1, "reason": "count"}, "quantity must be 0 or more"),
        ({"item_id": 4, "quantity": 1, "reason": "  "}, "`reason` must be 1 to 200"),
    ],
)
def test_set_quantity_refuses_bad_input_and_changes_nothing(
    manager: EpisodeManager, arguments: dict[str, Any], message: str
) -> None:
    ep = manager.open("recount-item", band="easy", seed=0)
    entry = manager.call(ep.id, "set_quantity", arguments)
    assert entry.status == "tool_error"
    assert entry.error is not None and message in entry.error
    assert ep.sandbox.query_one("SELECT quantity FROM items WHERE id = 4") == {"quantity": 41}


def test_arguments_of_the_wrong_type_are_refused_before_the_tool_runs(
    manager: EpisodeManager,
) -> None:
    (entry,) = run(manager, ("set_quantity", {"item_id": "four", "quantity": 1, "reason": "x"}))
    assert entry.status == "invalid_arguments"
