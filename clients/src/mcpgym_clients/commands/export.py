"""``mcpgym export RUN --format rollouts [--out FILE] [--include-unscored]``: JSON lines.

Writes one `mcpgym_clients.train.export.ExportedRollout` per episode of the run (scored
episodes only unless ``--include-unscored``: an unscored episode has no reward and is
dropped and counted, never exported with a 0). The fields are documented in
docs/training.md. ``RUN`` is a run id, a unique prefix or ``latest``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mcpgym_clients.commands._common import fail, reported, say
from mcpgym_clients.commands._options import DEFAULT_STORE

FORMATS = ("rollouts",)


def export(
    run: Annotated[str, typer.Argument(help="Run id, unique prefix, or `latest`.")],
    format: Annotated[
        str, typer.Option("--format", help="What to write: `rollouts` (JSON lines).")
    ] = "rollouts",
    out: Annotated[
        Path | None, typer.Option(help="File to write (default: standard output).")
    ] = None,
    include_unscored: Annotated[
        bool,
        typer.Option(
            "--include-unscored",
            help="Also write unscored episodes (infra/model errors), with reward null.",
        ),
    ] = False,
    store: Annotated[Path, typer.Option(help="Run store (SQLite).")] = DEFAULT_STORE,
) -> None:
    """Export a run's episodes for a trainer (see docs/training.md)."""
    from mcpgym_clients.commands.measure import open_existing, unfinished_note
    from mcpgym_clients.train.export import export_rollout, planned_variant_ids, write_rollouts

    if format not in FORMATS:
        raise fail(f"--format {format!r}: known formats are {', '.join(FORMATS)}")
    with reported(), open_existing(store) as runs:
        run_id = runs.resolve(run)
        stored_run = runs.run(run_id)
        lock = stored_run.get("lock")
        episodes = runs.episodes(run_id)
        not_run = runs.not_run_count(run_id)
    kept = [e for e in episodes if include_unscored or e.get("scored")]
    if include_unscored:  # the rows that never reached a server: the variant planned
        kept = planned_variant_ids(stored_run, kept)
    n = write_rollouts((export_rollout(e, lock=lock, run_id=run_id) for e in kept), out)
    dropped = len(episodes) - len(kept)
    err = Console(stderr=True)
    say(
        err,
        f"wrote {n} rollouts of run {run_id}"
        + (f" to {out}" if out else "")
        + (f" ({dropped} unscored dropped)" if dropped else ""),
    )
    if not stored_run.get("finished_at"):  # a run still being written, or stopped: say so
        say(err, unfinished_note(stored_run, len(episodes), not_run, "this export holds"))


def register(app: typer.Typer) -> None:
    """Add the ``export`` command to the ``mcpgym`` app."""
    app.command("export")(export)
