"""The ``mcpgym`` command line: the Typer app and its commands, wired (code in `commands`).

Commands::

    mcpgym serve ENV [--host H] [--port P] [--store DIR] [--idle-ttl S] [--unlocked]
    mcpgym serve ENV --stdio --task T [--band B] [--seed N] [--store DIR]
    mcpgym grading serve [--store DIR] [--token T] [--host H] [--port P]
    mcpgym tasks ENV
    mcpgym eval ENV --agent reference|null|openai [--model [VENDOR:]MODEL] [--base-url URL] ...
    mcpgym demo
    mcpgym lock | sign | record | validate | new | runs | show | compare | targets | report

Exit status: 0 on success; 1 for an error the user can fix (shown as one
``error: ...`` line: unknown task or band, bad ``--store``, unreachable model
endpoint or rejected key) and when a campaign ran to its end without scoring any episode
of the agent's run; 2 for malformed arguments; 3 (``EXIT_INCOMPLETE``) when planned
episodes stay unscored or a breaker stopped the campaign (even with none scored yet);
128 + the signal number (130 for Ctrl-C) when ``eval`` or ``demo`` is interrupted, after
the servers stop: the episodes finished so far stay in the run store, whose runs are left
unfinished (``finished_at`` empty).

The command modules (`mcpgym_clients.commands`) are the only place that reads
environment variables (the vendor's key variable, ``OPENAI_API_KEY``,
``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY`` / ``GOOGLE_API_KEY``, or the one named by
``--api-key-env``; ``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL``, ``MCPGYM_ENV_URL``,
``MCPGYM_GRADING_URL``, ``MCPGYM_GRADING_TOKEN``); the library classes take explicit
arguments.
"""

from __future__ import annotations

import typer

from mcpgym_clients.commands import (
    evaluate,
    export,
    grading,
    instrument,
    measure,
    new,
    report,
    serve,
    tasks,
)
from mcpgym_clients.commands._help import HelpGroup

app = typer.Typer(
    name="mcpgym",
    help="Serve environments to agents over MCP, run agents on them and grade the results.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    cls=HelpGroup,
)

# serve, grading serve, tasks, eval, demo; lock, sign, record, validate; new;
# runs, show, compare, targets; report; export -- in the order `mcpgym --help` lists them
for _commands in (serve, grading, tasks, evaluate, instrument, new, measure, report, export):
    _commands.register(app)


def main() -> None:
    """Entry point of the ``mcpgym`` console script."""
    app()
