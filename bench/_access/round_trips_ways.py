"""The ways of bench/round_trips.py: patches of the ``mcpgym`` process back to the code
path before one change (applied by bench/_access/sitecustomize.py at start-up)."""

from __future__ import annotations

from collections.abc import Callable


def _discover_each() -> None:
    """A ``server/discover`` probe in every episode (before `mcpgym_clients.discover_reuse`)."""
    from mcpgym_clients.discover_reuse import DiscoverResults

    DiscoverResults.prior = lambda self, server, lock, instructions: None  # type: ignore[method-assign]


WAYS: dict[str, Callable[[], None]] = {
    "current": lambda: None,
    "discover-each": _discover_each,
}


def apply(way: str) -> None:
    """Patch this process to ``way`` (`WAYS`)."""
    if way not in WAYS:
        raise SystemExit(f"unknown way {way!r}; ways: {', '.join(WAYS)}")
    WAYS[way]()
