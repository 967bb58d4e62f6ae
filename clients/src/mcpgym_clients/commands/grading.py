"""``mcpgym grading serve``: the grading service over HTTP."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mcpgym_clients.commands._common import reported, say
from mcpgym_clients.commands._options import BUNDLE_KEY, DEFAULT_EPISODES


def grading_serve(
    store: Annotated[
        Path, typer.Option(help="Episode store directory (shared with the env server).")
    ] = DEFAULT_EPISODES,
    token: Annotated[
        str | None,
        typer.Option(envvar="MCPGYM_GRADING_TOKEN", help="Bearer token (default: a random one)."),
    ] = None,
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: a free one).", min=0, max=65535)] = 8100,
    bundle_key: Annotated[
        str | None, typer.Option(envvar="MCPGYM_BUNDLE_KEY", help=BUNDLE_KEY)
    ] = None,
) -> None:
    """Serve the grading service over HTTP."""
    from mcpgym_grading.service import create_app
    from mcpgym_server.runtime import run_until_stopped

    err = Console(stderr=True)
    if not token:
        token = secrets.token_urlsafe(24)
        err.print(  # one line, whole, to paste into the eval shell
            "# a new grading token (none given); for `mcpgym eval --grading-url`:\n"
            f"export MCPGYM_GRADING_TOKEN={token}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    if not bundle_key:
        err.print(
            "warning: no bundle key (MCPGYM_BUNDLE_KEY / --bundle-key): episode bundle "
            "signatures are not checked",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    with reported():
        app_ = create_app(store, token, bundle_key=bundle_key)
        run_until_stopped(
            app_,
            host=host,
            port=port,
            on_ready=lambda url: say(Console(stderr=True), f"grading service at {url}"),
        )


def register(app: typer.Typer) -> None:
    """Add the ``grading`` command group (``grading serve``) to the ``mcpgym`` app."""
    grading_app = typer.Typer(help="The grading service.", no_args_is_help=True)
    grading_app.command("serve")(grading_serve)
    app.add_typer(grading_app, name="grading")
