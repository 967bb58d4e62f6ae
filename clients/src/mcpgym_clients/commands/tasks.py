"""``mcpgym tasks [ENV]``: an environment's task families and bands (no ENV: the installed
environments)."""

from __future__ import annotations

import re
import textwrap
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from mcpgym_clients.commands._common import environment_named, reported


def tasks(
    env: Annotated[
        str | None, typer.Argument(help="Environment name (none: list the installed ones).")
    ] = None,
) -> None:
    """List an environment's task families and bands, with a sample instruction (one per
    family, or one for all when they read alike). Without ENV, list the installed
    environments."""
    from mcpgym_server import available_environments, compute_lock

    if env is None:
        names = available_environments()
        if not names:
            raise typer.BadParameter(
                "no environment is installed (install one, e.g. `uv pip install -e "
                "environments/helpdesk`, or write one: `mcpgym new ENV`)",
                param_hint="'ENV'",
            )
        typer.echo("installed environments: " + ", ".join(names))
        typer.echo(f"`mcpgym tasks ENV` lists one's task families, e.g. `mcpgym tasks {names[0]}`")
        return
    environment = environment_named(env)
    console = Console()
    families = list(environment.families.values())
    with reported():
        lock = compute_lock(environment)
        samples = [environment.variant(f.name, f.bands[0], 0).instruction for f in families]
    # When the instructions only differ in numbers (ticket ids...), show one, not a column.
    alike = len({re.sub(r"\d+", "#", s) for s in samples}) <= 1
    table = Table(
        title=f"{environment.name} {environment.version} (lock {lock[:12]})", show_lines=True
    )
    # Family names are what --tasks takes: never wrapped or cut.
    widest = max((len(f.name) for f in families), default=11)
    table.add_column("task family", style="bold", no_wrap=True, min_width=widest)
    # On a narrow terminal, one band a line leaves the width to the descriptions.
    longest_band = max((len(b) for f in families for b in f.bands), default=4)
    narrow = console.width < 120
    table.add_column("bands", overflow="fold", max_width=longest_band + 1 if narrow else None)
    table.add_column("description", overflow="fold")
    if not alike:
        table.add_column("sample instruction (easiest band, seed 0)", overflow="fold")
    for fam, sample in zip(families, samples, strict=True):
        cells = [fam.name, ", ".join(fam.bands), fam.description]
        table.add_row(*cells, *([] if alike else [sample]))
    console.print(table)
    if alike and families:
        first = families[0]
        lead = "every family's instruction reads alike, e.g." if len(families) > 1 else "sample:"
        console.print(f"{lead} {first.name}@{first.bands[0]}#0:", highlight=False, markup=False)
        for line in textwrap.wrap(samples[0], width=max(console.width - 2, 20)):
            console.print(f"  {line}", highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    """Add the ``tasks`` command to the ``mcpgym`` app."""
    app.command()(tasks)
