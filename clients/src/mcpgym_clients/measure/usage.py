"""Tokens, cost and time of stored episodes: per run, per family, and the delta of two runs.

Usage is what the agent's model API reported, stored per episode (``usage`` JSON of the
run store: ``requests``, ``prompt_tokens``, ``completion_tokens``, ``total_tokens``, and
``cached_tokens``, ``reasoning_tokens``, ``cost_usd`` where the vendor reports them).
Every stored episode counts, unscored ones included (an ``infra_error`` attempt spent its
tokens too). A count no episode reported stays ``None`` (unknown), never 0; ``reported``
says how many episodes' model API reported any usage at all (the harness's own
``requests`` count is not that), so a partial sum can be read as such.
Time is the episode's wall time (``duration_s``: open to sealed, model requests included).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

USAGE_KEYS = (
    "requests",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "reasoning_tokens",
    "total_tokens",
    "cost_usd",
)
"""The usage counts summed per group, in display order (``cost_usd`` in US dollars)."""

HARNESS_COUNTS = frozenset({"requests"})
"""Usage keys the harness counts itself: an episode with only these reported no usage (a
server that sends none, as llama-cpp-python's stream does, is 'not reported', never
'reported' with every token figure unknown; ``adv/round20sys/REAL_MODEL.md``)."""

# The wording of unknown usage, shared by `mcpgym runs`, `show`, `compare` and the report:
# change it here, nowhere else.
NOT_REPORTED = "not reported"
"""What an unknown usage figure is: the model API did not report it (never zero)."""

REPORTED_HEADING = "usage reported"
"""Heading of the count of episodes whose model API reported any usage."""


def usage_legend(mark: str = "-") -> str:
    """What ``mark`` (the unknown figure) means in a usage table, in the shared wording."""
    return f"{mark} = {NOT_REPORTED} by the model API (unknown, never counted as zero)"


def usage_notice(
    episodes: int, reported: int, *, mark: str = "-", legend: bool = True
) -> str | None:
    """The one line shown under usage figures when some episodes reported no usage.

    Args:
        episodes: stored episodes counted. reported: those whose model API reported any
            usage (``usage_figures``'s ``reported``). mark: how the table shows unknown.
        legend: end with the `usage_legend` (leave it to the page when it shows it).

    Returns:
        ``None`` when every episode reported usage (or there are none), else e.g.
        ``"usage not reported for 2 of 6 episodes: the sums cover the other 4; - =
        not reported by the model API (unknown, never counted as zero)"``.
    """
    if episodes <= 0 or reported >= episodes:
        return None
    missing = episodes - reported
    if reported == 0:
        head = f"usage {NOT_REPORTED} for any of the {episodes:,} episodes"
    else:
        head = (
            f"usage {NOT_REPORTED} for {missing:,} of {episodes:,} episodes: "
            f"the sums cover the other {reported:,}"
        )
    return f"{head}; {usage_legend(mark)}" if legend else head


def usage_lines(sides: Mapping[str, Mapping[str, Any]], *, mark: str = "-") -> list[str]:
    """The lines printed under a usage table: a `usage_notice` for each side (named by its
    key, unnamed when the key is ``""``) whose episodes did not all report usage, or the
    `usage_legend` alone when they all did.

    Args:
        sides: label -> `usage_figures` result (``episodes`` and ``reported`` read).
    """
    lines = []
    for label, u in sides.items():
        notice = usage_notice(int(u.get("episodes") or 0), int(u.get("reported") or 0), mark=mark)
        if notice is not None:
            lines.append(f"{label}: {notice}" if label else notice)
    return lines or [usage_legend(mark)]


def usage_figures(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Summed usage and episode time of episode rows.

    Args:
        rows: episode rows (``RunStore.episodes``); every row counts but those of slots
            a stopped campaign never played (``attempts`` 0: `RunStore.add_unplayed`),
            which ran no model request to report.

    Returns:
        ``{"episodes": n, "reported": rows with any usage, <USAGE_KEYS>: sum or None,
        "tokens_per_episode": total / reported or None, "duration_s": {"total", "mean",
        "median", "max"} (seconds; None without rows)}``.
    """
    rows = [r for r in rows if r.get("attempts") != 0]
    sums: dict[str, float | None] = dict.fromkeys(USAGE_KEYS)
    reported = 0
    for row in rows:
        usage = row.get("usage")
        if not isinstance(usage, Mapping) or not usage:
            continue
        counted = False
        for key in USAGE_KEYS:
            value = usage.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if not math.isfinite(value):
                continue
            sums[key] = (sums[key] or 0) + value
            counted = counted or key not in HARNESS_COUNTS
        reported += counted
    out: dict[str, Any] = {"episodes": len(rows), "reported": reported}
    for key in USAGE_KEYS:
        value = sums[key]
        out[key] = None if value is None else (round(value, 6) if key == "cost_usd" else int(value))
    total = out["total_tokens"]
    if total is None and (out["prompt_tokens"] is not None or out["completion_tokens"] is not None):
        total = (out["prompt_tokens"] or 0) + (out["completion_tokens"] or 0)
        out["total_tokens"] = total
    out["tokens_per_episode"] = None if total is None or not reported else total / reported
    durations = [
        float(r["duration_s"])
        for r in rows
        if isinstance(r.get("duration_s"), int | float) and math.isfinite(r["duration_s"])
    ]
    out["duration_s"] = (
        {
            "total": math.fsum(durations),
            "mean": math.fsum(durations) / len(durations),
            "median": statistics.median(durations),
            "max": max(durations),
        }
        if durations
        else None
    )
    return out


def usage_of_rows(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"overall": U, "by_family": {family: U}}`` with U as `usage_figures` returns."""
    families: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        families.setdefault(str(row["task"]), []).append(row)
    return {
        "overall": usage_figures(rows),
        "by_family": {name: usage_figures(group) for name, group in families.items()},
    }


def usage_delta(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """B - A of two `usage_figures` results, key by key (``None`` where either is unknown).

    Returns:
        ``{<USAGE_KEYS>, "tokens_per_episode", "mean_duration_s"}``: the differences.
    """
    out: dict[str, Any] = {}
    for key in (*USAGE_KEYS, "tokens_per_episode"):
        va, vb = a.get(key), b.get(key)
        out[key] = None if va is None or vb is None else vb - va
    da, db = a.get("duration_s"), b.get("duration_s")
    out["mean_duration_s"] = None if not da or not db else db["mean"] - da["mean"]
    return out


def format_count(value: float | None, *, signed: bool = False) -> str:
    """A token count for a table: ``-`` when unknown, ``12.3k``/``4.56M`` when large;
    ``signed``: a ``+`` in front of a difference that is not negative."""
    if value is None:
        return "-"
    sign = "-" if value < 0 else ("+" if signed else "")
    v = abs(value)
    if v >= 1_000_000:
        return f"{sign}{v / 1_000_000:.2f}M"
    if v >= 10_000:
        return f"{sign}{v / 1_000:.1f}k"
    return f"{sign}{v:,.0f}"


def format_cost(value: float | None, *, signed: bool = False) -> str:
    """A cost in US dollars for a table: ``-`` when no episode reported one; ``signed``:
    ``+$0.0100`` / ``-$0.0100`` for a difference."""
    if value is None:
        return "-"
    sign = "-" if value < 0 else ("+" if signed else "")
    v = abs(value)
    return f"{sign}${v:,.4f}" if v < 1 else f"{sign}${v:,.2f}"


def format_seconds(value: float | None, *, signed: bool = False) -> str:
    """Seconds for a table (``0.42s``, ``12.3s``, ``4m05s``); ``signed``: ``+1.00s`` /
    ``-1.00s`` for a difference."""
    if value is None:
        return "-"
    sign = "-" if value < 0 else ("+" if signed else "")
    v = abs(value)
    if v < 10:
        return f"{sign}{v:.2f}s"
    if v < 120:
        return f"{sign}{v:.1f}s"
    minutes, seconds = divmod(int(round(v)), 60)
    return f"{sign}{minutes}m{seconds:02d}s"
