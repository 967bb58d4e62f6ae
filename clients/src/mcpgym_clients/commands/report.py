"""``mcpgym report RUN [--vs BASELINE] [--out FILE] [--store DB] [--force]``: the HTML report.

With ``--vs``, ``RUN`` is compared against ``BASELINE``: A = ``BASELINE``, B = ``RUN``, and
deltas are B − A (a better ``RUN`` shows a positive delta), as ``mcpgym compare BASELINE RUN``.
``RUN`` and ``BASELINE`` are run ids, unique prefixes of one, or ``latest`` (as for ``show``).
Errors are one ``error: ...`` line with exit status 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mcpgym_clients.commands._common import reported, say
from mcpgym_clients.commands._options import DEFAULT_STORE


def report(
    run: Annotated[str, typer.Argument(help="Run id, unique prefix, or `latest`.")],
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            help="The run to compare against (the baseline, A): deltas are RUN − BASELINE.",
            metavar="BASELINE",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="HTML file to write (default: reports/RUN[-vs-BASELINE].html by --store)."
        ),
    ] = None,
    store: Annotated[Path, typer.Option(help="Run store (SQLite).")] = DEFAULT_STORE,
    force: Annotated[
        bool, typer.Option("--force", help="Compare runs on different locks anyway.")
    ] = False,
    resamples: Annotated[
        int, typer.Option(help="Bootstrap resamples.", min=100, max=100_000)
    ] = 2000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.", min=0)] = 0,
) -> None:
    """Write a self-contained HTML report of a run (against the --vs baseline); print its path."""
    from mcpgym_clients.commands.measure import open_existing
    from mcpgym_clients.measure.report import write_report

    with reported(), open_existing(store) as runs:
        run_id = runs.resolve(run)
        vs_id = None if vs is None else runs.resolve(vs)
        path = write_report(
            runs, run_id, vs=vs_id, out=out, force=force, resamples=resamples, seed=seed
        )
    say(Console(), str(path))


def register(app: typer.Typer) -> None:
    """Add the ``report`` command to the ``mcpgym`` app."""
    app.command("report")(report)
