"""Render the metrics, the comparison and the episodes of runs into one self-contained HTML page.

The page uses no network: CSS, the SVG charts (laid out here, see `_charts`) and a few lines
of JavaScript (opening an episode's transcript when a link to it is followed) are inline, and
a Content-Security-Policy forbids any other script, any fetch and any remote resource. The
template is rendered by Jinja2 with autoescaping on, so text from models and tools (the
transcripts, answers, check values) is shown, never interpreted.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any

import jinja2

from mcpgym_clients.measure.metrics import band_order
from mcpgym_clients.measure.report._charts import BarChart, Series, bar_chart
from mcpgym_clients.measure.report._views import episode_view, failure_heatmap, heat_colour
from mcpgym_clients.measure.usage import (
    REPORTED_HEADING,
    format_cost,
    format_count,
    format_seconds,
    usage_legend,
    usage_notice,
)

_TEMPLATES = files("mcpgym_clients.measure.report") / "templates"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: (_TEMPLATES / name).read_text("utf-8")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = _num
    env.filters["pct"] = _pct
    env.filters["ci"] = _ci
    env.filters["signed"] = _signed
    env.filters["pvalue"] = _pvalue
    env.filters["heat"] = heat_colour
    env.filters["count"] = _count
    env.filters["cost"] = _cost
    env.filters["secs"] = _secs
    # the wording of unknown usage, shared with the terminal commands
    env.globals["usage_reported_heading"] = REPORTED_HEADING
    env.globals["usage_legend"] = usage_legend("–")
    env.globals["usage_notice"] = lambda u: usage_notice(u["episodes"], u["reported"], legend=False)
    return env


def _count(value: Any, signed: bool = False) -> str:
    return "–" if value is None else format_count(value, signed=signed)


def _cost(value: Any, signed: bool = False) -> str:
    return "–" if value is None else format_cost(value, signed=signed)


def _secs(value: Any, signed: bool = False) -> str:
    return "–" if value is None else format_seconds(value, signed=signed)


def _num(value: Any, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: Any) -> str:
    return "–" if value is None else f"{value * 100:.1f}%"


def _signed(value: Any) -> str:
    return "–" if value is None else f"{value:+.3f}"


def _pvalue(value: Any) -> str:
    if value is None:
        return "–"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _ci(interval: Any, kind: str = "num") -> str:
    if not interval:
        return ""
    fmt = _pct if kind == "pct" else _signed if kind == "signed" else _num
    return f"[{fmt(interval[0])}, {fmt(interval[1])}]"


def _points(
    groups: Mapping[str, Mapping[str, Any]],
    baseline: Mapping[str, Mapping[str, Any]] | None,
    names: Sequence[str],
    key: str,
) -> list[tuple[str, list[tuple[Any, Any]]]]:
    out = []
    for name in names:
        g = groups.get(name) or {}
        points = [(g.get(key), g.get(f"{key}_ci"))]
        if baseline is not None:
            b = baseline.get(name) or {}
            points.append((b.get(key), b.get(f"{key}_ci")))
        out.append((name, points))
    return out


def _metric_charts(metrics: Mapping[str, Any], agent: str) -> list[BarChart]:
    baseline = metrics.get("baseline")
    series = [Series(agent, "s0")]
    if baseline:
        series.append(Series(f"{baseline['run'].get('agent', 'null')} (baseline)", "s1"))
    charts = []
    for by, what in (("by_band", "band"), ("by_family", "task family")):
        groups = metrics.get(by) or {}
        names = sorted(groups, key=band_order) if by == "by_band" else list(groups)
        base = (baseline or {}).get(by) if baseline else None
        for key, title, percent in (
            ("mean_score", f"Mean score by {what}", False),
            ("pass_rate", f"Pass rate by {what}", True),
        ):
            points = _points(groups, base, names, key)
            charts.append(
                bar_chart(title, series, points, percent=percent, anchor=f"chart-{by}-{key}")
            )
    return charts


def _delta_charts(comparison: Mapping[str, Any]) -> list[BarChart]:
    series = [Series("B − A", "s2")]
    charts = []
    for by, what in (("by_band", "band"), ("by_family", "task family")):
        groups = comparison.get(by) or {}
        names = sorted(groups, key=band_order) if by == "by_band" else list(groups)
        points = [(n, [(groups[n].get("delta"), groups[n].get("delta_ci"))]) for n in names]
        title = f"Mean score delta by {what}"
        charts.append(bar_chart(title, series, points, lo=-1.0, hi=1.0, anchor=f"chart-delta-{by}"))
    return charts


def _sorted(episodes: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Episodes by family (first appearance), band (easiest first), seed and epoch."""
    families = {name: i for i, name in enumerate(dict.fromkeys(e.get("task") for e in episodes))}
    return sorted(
        episodes,
        key=lambda e: (
            families[e.get("task")],
            band_order(str(e.get("band"))),
            e.get("seed") or 0,
            e.get("epoch") or 0,
        ),
    )


def _ordered(groups: Mapping[str, Any] | None, *, bands: bool) -> list[str]:
    names = list(groups or {})
    return sorted(names, key=band_order) if bands else names


def render_report(
    metrics: Mapping[str, Any],
    episodes: Sequence[Mapping[str, Any]],
    *,
    baseline_episodes: Sequence[Mapping[str, Any]] = (),
    comparison: Mapping[str, Any] | None = None,
    episodes_b: Sequence[Mapping[str, Any]] = (),
    run_b: Mapping[str, Any] | None = None,
    generated_at: str | None = None,
) -> str:
    """The HTML report of one run, optionally compared with a second run.

    Args:
        metrics: `run_metrics` of the run (``{"run", "overall", "by_band", "by_family",
            "by_family_band", "baseline", "excluded"}``).
        episodes: the run's episode rows (`RunStore.episodes`: grade and transcript decoded).
        baseline_episodes: the episode rows of the run's null baseline, if any.
        comparison: `compare_runs` of the ``--vs`` run (A, the baseline) and this run (B):
            ``delta`` = B − A = this run − the ``--vs`` run.
        episodes_b: the ``--vs`` run's episode rows (the flip lists link to them).
        run_b: the ``--vs`` run's runs row.
        generated_at: timestamp shown in the footer (default: now, UTC).

    Returns:
        A complete HTML5 document (str) with no external reference.

    Raises:
        jinja2.TemplateError: a metrics or comparison dict missing a field the page shows.
    """
    run = metrics["run"]
    agent = str(run.get("agent") or "agent")
    base_run = ((metrics.get("baseline") or {}).get("run")) or {}
    sets = []
    seen: set[Any] = set()  # the --vs run may be the baseline: show each episode once
    for label, title, rows in (
        ("run", f"Run {run.get('id')} ({agent})", episodes),
        ("baseline", f"Baseline {base_run.get('id')} ({base_run.get('agent')})", baseline_episodes),
        (
            "B",
            f"Run A (--vs) {(run_b or {}).get('id')} ({(run_b or {}).get('agent')})",
            episodes_b,
        ),
    ):
        rows = [e for e in rows if e["id"] not in seen]
        seen.update(e["id"] for e in rows)
        if rows:
            views = [episode_view(e, run_label=label) for e in _sorted(rows)]
            sets.append(
                {
                    "label": label,
                    "title": title,
                    "episodes": views,
                    "heatmap": failure_heatmap(rows),
                }
            )
    env = _environment()
    script = (_TEMPLATES / "report.js").read_text("utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    return env.get_template("report.html.j2").render(
        run=run,
        metrics=metrics,
        baseline=metrics.get("baseline"),
        bands=_ordered(metrics.get("by_band"), bands=True),
        families=list(metrics.get("by_family") or {}),
        charts=_metric_charts(metrics, agent),
        comparison=comparison,
        run_b=run_b,
        cmp_bands=_ordered((comparison or {}).get("by_band"), bands=True),
        delta_charts=_delta_charts(comparison) if comparison else [],
        sets=sets,
        script=script,
        script_hash=f"sha256-{digest}",
        generated_at=generated_at or datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
    )
