"""Rendering a `ValidationReport` for the terminal (rich)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mcpgym_clients.instrument.validate import ValidationReport

MAX_LINES = 12
"""Failures shown per condition (the JSON report has them all)."""


def render_report(report: ValidationReport) -> Group:
    """A table of the conditions (✓/✗, figures) followed by every failure, capped per condition."""
    verdict = "[bold green]passes[/]" if report.passed else "[bold red]FAILS[/]"
    table = Table(
        title=f"validate {report.env} {report.version} (lock {report.lock[:12]}): {verdict} "
        f"— {report.episodes} episodes in {report.wall_s:.1f} s",
        show_lines=False,
    )
    table.add_column("#", justify="right")
    table.add_column("condition", overflow="fold")
    table.add_column("", no_wrap=True)
    table.add_column("figures", overflow="fold")
    for c in report.conditions:
        mark = "[green]ok[/]" if c.passed else "[red]FAIL[/]"
        figures = ", ".join(f"{k} {v}" for k, v in c.figures.items())
        table.add_row(str(c.id), c.title, mark, figures)
    parts: list[Table | Text] = [table]
    for c in report.conditions:
        lines = [f"  ✗ {line}" for line in c.failures[:MAX_LINES]]
        if len(c.failures) > MAX_LINES:
            lines.append(f"  ... and {len(c.failures) - MAX_LINES} more (see the JSON report)")
        lines += [f"  note: {line}" for line in c.notes[:3]]
        if lines:
            parts.append(Text(f"condition {c.id}: {c.title}\n" + "\n".join(lines)))
    if report.infrastructure:
        lines = [f"  ✗ {line}" for line in report.infrastructure[:MAX_LINES]]
        if report.server_log:
            lines.append(f"  server log: {report.server_log}")
        parts.append(Text("infrastructure errors (not condition failures):\n" + "\n".join(lines)))
    return Group(*parts)
