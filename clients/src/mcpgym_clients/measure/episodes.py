"""The per-episode listing of a run (``mcpgym show RUN --episodes``): one row an episode.

Each row gives the variant, epoch, outcome (score or why it is unscored), wall time,
model turns, tool calls, model-request retries, attempts (fresh episodes after
``infra_error``) and tokens, ordered by task, band (easiest first), seed and epoch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.table import Table

from mcpgym_clients.measure.metrics import band_order
from mcpgym_clients.measure.usage import format_count, format_seconds


def _tokens(usage: Mapping[str, Any]) -> float | None:
    if usage.get("total_tokens") is not None:
        return float(usage["total_tokens"])
    parts = [usage.get("prompt_tokens"), usage.get("completion_tokens")]
    return None if all(p is None for p in parts) else float(sum(p or 0 for p in parts))


def episode_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The listing of stored episode rows (`RunStore.episodes`) as plain dicts:
    ``variant, epoch, outcome, score, seconds, turns, tool_calls, retries, attempts,
    tokens`` (``tokens``/``turns`` ``None`` when not reported), ordered by task, band
    (easiest first), seed and epoch, whatever order the episodes were stored in (a
    campaign stores them as they finish)."""

    def key(r: Mapping[str, Any]) -> tuple[str, tuple[int, str], int, int]:
        return (str(r["task"]), band_order(str(r["band"])), int(r["seed"]), int(r["epoch"]))

    out = []
    for r in sorted(rows, key=key):
        usage = r.get("usage") or {}
        out.append(
            {
                "variant": f"{r['task']}@{r['band']}#{r['seed']}",
                "epoch": r["epoch"],
                "outcome": "scored" if r["scored"] else r["termination"],
                "score": r["score"] if r["scored"] else None,
                "seconds": r.get("duration_s"),
                "turns": usage.get("requests"),
                "tool_calls": r.get("steps") or 0,
                "retries": int(usage.get("retries") or 0),
                "attempts": r.get("attempts") or 1,
                "tokens": _tokens(usage),
            }
        )
    return out


def episodes_table(listing: Sequence[Mapping[str, Any]], *, title: str) -> Table:
    """A table of `episode_rows`."""
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column("variant", overflow="fold")
    epochs = any(e["epoch"] for e in listing)
    if epochs:
        table.add_column("epoch", justify="right")
    for name in ("outcome", "time", "turns", "tool calls", "retries", "tokens"):
        table.add_column(name, justify="left" if name == "outcome" else "right", no_wrap=True)
    for e in listing:
        outcome = f"{e['score']:.3f}" if e["score"] is not None else str(e["outcome"])
        if e["attempts"] > 1:
            outcome += f" (attempt {e['attempts']})"
        table.add_row(
            e["variant"],
            *([str(e["epoch"])] if epochs else []),
            outcome,
            format_seconds(e["seconds"]),
            "-" if e["turns"] is None else str(int(e["turns"])),
            str(e["tool_calls"]),
            str(e["retries"]) if e["retries"] else "",
            format_count(e["tokens"]),
        )
    return table
