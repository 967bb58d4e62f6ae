"""Plain view models of episodes, grades and check failures for the report template.

Everything here returns built-in types (dicts, lists, strings, numbers). Text that came
from a model or a tool is passed on unchanged: the template's autoescaping makes it
inert, so nothing here may mark a string safe.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from mcpgym_clients.measure.metrics import episode_flags

CheckResult = Literal["pass", "fail", "skip", "error"]

MAX_MESSAGE_CHARS = 20_000
"""Longest message text shown whole; a longer one is cut, with a note of how much is left out."""


def anchor(episode_row_id: int | str) -> str:
    """The in-page id of an episode's transcript: ``ep-<episodes row id>``."""
    return f"ep-{int(episode_row_id)}"


def check_result(check: Mapping[str, Any]) -> CheckResult:
    """One check's outcome in a grade: ``error`` (could not be evaluated), ``skip`` (not
    applicable to the variant), ``pass`` or ``fail``."""
    if check.get("error"):
        return "error"
    if check.get("applicable") is False or check.get("passed") is None:
        return "skip"
    return "pass" if check.get("passed") else "fail"


def _compact(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


MAX_PASSED_VALUE_CHARS = 200
"""Longest expected/found value shown whole for a check that passed (a failed one's are shown
up to `MAX_MESSAGE_CHARS`): passing checks' configurations would otherwise fill the file."""


def _cut(text: str, limit: int = MAX_MESSAGE_CHARS) -> tuple[str, int]:
    """``text`` cut to ``limit`` characters, and how many characters were left out."""
    if len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


def _value(value: Any, limit: int) -> str:
    text, cut = _cut(_compact(value), limit)
    return f"{text} … ({cut} more characters)" if cut else text


def _content_text(content: Any) -> str:
    """A Chat Completions message content (string, list of parts or ``None``) as text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, Mapping) and part.get("type") == "text":
                parts.append(str(part.get("text", "")))
            else:
                parts.append(_compact(part))
        return "\n".join(parts)
    return _compact(content)


def _pretty_arguments(arguments: Any) -> str:
    if isinstance(arguments, str):
        try:
            return json.dumps(json.loads(arguments), ensure_ascii=False, indent=1)
        except ValueError:
            return arguments
    return _compact(arguments)


def message_views(transcript: Sequence[Any] | None) -> list[dict[str, Any]]:
    """Chat-Completions-shaped messages as ``{"role", "text", "cut", "tool_calls":
    [{"id", "name", "arguments"}], "tool_call_id", "is_error"}`` (``cut``: characters left out)."""
    views = []
    for msg in transcript or []:
        if not isinstance(msg, Mapping):
            msg = {"role": "?", "content": _compact(msg)}
        text, cut = _cut(_content_text(msg.get("content")))
        calls = []
        for call in msg.get("tool_calls") or []:
            fn = (call.get("function") or {}) if isinstance(call, Mapping) else {}
            args, args_cut = _cut(_pretty_arguments(fn.get("arguments")))
            calls.append(
                {
                    "id": str(call.get("id", "")) if isinstance(call, Mapping) else "",
                    "name": str(fn.get("name", "")),
                    "arguments": args,
                    "cut": args_cut,
                }
            )
        views.append(
            {
                "role": str(msg.get("role", "?")),
                "text": text,
                "cut": cut,
                "tool_calls": calls,
                "tool_call_id": msg.get("tool_call_id"),
                "is_error": bool(msg.get("mcpgym_is_error")),
            }
        )
    return views


def check_views(grade: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """A grade's checks as ``{"name", "kind", "weight", "required", "result", "expected",
    "found", "note"}`` rows (expected/found as compact JSON, cut to `MAX_PASSED_VALUE_CHARS`
    for a passed check; ``note``: the error or the reason the check was skipped)."""
    rows = []
    for check in (grade or {}).get("checks") or []:
        detail = check.get("detail") or {}
        expected = detail.get("expected", check.get("expected"))
        found = detail.get("found", check.get("found"))
        result = check_result(check)
        note = check.get("error") or (detail.get("skipped") if result == "skip" else None)
        limit = MAX_PASSED_VALUE_CHARS if result == "pass" else MAX_MESSAGE_CHARS
        rows.append(
            {
                "name": str(check.get("name", "?")),
                "kind": str(check.get("kind", "")),
                "weight": check.get("weight"),
                "required": bool(check.get("required")),
                "result": result,
                "expected": _value(expected, limit),
                "found": _value(found, limit),
                "note": _compact(note),
            }
        )
    return rows


def episode_view(row: Mapping[str, Any], *, run_label: str) -> dict[str, Any]:
    """One run-store episode row (see `RunStore.episodes`) as the template shows it.

    Args:
        row: the episode row (grade and transcript decoded).
        run_label: which run it belongs to in this report (``"run"``, ``"baseline"``, or
            ``"B"``: the --vs run).
    """
    grade = row.get("grade") or None
    checks = check_views(grade)
    return {
        "anchor": anchor(row["id"]),
        "id": row["id"],
        "run_id": row.get("run_id"),
        "run_label": run_label,
        "agent": row.get("agent"),
        "variant_id": row.get("variant_id")
        or f"{row.get('task')}@{row.get('band')}#{row.get('seed')}",
        "task": row.get("task"),
        "band": row.get("band"),
        "seed": row.get("seed"),
        "epoch": row.get("epoch"),
        "termination": row.get("termination"),
        "scored": bool(row.get("scored")),
        "score": row.get("score"),
        "passed": None if row.get("passed") is None else bool(row.get("passed")),
        "error": row.get("error") or (grade or {}).get("error"),
        "flags": episode_flags(row),
        "steps": row.get("steps"),
        "duration_s": row.get("duration_s"),
        "answer": row.get("answer"),
        "threshold": (grade or {}).get("threshold"),
        "checks": checks,
        "failed": [c["name"] for c in checks if c["result"] in ("fail", "error")],
        "messages": message_views(row.get("transcript")),
    }


def failure_heatmap(episodes: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Check failure rates per task family over scored episodes (a family x check grid).

    A cell's rate is (failed + errored) / evaluated, counting only episodes where the check
    applied; a check a family never evaluates gives an empty cell (``None``).

    Returns:
        ``{"checks": [name, ...], "rows": [{"family", "episodes", "cells": [None |
        {"check", "failed", "n", "rate", "first": anchor of the first failing episode |
        None}]}]}``; checks in order of first appearance, families in order of appearance.
    """
    counts: dict[str, dict[str, list[Any]]] = {}
    scored: dict[str, int] = {}
    for ep in episodes:
        if not ep.get("scored") or not ep.get("grade"):
            continue
        family = str(ep.get("task"))
        scored[family] = scored.get(family, 0) + 1
        per_check = counts.setdefault(family, {})
        for check in ep["grade"].get("checks") or []:
            result = check_result(check)
            if result == "skip":
                continue
            cell = per_check.setdefault(str(check.get("name")), [0, 0, None])
            cell[1] += 1
            if result in ("fail", "error"):
                cell[0] += 1
                cell[2] = cell[2] or anchor(ep["id"])
    names = list(dict.fromkeys(name for per in counts.values() for name in per))
    rows = []
    for family, per in counts.items():
        cells = []
        for name in names:
            if name not in per:
                cells.append(None)
                continue
            failed, n, first = per[name]
            cells.append(
                {"check": name, "failed": failed, "n": n, "rate": failed / n, "first": first}
            )
        rows.append({"family": family, "episodes": scored[family], "cells": cells})
    return {"checks": names, "rows": rows}


def heat_colour(rate: float) -> str:
    """A cell background for a failure rate in [0, 1]: pale green at 0, deep red at 1."""
    if rate <= 0.0:
        return "hsl(130, 45%, 90%)"
    lightness = 88 - 48 * min(rate, 1.0)
    return f"hsl(4, 75%, {lightness:.0f}%)"
