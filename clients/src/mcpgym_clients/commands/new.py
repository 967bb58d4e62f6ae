"""``mcpgym new NAME [--dir PATH] [--by "Name <email>"]``: scaffold an environment distribution.

Writes ``mcpgym-NAME`` (import package ``mcpgym_NAME``): pyproject with the
``mcpgym.environments`` entry point, snapshot build script and built snapshot, two tools,
one task family with a rubric, its lock file, sign-off and recorded reference runs, tests
and a README (see `mcpgym_clients.scaffold`), then prints the commands that install, validate
and serve it (`mcpgym_clients.scaffold.steps`, absolute paths). Exit status 2 with one
``error:`` line for a malformed name; 1 for a taken name, a non-empty target folder or a
failed build step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mcpgym_clients.commands._common import fail, reported, say


def new(
    name: Annotated[
        str, typer.Argument(help="Environment name: lowercase letters, digits, dashes.")
    ],
    directory: Annotated[
        Path | None,
        typer.Option("--dir", help="Distribution folder (default: ./mcpgym-NAME); new or empty."),
    ] = None,
    by: Annotated[
        str | None,
        typer.Option(
            help='Who signs the rubric and records the runs, "Name <email>" '
            "(default: the mcpgym maintainers, whose template rubric it is)."
        ),
    ] = None,
) -> None:
    """Scaffold an environment distribution that passes `mcpgym validate` once installed."""
    from mcpgym_clients.scaffold import TEMPLATE_SIGNER, ScaffoldError, names_for, scaffold
    from mcpgym_clients.scaffold.steps import mcpgym_checkout, next_steps

    try:
        names_for(name)
    except ScaffoldError as exc:  # a malformed name is a usage error, like a bad option
        raise fail(str(exc), 2) from None
    console = Console()
    with reported():
        made = scaffold(name, directory, by=by or TEMPLATE_SIGNER)
    n = made.names
    say(console, f"created {n.distribution} in {made.root} ({len(made.files)} files)")
    say(console, f"  environment `{n.env}`, package `{n.package}`, snapshot {made.snapshot_sha256}")
    for line in made.finish_log.splitlines():
        say(console, f"  {line}")
    say(console, "next:")
    for line in next_steps(made.root, n.env, checkout=mcpgym_checkout()):
        say(console, f"  {line}")
    say(console, f"{made.root / 'README.md'} walks through editing tools, families and bands.")


def register(app: typer.Typer) -> None:
    """Add ``mcpgym new`` to the ``mcpgym`` command line."""
    app.command("new")(new)
