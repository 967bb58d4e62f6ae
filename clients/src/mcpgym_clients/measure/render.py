"""Rich tables of run metrics, comparisons and failure targets (terminal output)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from rich.console import Console, JustifyMethod, OverflowMethod, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from mcpgym_clients.measure.usage import (
    REPORTED_HEADING,
    format_cost,
    format_count,
    format_seconds,
)


class ColumnOptions(TypedDict):
    """Keyword options of `rich.table.Table.add_column` shared by several columns."""

    justify: JustifyMethod
    overflow: OverflowMethod


NUMERIC: ColumnOptions = {"justify": "right", "overflow": "fold"}
"""Column options of numeric columns: a number that does not fit is folded onto the
next line, never cut with an ellipsis."""


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _ci(value: float | None, ci: Sequence[float] | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if ci is None else f"{value:.3f} [{ci[0]:.2f},{ci[1]:.2f}]"


def _ci_pct(value: float | None, ci: Sequence[float] | None) -> str:
    if value is None:
        return "-"
    return f"{value:.0%}" if ci is None else f"{value:.0%} [{ci[0]:.0%},{ci[1]:.0%}]"


def _k(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _delta(value: float | None, ci: Sequence[float] | None) -> str:
    if value is None:
        return "-"
    text = f"{value:+.3f}"
    return text if ci is None else f"{text} [{ci[0]:+.3f},{ci[1]:+.3f}]"


def metrics_table(m: Mapping[str, Any]) -> Table:
    """`run_metrics` as a table: overall, per band and per family@band, null baseline beside.

    Columns: episodes scored, variants, mean score and pass rate with 95% intervals,
    pass@k and pass^k for every k (when epochs > 1) with the variants they average
    over (those with every epoch scored), excluded episodes, and the baseline's mean
    and pass rate.
    """
    run = m["run"]
    k_max = m["overall"]["epochs"]
    base = m.get("baseline")
    table = Table(
        title=f"run {run['id']}: {run['agent']}"
        + (f" ({run['model']})" if run.get("model") else "")
        + f" on {run['env']} {run['env_version']} (lock {str(run['lock'])[:12]})",
    )
    table.add_column("group", overflow="fold", min_width=8)
    table.add_column("scored", **NUMERIC)
    table.add_column("var", **NUMERIC)
    table.add_column("mean [95% CI]", min_width=7, **NUMERIC)
    table.add_column("pass [95% CI]", min_width=6, **NUMERIC)
    ks = list(range(1, k_max + 1)) if k_max > 1 else []
    if ks:
        table.add_column(f"pass@k k=1..{k_max}", **NUMERIC)
        table.add_column(f"pass^k k=1..{k_max}", **NUMERIC)
        table.add_column("k var", **NUMERIC)
    table.add_column("excl", **NUMERIC)
    if base is not None:
        table.add_column("null mean/pass", min_width=8, **NUMERIC)

    def row(label: str, g: Mapping[str, Any], b: Mapping[str, Any] | None, end: bool) -> None:
        cells = [
            label,
            str(g["episodes"]),
            str(g["variants"]),
            _ci(g["mean_score"], g["mean_score_ci"]),
            _ci_pct(g["pass_rate"], g["pass_rate_ci"]),
            *(
                [
                    " ".join(_k(g["pass_at_k"].get(str(k))) for k in ks),
                    " ".join(_k(g["pass_hat_k"].get(str(k))) for k in ks),
                    str(g.get("pass_k_variants", "-")),
                ]
                if ks
                else []
            ),
            str(g["excluded"]) if g["excluded"] else "",
        ]
        if base is not None:
            cells.append(f"{_num(b['mean_score'])}/{_pct(b['pass_rate'])}" if b else "-")
        table.add_row(*cells, end_section=end)

    def base_group(section: str, key: str | None) -> Mapping[str, Any] | None:
        if base is None:
            return None
        return base["overall"] if key is None else base[section].get(key)

    row("(all)", m["overall"], base_group("overall", None), True)
    bands = list(m["by_band"].items())
    for i, (band, g) in enumerate(bands):
        row(band, g, base_group("by_band", band), i == len(bands) - 1)
    for name, g in m["by_family_band"].items():
        row(name, g, base_group("by_family_band", name), False)
    return table


def comparison_table(c: Mapping[str, Any]) -> Table:
    """`compare_runs` as a table: overall, per band and per family (B - A, paired)."""
    label_a, label_b = c.get("label_a", "A"), c.get("label_b", "B")
    table = Table(
        title=f"B = {c['run_b']} ({label_b}) against A = {c['run_a']} ({label_a}), paired; "
        "delta is B - A"
    )
    table.add_column("group", overflow="fold", min_width=8)
    for name in ("pairs", "mean A", "mean B", "delta [95% CI]", "passed A->B"):
        table.add_column(name, **NUMERIC)
    table.add_column("flips +/-", **NUMERIC)
    table.add_column("McNemar p", **NUMERIC)
    table.add_column("test", overflow="fold")

    def row(label: str, g: Mapping[str, Any], end: bool = False) -> None:
        table.add_row(
            label,
            str(g["pairs"]),
            _num(g["mean_a"]),
            _num(g["mean_b"]),
            _delta(g["delta"], g["delta_ci"]),
            f"{g['pass_a']} -> {g['pass_b']}",
            f"+{g['flips_to_pass']} / -{g['flips_to_fail']}",
            f"{g['mcnemar_p']:.3g}",
            g.get("mcnemar_test", "exact"),
            end_section=end,
        )

    row("(all)", c["overall"], True)
    bands = list(c["by_band"].items())
    for i, (band, g) in enumerate(bands):
        row(band, g, i == len(bands) - 1)
    for family, g in c["by_family"].items():
        row(family, g)
    return table


def flips_table(title: str, variants: Sequence[Mapping[str, Any]]) -> Table:
    """Newly solved or regressed pairs with their scores and the checks that changed."""
    table = Table(title=title)
    table.add_column("variant", overflow="fold")
    table.add_column("epoch", **NUMERIC)
    table.add_column("score A -> B", **NUMERIC)
    table.add_column("checks changed (A -> B)", overflow="fold")
    table.add_column("episodes A, B", **NUMERIC)
    for v in variants:
        checks = ", ".join(f"{c['check']} {c['a']}->{c['b']}" for c in v["changed_checks"])
        table.add_row(
            v["variant_id"],
            str(v["epoch"]),
            f"{v['score_a']:.3f} -> {v['score_b']:.3f}",
            checks or "-",
            f"{v['episode_a']}, {v['episode_b']}",
        )
    return table


def targets_table(groups: Sequence[Mapping[str, Any]], *, show: int = 4) -> Table:
    """Failure groups: the checks failed together, episodes and the first variants."""
    table = Table(title="failed episodes grouped by the checks they failed")
    table.add_column("failed checks", overflow="fold")
    table.add_column("episodes", **NUMERIC)
    table.add_column("variants", overflow="fold")
    for g in groups:
        names = g["variants"][:show] + (
            [f"+{len(g['variants']) - show} more"] if len(g["variants"]) > show else []
        )
        table.add_row(g["group"], str(g["episodes"]), ", ".join(names))
    return table


def ceiling_table(families: Sequence[Mapping[str, Any]]) -> Table:
    """Per family: hardest band run, pass rate there, and the fresh variants listed."""
    table = Table(
        title="fresh variants beyond the ceiling (families passing >= 90% of their hardest band)"
    )
    table.add_column("family", overflow="fold")
    table.add_column("hardest band")
    table.add_column("pass", **NUMERIC)
    table.add_column("fresh variants (reference replay)", overflow="fold")
    for f in families:
        if f["at_ceiling"]:
            fresh = ", ".join(
                f"{v['band']}#{v['seed']}" + ("" if v["validated"] else " (REFERENCE FAILS)")
                for v in f["fresh"]
            )
            fresh = fresh or "-"
        else:
            fresh = "below the ceiling"
        table.add_row(f["family"], f["hardest_band"], _pct(f["pass_rate"]), fresh)
    return table


PIPE_WIDTH = 120
"""Columns of tables printed off a terminal (a pipe, a log file, CI): wide enough for
every table's numbers, narrow enough to read; wider tables fold their cells."""


def output_width(console: Console, renderable: RenderableType, *, reserve: int = 0) -> int:
    """The width to print ``renderable`` at on ``console``.

    On a terminal: the terminal's width (numeric columns fold instead of cutting).
    Elsewhere (a pipe, a log file, CI): the renderable's natural width, at most
    `PIPE_WIDTH` columns (cells fold past it, numbers are never cut) and at least 40.
    ``reserve`` columns are kept free for a prefix.
    """
    width = console.width - reserve
    if console.is_terminal:
        return max(width, 40)
    natural = Measurement.get(console, console.options.update(width=10_000), renderable).maximum
    return max(min(natural, PIPE_WIDTH - reserve), 40)


def print_table(console: Console, renderable: RenderableType) -> None:
    """Print a table whole: at `output_width` (never cut at 80 columns off a terminal)."""
    width = console.width
    console.width = output_width(console, renderable)  # print(width=) cannot widen
    try:
        console.print(renderable, crop=False)
    finally:
        console.width = width


def print_lines(
    console: Console, renderables: Iterable[RenderableType | str], *, prefix: str = ""
) -> None:
    """Print renderables; with a ``prefix``, render them first and prefix every line.

    Used for forced comparisons, which must say so on every line of output. Tables are
    printed whole (`output_width`).
    """
    items = list(renderables)
    if not prefix:
        for item in items:
            if isinstance(item, str):
                console.print(item, soft_wrap=True, highlight=False, markup=False)
            else:
                print_table(console, item)
        return
    buffer = io.StringIO()
    widest = max(
        (output_width(console, i, reserve=len(prefix)) for i in items if not isinstance(i, str)),
        default=max(console.width - len(prefix), 40),
    )
    inner = Console(
        file=buffer,
        width=widest,
        force_terminal=console.is_terminal,
        color_system=console.color_system,  # type: ignore[arg-type]
        highlight=False,
    )
    for item in items:
        inner.print(Text(item) if isinstance(item, str) else item, soft_wrap=isinstance(item, str))
    for line in buffer.getvalue().splitlines():
        console.print(Text(prefix) + Text.from_ansi(line), soft_wrap=True, highlight=False)


_USAGE_COLUMNS = (
    ("requests", "requests"),
    ("prompt", "prompt_tokens"),
    ("completion", "completion_tokens"),
    ("cached", "cached_tokens"),
    ("reasoning", "reasoning_tokens"),
)


def usage_table(u: Mapping[str, Any], *, title: str = "tokens, cost and time") -> Table:
    """`usage_of_rows` as a table: overall and per family, every stored episode counted.

    Columns: episodes, those reporting usage, requests, prompt / completion / cached /
    reasoning tokens, cost (US dollars, where the API reports it) and episode wall time
    (mean and max). ``-`` is unknown; print `usage_lines` under it to say so.
    """
    table = Table(title=title, title_justify="left")
    table.add_column("group", overflow="fold", min_width=8)
    table.add_column("episodes", **NUMERIC)
    table.add_column(REPORTED_HEADING, **NUMERIC)
    for name, _ in _USAGE_COLUMNS:
        table.add_column(name, **NUMERIC)
    table.add_column("cost", **NUMERIC)
    table.add_column("time mean/max", **NUMERIC)

    def row(label: str, g: Mapping[str, Any], end: bool = False) -> None:
        d = g.get("duration_s")
        table.add_row(
            label,
            str(g["episodes"]),
            str(g["reported"]),
            *(format_count(g.get(key)) for _, key in _USAGE_COLUMNS),
            format_cost(g.get("cost_usd")),
            "-" if not d else f"{format_seconds(d['mean'])}/{format_seconds(d['max'])}",
            end_section=end,
        )

    row("(all)", u["overall"], True)
    for family, g in u["by_family"].items():
        row(family, g)
    return table


def usage_comparison_table(c: Mapping[str, Any]) -> Table:
    """The ``usage`` of `compare_runs`: A, B and B - A for tokens, cost and time."""
    u = c["usage"]
    table = Table(title="tokens, cost and time (every stored episode)", title_justify="left")
    table.add_column("", overflow="fold")
    table.add_column(f"A: {c.get('label_a', 'A')}", **NUMERIC)
    table.add_column(f"B: {c.get('label_b', 'B')}", **NUMERIC)
    table.add_column("B - A", **NUMERIC)
    for name, key in (*_USAGE_COLUMNS, ("tokens/episode", "tokens_per_episode")):
        table.add_row(
            name,
            format_count(u["a"].get(key)),
            format_count(u["b"].get(key)),
            format_count(u["delta"].get(key), signed=True),
        )
    table.add_row(
        "cost",
        format_cost(u["a"].get("cost_usd")),
        format_cost(u["b"].get("cost_usd")),
        format_cost(u["delta"].get("cost_usd"), signed=True),
    )
    da, db = u["a"].get("duration_s"), u["b"].get("duration_s")
    dd = u["delta"].get("mean_duration_s")
    table.add_row(
        "episode time (mean)",
        format_seconds(da["mean"] if da else None),
        format_seconds(db["mean"] if db else None),
        format_seconds(dd, signed=True),
    )
    return table
