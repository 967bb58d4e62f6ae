"""``mcpgym serve ENV``: serve an environment over streamable HTTP, or one episode over stdio."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import anyio
import typer
from rich.console import Console

from mcpgym_clients.commands import instrument
from mcpgym_clients.commands._common import environment_named, reported, say
from mcpgym_clients.commands._options import (
    BUNDLE_KEY,
    CONTROL_TOKEN,
    DEFAULT_EPISODES,
    LOG_BUDGET_HELP,
    LOG_VALUE_CAP_HELP,
    REQUEST_BURST_HELP,
    REQUESTS_PER_SECOND_HELP,
    SEED_SALT,
    empty_salt_problem,
)
from mcpgym_server.runtime import (
    DEFAULT_REQUEST_BURST,
    DEFAULT_REQUESTS_PER_SECOND,
    DEFAULT_SESSIONS_PER_EPISODE,
    LOG_BUDGET,
    LOG_VALUE_CAP,
)


def serve(
    env: Annotated[str, typer.Argument(help="Environment name, e.g. `helpdesk`.")],
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: a free one).", min=0, max=65535)] = 8000,
    store: Annotated[Path, typer.Option(help="Episode store directory.")] = DEFAULT_EPISODES,
    stdio: Annotated[bool, typer.Option("--stdio", help="Serve one episode over stdio.")] = False,
    task: Annotated[str | None, typer.Option(help="Task family (with --stdio).")] = None,
    band: Annotated[str | None, typer.Option(help="Band (with --stdio; default easiest).")] = None,
    seed: Annotated[
        int, typer.Option(help="Variant seed (with --stdio).", min=0, max=2**63 - 1)
    ] = 0,
    idle_ttl: Annotated[
        float,
        typer.Option(help="Seconds before an idle episode is sealed.", min=1.0, max=7 * 86400.0),
    ] = 600.0,
    unlocked: Annotated[
        bool, typer.Option(help="Development mode: mark bundles unlocked.")
    ] = False,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="Host header accepted besides loopback, e.g. gym.internal:* (repeatable); "
            "the --host you bind is added unless it is a wildcard address."
        ),
    ] = None,
    max_open: Annotated[
        int | None,
        typer.Option(
            help="Most episodes open at once (503 beyond); default: from the memory given "
            "(cgroup or physical) and the snapshot size, see docs/scaling.md.",
            min=1,
        ),
    ] = None,
    bundle_key: Annotated[
        str | None, typer.Option(envvar="MCPGYM_BUNDLE_KEY", help=BUNDLE_KEY)
    ] = None,
    control_token: Annotated[
        str | None, typer.Option(envvar="MCPGYM_CONTROL_TOKEN", help=CONTROL_TOKEN)
    ] = None,
    no_control_token: Annotated[
        bool,
        typer.Option(
            "--no-control-token",
            help="Insecure: open control routes (anyone who can reach the server, agents "
            "included, can open episodes and read variant ids).",
        ),
    ] = False,
    seed_salt: Annotated[
        str | None, typer.Option(envvar="MCPGYM_SEED_SALT", help=SEED_SALT)
    ] = None,
    log_value_cap: Annotated[int, typer.Option(help=LOG_VALUE_CAP_HELP, min=1024)] = LOG_VALUE_CAP,
    log_budget: Annotated[int, typer.Option(help=LOG_BUDGET_HELP, min=1024)] = LOG_BUDGET,
    max_sessions_per_episode: Annotated[
        int,
        typer.Option(
            help="Most live MCP sessions one episode URL may hold (2026-era requests in "
            "flight count); past it a new one is refused (429). The server holds at most "
            "--max-open times this many.",
            min=1,
        ),
    ] = DEFAULT_SESSIONS_PER_EPISODE,
    max_requests_per_second: Annotated[
        float, typer.Option(help=REQUESTS_PER_SECOND_HELP, min=0.001)
    ] = DEFAULT_REQUESTS_PER_SECOND,
    request_burst: Annotated[
        int, typer.Option(help=REQUEST_BURST_HELP, min=1)
    ] = DEFAULT_REQUEST_BURST,
) -> None:
    """Serve an environment over streamable HTTP (or one episode over stdio)."""
    if control_token and no_control_token:
        raise typer.BadParameter(
            "give either a control token (MCPGYM_CONTROL_TOKEN / --control-token) or "
            "--no-control-token, not both",
            param_hint="'--no-control-token'",
        )
    if (problem := empty_salt_problem(seed_salt)) is not None:
        raise typer.BadParameter(problem, param_hint="'--seed-salt'")
    if log_budget < log_value_cap:
        raise typer.BadParameter(
            f"the log budget ({log_budget} bytes) is below --log-value-cap ({log_value_cap})",
            param_hint="'--log-budget'",
        )
    environment = environment_named(env)
    instrument.require_lock(environment, unlocked)  # refuses code that no longer matches
    if stdio:
        if task is None:
            raise typer.BadParameter("--stdio needs --task", param_hint="'--task'")
        from mcpgym_server.runtime import serve_stdio

        with reported():
            anyio.run(
                lambda: serve_stdio(
                    environment,
                    task=task,
                    band=band,
                    seed=seed,
                    store_dir=store,
                    unlocked=unlocked,
                    bundle_key=bundle_key,
                    log_value_cap=log_value_cap,
                    log_budget=log_budget,
                )
            )
        return
    from mcpgym_server.runtime import SEALING_GRACE_S, create_app, run_until_stopped

    if not control_token and not no_control_token:
        control_token = secrets.token_urlsafe(32)
        Console(stderr=True).print(  # one line, whole, to paste into the eval shell
            f"# a new control token (none given); for `mcpgym eval --env-url`:\n"
            f"export MCPGYM_CONTROL_TOKEN={control_token}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    with reported():
        hosts = list(allowed_host or [])
        if host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::"):
            hosts.append(f"[{host}]:*" if ":" in host else f"{host}:*")
        web = create_app(
            environment,
            store,
            idle_ttl=idle_ttl,
            unlocked=unlocked,
            allowed_hosts=hosts,
            max_open_episodes=max_open,
            bundle_key=bundle_key,
            control_token=control_token or None,
            seed_salt=seed_salt or None,
            log_value_cap=log_value_cap,
            log_budget=log_budget,
            max_sessions_per_episode=max_sessions_per_episode,
            max_requests_per_second=max_requests_per_second,
            request_burst=request_burst,
        )
    with reported():
        run_until_stopped(
            web,
            host=host,
            port=port,
            on_stop=web.state.seal_all,
            graceful_timeout=SEALING_GRACE_S,  # then seal: well inside `docker stop`'s 10 s
            on_ready=lambda url: say(Console(stderr=True), f"serving {env} at {url}"),
        )


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``mcpgym`` app."""
    app.command()(serve)
