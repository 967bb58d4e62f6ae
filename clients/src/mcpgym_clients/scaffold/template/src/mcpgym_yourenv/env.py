"""The `Environment`: a stockroom's item list, counted and corrected by agents."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mcpgym_server import Environment, Snapshot

SNAPSHOT_SHA256 = ""
"""sha256 of data/snapshot.db; data/build_snapshot.py rewrites this line when it rebuilds."""

INSTRUCTIONS = """\
You keep the stock records of a small outdoor-gear stockroom. Items have a SKU, a name, a \
location and an on-hand quantity; the same item can be stored in several locations. Use \
`find_items` to look items up and `set_quantity` to correct a quantity after a count. Call \
`submit` when the task is done, with the answer the task asks for.
"""

environment = Environment(
    name="yourenv",
    version="0.1.0",
    snapshot=Snapshot(
        "mcpgym_yourenv",
        "data/snapshot.db",
        sha256=SNAPSHOT_SHA256,
    ),
    clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    clock_step=timedelta(seconds=30),
    instructions=INSTRUCTIONS,
)
