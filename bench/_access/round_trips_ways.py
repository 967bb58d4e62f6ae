"""The ways of bench/round_trips.py: patches of the ``mcpgym`` process back to the code
path before one change (applied by bench/_access/sitecustomize.py at start-up)."""

from __future__ import annotations

WAYS: dict[str, str] = {"current": "the code as it is"}


def apply(way: str) -> None:
    """Patch this process to ``way`` (`WAYS`)."""
    if way not in WAYS:
        raise SystemExit(f"unknown way {way!r}; ways: {', '.join(WAYS)}")
