"""The ``mcpgym`` command line.

Commands::

    mcpgym serve ENV [--host H] [--port P] [--store DIR] [--idle-ttl S] [--unlocked]
    mcpgym serve ENV --stdio --task T [--band B] [--seed N] [--store DIR]
    mcpgym grading serve [--store DIR] [--token T] [--host H] [--port P]
    mcpgym tasks ENV
    mcpgym eval ENV --agent reference|null|openai [--model M] [--base-url URL] ...
    mcpgym demo

This module is the only place that reads environment variables
(``OPENAI_API_KEY`` or the one named by ``--api-key-env``, ``OPENAI_BASE_URL``,
``MCPGYM_ENV_URL``, ``MCPGYM_GRADING_URL``, ``MCPGYM_GRADING_TOKEN``); the
library classes take explicit arguments.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer
from rich.console import Console
from rich.table import Table

from mcpgym_clients.adapters.chat_completions import DEFAULT_BASE_URL, ChatCompletionsClient
from mcpgym_clients.agents import AGENT_NAMES, NullAgent, OpenAIAgent, ReferenceAgent
from mcpgym_clients.campaign import CampaignResult, run_campaign, select_variants
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.local import serve_locally
from mcpgym_clients.protocol import Agent
from mcpgym_clients.runstore import DEFAULT_STORE, RunStore
from mcpgym_clients.selection import parse_bands, parse_names, parse_seeds
from mcpgym_clients.summary import render_summary, unscored_reasons
from mcpgym_server import MCPGymError, available_environments, load_environment

app = typer.Typer(
    name="mcpgym",
    help="Serve environments to agents over MCP, run agents on them and grade the results.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
grading_app = typer.Typer(help="The grading service.", no_args_is_help=True)
app.add_typer(grading_app, name="grading")

DEFAULT_EPISODES = Path("runs") / "episodes"


def _fail(message: str, code: int = 1) -> typer.Exit:
    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def _parsed(fn: Any, value: str, flag: str) -> Any:
    try:
        return fn(value)
    except ConfigurationError as exc:
        raise typer.BadParameter(str(exc), param_hint=f"'{flag}'") from None


@contextlib.contextmanager
def _reported() -> Iterator[None]:
    """Turn mcpgym errors into a one-line message on stderr and exit status 1."""
    try:
        yield
    except MCPGymError as exc:
        raise _fail(str(exc)) from None


def _environment(name: str) -> Any:
    with _reported():
        return load_environment(name)


# -- serve ------------------------------------------------------------------------------


@app.command()
def serve(
    env: Annotated[str, typer.Argument(help="Environment name, e.g. `helpdesk`.")],
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    store: Annotated[Path, typer.Option(help="Episode store directory.")] = DEFAULT_EPISODES,
    stdio: Annotated[bool, typer.Option("--stdio", help="Serve one episode over stdio.")] = False,
    task: Annotated[str | None, typer.Option(help="Task family (with --stdio).")] = None,
    band: Annotated[str | None, typer.Option(help="Band (with --stdio; default easiest).")] = None,
    seed: Annotated[int, typer.Option(help="Variant seed (with --stdio).", min=0)] = 0,
    idle_ttl: Annotated[
        float, typer.Option(help="Seconds before an idle episode is sealed.")
    ] = 600.0,
    unlocked: Annotated[
        bool, typer.Option(help="Development mode: mark bundles unlocked.")
    ] = False,
) -> None:
    """Serve an environment over streamable HTTP (or one episode over stdio)."""
    environment = _environment(env)
    if stdio:
        if task is None:
            raise typer.BadParameter("--stdio needs --task", param_hint="'--task'")
        from mcpgym_server.stdio import serve_stdio

        with _reported():
            anyio.run(
                lambda: serve_stdio(
                    environment,
                    task=task,
                    band=band,
                    seed=seed,
                    store_dir=store,
                    unlocked=unlocked,
                )
            )
        return
    import uvicorn

    from mcpgym_server.http import create_app

    with _reported():
        web = create_app(environment, store, idle_ttl=idle_ttl, unlocked=unlocked)
    uvicorn.run(web, host=host, port=port, log_level="info")


@grading_app.command("serve")
def grading_serve(
    store: Annotated[
        Path, typer.Option(help="Episode store directory (shared with the env server).")
    ] = DEFAULT_EPISODES,
    token: Annotated[
        str | None,
        typer.Option(envvar="MCPGYM_GRADING_TOKEN", help="Bearer token (default: a random one)."),
    ] = None,
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8100,
) -> None:
    """Serve the grading service over HTTP."""
    import uvicorn

    from mcpgym_grading.service import create_app

    if not token:
        token = secrets.token_urlsafe(24)
        Console(stderr=True).print(f"grading token (no --token given): {token}", highlight=False)
    uvicorn.run(create_app(store, token), host=host, port=port, log_level="info")


# -- tasks ------------------------------------------------------------------------------


@app.command()
def tasks(env: Annotated[str, typer.Argument(help="Environment name.")]) -> None:
    """List an environment's task families and bands, with one sample instruction each."""
    from mcpgym_server import compute_lock

    environment = _environment(env)
    console = Console()
    with _reported():
        lock = compute_lock(environment)
    table = Table(
        title=f"{environment.name} {environment.version} (lock {lock[:12]})", show_lines=True
    )
    table.add_column("task family", style="bold")
    table.add_column("bands")
    table.add_column("description")
    table.add_column("sample instruction (easiest band, seed 0)")
    with _reported():
        for fam in environment.families.values():
            sample = environment.variant(fam.name, fam.bands[0], 0).instruction
            table.add_row(fam.name, ", ".join(fam.bands), fam.description, sample)
    console.print(table)


# -- eval -------------------------------------------------------------------------------


@dataclass
class _EvalOptions:
    env: str
    agent: Agent
    tasks: list[str] | None
    bands: list[str] | None
    seeds: list[int]
    epochs: int
    concurrency: int
    env_url: str | None
    grading_url: str | None
    grading_token: str | None
    store: Path
    episodes: Path
    baseline: bool
    timeout: float | None
    argv: list[str]


def _build_agent(
    name: str,
    *,
    model: str | None,
    base_url: str,
    api_key: str | None,
    api_key_env: str,
    parse_text_tool_calls: bool,
    max_turns: int,
    temperature: float | None,
    model_seed: int | None,
    max_tokens: int | None,
) -> Agent:
    if name in ("reference", "null") and model:
        raise typer.BadParameter(
            f"--model is for model agents; the {name} agent takes no model "
            "(drop --agent to run the model with the openai agent)",
            param_hint="'--model'",
        )
    if name == "reference":
        return ReferenceAgent()
    if name == "null":
        return NullAgent()
    if name != "openai":
        raise typer.BadParameter(
            f"unknown agent {name!r}; valid agents: {', '.join(AGENT_NAMES)}",
            param_hint="'--agent'",
        )
    if not model:
        raise typer.BadParameter("--agent openai needs --model", param_hint="'--model'")
    key = api_key or os.environ.get(api_key_env)
    if not key and base_url.rstrip("/") == DEFAULT_BASE_URL:
        raise typer.BadParameter(
            f"no API key: set {api_key_env} or pass --api-key "
            "(local servers given with --base-url need none)",
            param_hint="'--api-key'",
        )
    client = ChatCompletionsClient(base_url=base_url, api_key=key)
    return OpenAIAgent(
        client=client,
        model=model,
        max_turns=max_turns,
        temperature=temperature,
        seed=model_seed,
        max_tokens=max_tokens,
        parse_text_tool_calls=parse_text_tool_calls,
    )


SERVER_LOGGERS = ("mcpgym", "mcp", "uvicorn", "uvicorn.error")


@contextlib.contextmanager
def _server_logs(path: Path) -> Iterator[None]:
    """Send the in-process servers' log records to ``path`` instead of the terminal."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    saved = []
    for name in SERVER_LOGGERS:
        log = logging.getLogger(name)
        saved.append((log, log.propagate))
        log.addHandler(handler)
        log.propagate = False
    try:
        yield
    finally:
        for log, propagate in saved:
            log.removeHandler(handler)
            log.propagate = propagate
        handler.close()


async def _campaign(opts: _EvalOptions, console: Console) -> tuple[CampaignResult, str | None]:
    """Start local servers if needed, run the campaign; return it and the bundle directory."""
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        stack.push_async_callback(opts.agent.aclose)
        local_env = None
        bundles: str | None = None
        env_url, grading_url, token = opts.env_url, opts.grading_url, opts.grading_token
        if env_url is None:
            local_env = load_environment(opts.env)
            stack.enter_context(_server_logs(opts.episodes.parent / "servers.log"))
            servers = await stack.enter_async_context(serve_locally(local_env, opts.episodes))
            env_url, grading_url, token = (
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
            )
            bundles = str(servers.store_dir)
            console.print(
                f"serving [bold]{opts.env}[/] at {env_url}, grading at {grading_url}",
                highlight=False,
            )
        assert grading_url is not None and token is not None
        driver = await stack.enter_async_context(
            EpisodeDriver(
                env_url, grading_url, token, episode_timeout=opts.timeout, environment=local_env
            )
        )
        info = await driver.server_info()
        if info.env != opts.env:
            raise ConfigurationError(
                f"the server at {env_url} serves `{info.env}`, not `{opts.env}`"
            )
        await driver.check_grading()
        variants = select_variants(info, opts.tasks, opts.bands, opts.seeds)
        store = RunStore(opts.store)
        stack.callback(store.close)
        result = await run_campaign(
            driver,
            opts.agent,
            variants,
            store,
            epochs=opts.epochs,
            concurrency=opts.concurrency,
            baseline=opts.baseline,
            argv=opts.argv,
            console=console,
        )
        return result, bundles


def _run_eval(opts: _EvalOptions) -> None:
    console = Console()
    err = Console(stderr=True)
    with _reported():
        result, bundles = anyio.run(_campaign, opts, err, backend="asyncio")
    console.print(
        render_summary(
            result.summary,
            agent=opts.agent.name,
            title=f"{opts.env}: {opts.agent.name}"
            + (f" ({opts.agent.model})" if opts.agent.model else ""),
        )
    )
    where = f"run {result.run_id}"
    if result.baseline_run_id:
        where += f" (baseline run {result.baseline_run_id})"
    everything = result.records + (result.baseline or [])
    reasons = unscored_reasons(everything)
    if reasons:
        detail = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        console.print(f"[yellow]not scored:[/] {detail}", highlight=False)
        messages = dict.fromkeys(
            r.error or (r.grade or {}).get("error") or "" for r in everything if not r.scored
        )
        for message in [m for m in messages if m][:3]:
            console.print(f"  {message}", highlight=False, markup=False)
    console.print(f"results: {where} in {opts.store}", highlight=False)
    if bundles:
        console.print(f"episode bundles: {bundles}", highlight=False)
        console.print(f"server log: {Path(bundles).parent / 'servers.log'}", highlight=False)


@app.command("eval")
def eval_(
    env: Annotated[str, typer.Argument(help="Environment name, e.g. `helpdesk`.")],
    agent: Annotated[
        str | None,
        typer.Option(
            help="reference | null | openai (default: openai with --model, else reference)"
        ),
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name; implies --agent openai.")] = None,
    base_url: Annotated[
        str, typer.Option(envvar="OPENAI_BASE_URL", help="OpenAI-compatible API root.")
    ] = DEFAULT_BASE_URL,
    api_key: Annotated[
        str | None, typer.Option(help="API key (default: from --api-key-env).")
    ] = None,
    api_key_env: Annotated[
        str, typer.Option(help="Env var holding the API key.")
    ] = "OPENAI_API_KEY",
    parse_text_tool_calls: Annotated[
        bool, typer.Option(help="Also execute tool calls written as text (local models).")
    ] = False,
    max_turns: Annotated[int, typer.Option(help="Model requests per episode.", min=1)] = 30,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    model_seed: Annotated[int | None, typer.Option(help="Sampling seed sent to the model.")] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Max tokens per model response.")] = None,
    tasks: Annotated[str, typer.Option(help="Task families: a,b or all.")] = "all",
    bands: Annotated[str, typer.Option(help="Bands: easy,medium or all.")] = "all",
    seeds: Annotated[str, typer.Option(help="Seeds: 0-4 or 0,1,2.")] = "0",
    epochs: Annotated[int, typer.Option(help="Attempts per variant.", min=1)] = 1,
    concurrency: Annotated[int, typer.Option(help="Episodes in flight.", min=1)] = 4,
    env_url: Annotated[
        str | None, typer.Option(envvar="MCPGYM_ENV_URL", help="Environment server URL.")
    ] = None,
    grading_url: Annotated[
        str | None, typer.Option(envvar="MCPGYM_GRADING_URL", help="Grading service URL.")
    ] = None,
    grading_token: Annotated[
        str | None, typer.Option(envvar="MCPGYM_GRADING_TOKEN", help="Grading bearer token.")
    ] = None,
    store: Annotated[Path, typer.Option(help="Run store (SQLite).")] = DEFAULT_STORE,
    episodes: Annotated[
        Path | None,
        typer.Option(help="Episode store for local servers (default: next to --store)."),
    ] = None,
    no_baseline: Annotated[
        bool, typer.Option("--no-baseline", help="Do not run the null agent beside.")
    ] = False,
    timeout: Annotated[
        float | None, typer.Option(help="Seconds per episode before it is cut off.")
    ] = 600.0,
) -> None:
    """Run an agent on task variants and grade every episode.

    Without --env-url, both servers are started in process on loopback.
    """
    task_list = _parsed(parse_names, tasks, "--tasks")
    band_list = _parsed(parse_bands, bands, "--bands")
    seed_list = _parsed(parse_seeds, seeds, "--seeds")
    if env_url is not None and (grading_url is None or not grading_token):
        raise typer.BadParameter(
            "with --env-url, also give --grading-url and --grading-token",
            param_hint="'--grading-url'",
        )
    if env_url is None and grading_url is not None:
        raise typer.BadParameter(
            "--grading-url needs --env-url (without both, servers start locally)",
            param_hint="'--env-url'",
        )
    if env_url is None and env not in available_environments():
        raise _fail(
            f"unknown environment {env!r}; installed: {', '.join(available_environments())}"
        )
    the_agent = _build_agent(
        agent or ("openai" if model else "reference"),
        model=model,
        base_url=base_url,
        api_key=api_key,
        api_key_env=api_key_env,
        parse_text_tool_calls=parse_text_tool_calls,
        max_turns=max_turns,
        temperature=temperature,
        model_seed=model_seed,
        max_tokens=max_tokens,
    )
    _run_eval(
        _EvalOptions(
            env=env,
            agent=the_agent,
            tasks=task_list,
            bands=band_list,
            seeds=seed_list,
            epochs=epochs,
            concurrency=concurrency,
            env_url=env_url,
            grading_url=grading_url,
            grading_token=grading_token,
            store=store,
            episodes=episodes or store.parent / "episodes",
            baseline=not no_baseline,
            timeout=timeout,
            argv=sys.argv[:],
        )
    )


@app.command()
def demo(
    env: Annotated[str, typer.Option(help="Environment to demonstrate.")] = "helpdesk",
    store: Annotated[Path, typer.Option(help="Run store (SQLite).")] = DEFAULT_STORE,
    seeds: Annotated[int, typer.Option(help="Seeds per family and band.", min=1)] = 3,
    concurrency: Annotated[int, typer.Option(help="Episodes in flight.", min=1)] = 2,
) -> None:
    """Run `reference` and `null` over real loopback HTTP on every family and band."""
    if env not in available_environments():
        raise _fail(
            f"unknown environment {env!r}; installed: {', '.join(available_environments())}"
        )
    _run_eval(
        _EvalOptions(
            env=env,
            agent=ReferenceAgent(),
            tasks=None,
            bands=None,
            seeds=list(range(seeds)),
            epochs=1,
            concurrency=concurrency,
            env_url=None,
            grading_url=None,
            grading_token=None,
            store=store,
            episodes=store.parent / "episodes",
            baseline=True,
            timeout=120.0,
            argv=sys.argv[:],
        )
    )


def main() -> None:
    """Entry point of the ``mcpgym`` console script."""
    app()
