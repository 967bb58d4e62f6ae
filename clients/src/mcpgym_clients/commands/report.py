"""``mcpgym report RUN [--vs RUN_B] [--out FILE] [--store PATH] [--force]``: the HTML report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mcpgym_clients.commands._common import fail, reported, say
from mcpgym_clients.runstore import DEFAULT_STORE, RunStore


def report(
    run: Annotated[str, typer.Argument(help="Run id (see the `results:` line of `mcpgym eval`).")],
    vs: Annotated[
        str | None, typer.Option("--vs", help="A second run to compare with (deltas are B − A).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="HTML file to write (default: reports/RUN[-vs-RUN_B].html by --store)."),
    ] = None,
    store: Annotated[Path, typer.Option(help="Run store (SQLite).")] = DEFAULT_STORE,
    force: Annotated[
        bool, typer.Option("--force", help="Compare runs on different locks anyway.")
    ] = False,
) -> None:
    """Write a self-contained HTML report of a run (compared with RUN_B); print its path."""
    from mcpgym_clients.measure.report import write_report

    if not store.is_file():
        raise fail(f"no run store at {store} (run `mcpgym eval` first, or pass --store PATH)")
    with reported(), RunStore(store) as runs:
        path = write_report(runs, run, vs=vs, out=out, force=force)
    say(Console(), str(path))


def register(app: typer.Typer) -> None:
    """Add the ``report`` command to the ``mcpgym`` app."""
    app.command("report")(report)
