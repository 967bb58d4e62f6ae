"""Which stored run was started with given inputs: what `RunStore.find_resumable` and
`RunStore.find_finished` match a command against (`same_inputs`), and the part of a
selection that decides what a run measures (`selection_key`, read by `mcpgym_clients.resume`
too)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["same_inputs", "selection_key"]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _plain(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)


def same_inputs(
    lock: str,
    model: str | None,
    settings: Mapping[str, Any],
    selection: Mapping[str, Any],
    conditions: Mapping[str, Any] | None,
) -> Callable[[Mapping[str, Any]], bool]:
    """A test of a run's row (a `RunStore` row: decoded JSON columns): whether it was started
    with these inputs (lock, model, settings, conditions equal; the same variant set and
    epochs, in any spelling or order, as `selection_key` reads them). Raises nothing."""
    want = (lock, model, _canonical(dict(settings)), _canonical(_plain(conditions)))
    wanted_selection = selection_key(selection)

    def same(row: Mapping[str, Any]) -> bool:
        got = (row["lock"], row["model"], _canonical(row["settings"] or {}))
        return (*got, _canonical(row["conditions"])) == want and selection_key(
            row["selection"] or {}
        ) == wanted_selection

    return same


def selection_key(selection: Mapping[str, Any]) -> str:
    """The part of a selection that decides what a run measures: the variant set (sorted:
    ``--seeds 2,0-1`` and ``0-2``, ``--tasks a,b`` and ``b,a`` select the same run) and epochs,
    as canonical JSON text."""
    variants = selection.get("variants")
    if isinstance(variants, list):
        variants = sorted(str(v) for v in variants)
    return _canonical({"variants": variants, "epochs": selection.get("epochs")})
