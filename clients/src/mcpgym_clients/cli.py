"""The ``mcpgym`` command line.

Commands::

    mcpgym serve ENV [--host H] [--port P] [--store DIR] [--idle-ttl S] [--unlocked]
    mcpgym serve ENV --stdio --task T [--band B] [--seed N] [--store DIR]
    mcpgym grading serve [--store DIR] [--token T] [--host H] [--port P]
    mcpgym tasks ENV
    mcpgym eval ENV --agent reference|null|openai [--model [VENDOR:]MODEL] [--base-url URL] ...
    mcpgym demo

Exit status: 0 on success; 1 for an error the user can fix (shown as one
``error: ...`` line: unknown task or band, bad ``--store``, unreachable model
endpoint or rejected key) and when no episode of the agent's run was scored; 2 for
malformed arguments; 128 + the signal number (130 for Ctrl-C) when ``eval`` or
``demo`` is interrupted, after the servers stop: the episodes finished so far stay
in the run store, whose runs are left unfinished (``finished_at`` empty).

This module is the only place that reads environment variables
(the vendor's key variable, ``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``
/ ``GOOGLE_API_KEY``, or the one named by ``--api-key-env``; ``OPENAI_BASE_URL``,
``ANTHROPIC_BASE_URL``,
``MCPGYM_ENV_URL``, ``MCPGYM_GRADING_URL``, ``MCPGYM_GRADING_TOKEN``); the
library classes take explicit arguments.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import signal
import sqlite3
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer
from anyio.abc import TaskStatus
from rich.console import Console
from rich.table import Table

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import DEFAULT_BASE_URL, ChatCompletionsClient
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agent_spec import is_agent_spec, load_agent
from mcpgym_clients.agents import AGENT_NAMES, NullAgent, OpenAIAgent, ReferenceAgent
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import (
    VENDORS,
    build_adapter,
    build_model_agent,
    parse_model_spec,
)
from mcpgym_clients.campaign import (
    EXIT_INCOMPLETE,
    CampaignResult,
    CampaignStatus,
    run_campaign,
    select_variants,
)
from mcpgym_clients.commands import export, instrument, measure, new, report
from mcpgym_clients.commands._common import fail, message, parsed, reported, say
from mcpgym_clients.commands._help import HelpGroup
from mcpgym_clients.driver import EpisodeDriver, ServerInfo, TaskInfo
from mcpgym_clients.errors import ConfigurationError, ModelAPIError, redact_urls
from mcpgym_clients.local import serve_locally
from mcpgym_clients.measure.render import print_table
from mcpgym_clients.protocol import Agent
from mcpgym_clients.runstore import DEFAULT_STORE, RunStore
from mcpgym_clients.selection import parse_names, parse_seeds
from mcpgym_clients.summary import render_summary, unscored_reasons
from mcpgym_server import (
    UnknownEnvironmentError,
    available_environments,
    did_you_mean,
    load_environment,
    verify_lock,
)
from mcpgym_server.logcap import LOG_BUDGET, LOG_VALUE_CAP

app = typer.Typer(
    name="mcpgym",
    help="Serve environments to agents over MCP, run agents on them and grade the results.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    cls=HelpGroup,
)
grading_app = typer.Typer(help="The grading service.", no_args_is_help=True)
app.add_typer(grading_app, name="grading")

DEFAULT_EPISODES = Path("runs") / "episodes"


def _environment(name: str) -> Any:
    with reported():
        return load_environment(name)


# -- serve ------------------------------------------------------------------------------


BUNDLE_KEY = (
    "Secret shared by the environment server (signs sealed bundles) and the grading service "
    "(grades only bundles whose signature verifies)."
)

SEED_SALT = (
    "Secret mapping each requested seed to the generator seed served, so that an agent with "
    "the public package cannot regenerate its variant from the published seeds."
)

CONTROL_TOKEN = (
    "Bearer token of the environment server's control routes (create, status, end, "
    "connect-to-start); prefer the variable to keep it off the command line. "
    "Default: a random one, printed."
)


LOG_VALUE_CAP_HELP = (
    "Bytes of JSON kept in the tool-call log of each call's arguments and result; larger "
    "ones keep their head, length and sha256."
)
LOG_BUDGET_HELP = (
    "Bytes one episode's tool-call log may hold; the call past it seals the episode "
    "(termination log_budget)."
)


@app.command()
def serve(
    env: Annotated[str, typer.Argument(help="Environment name, e.g. `helpdesk`.")],
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8000,
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
) -> None:
    """Serve an environment over streamable HTTP (or one episode over stdio)."""
    if control_token and no_control_token:
        raise typer.BadParameter(
            "give either a control token (MCPGYM_CONTROL_TOKEN / --control-token) or "
            "--no-control-token, not both",
            param_hint="'--no-control-token'",
        )
    if log_budget < log_value_cap:
        raise typer.BadParameter(
            f"the log budget ({log_budget} bytes) is below --log-value-cap ({log_value_cap})",
            param_hint="'--log-budget'",
        )
    environment = _environment(env)
    instrument.require_lock(environment, unlocked)  # refuses code that no longer matches
    if stdio:
        if task is None:
            raise typer.BadParameter("--stdio needs --task", param_hint="'--task'")
        from mcpgym_server.stdio import serve_stdio

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
    from mcpgym_server.http import create_app
    from mcpgym_server.serving import run_until_stopped

    if not control_token and not no_control_token:
        control_token = secrets.token_urlsafe(32)
        Console(stderr=True).print(
            f"control token (no MCPGYM_CONTROL_TOKEN given): {control_token}",
            highlight=False,
            soft_wrap=True,  # one line, whole, to copy
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
        )
    run_until_stopped(web, host=host, port=port, on_stop=web.state.seal_all)


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
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8100,
    bundle_key: Annotated[
        str | None, typer.Option(envvar="MCPGYM_BUNDLE_KEY", help=BUNDLE_KEY)
    ] = None,
) -> None:
    """Serve the grading service over HTTP."""
    import uvicorn

    from mcpgym_grading.service import create_app

    if not token:
        token = secrets.token_urlsafe(24)
        Console(stderr=True).print(f"grading token (no --token given): {token}", highlight=False)
    with reported():
        app_ = create_app(store, token, bundle_key=bundle_key)
    uvicorn.run(app_, host=host, port=port, log_level="info")


# -- tasks ------------------------------------------------------------------------------


@app.command()
def tasks(env: Annotated[str, typer.Argument(help="Environment name.")]) -> None:
    """List an environment's task families and bands, with a sample instruction (one per
    family, or one for all when they read alike)."""
    from mcpgym_server import compute_lock

    environment = _environment(env)
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
    key_hint: str = "--api-key"
    new_run: bool = False
    infra_retries: int = 2
    control_token: str | None = None
    seed_salt: str | None = None


def _build_agent(
    name: str,
    *,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    api_key_env: str | None,
    parse_text_tool_calls: bool | None,
    max_turns: int,
    temperature: float | None,
    model_seed: int | None,
    max_output_tokens: int | None,
    token_budget: int | None = None,
    time_limit: float | None = None,
    request_timeout: float = 120.0,
    max_turns_given: bool = False,
) -> Agent:
    """The agent for ``--agent``/``--model`` (see `mcpgym_clients.agents.vendors`)."""
    if is_agent_spec(name):  # a lab's own harness: package.module:attr or file.py:attr
        if model:
            raise typer.BadParameter(
                "--model is for the built-in model agents; a harness given to --agent "
                "chooses its own model (set Agent.model or FunctionAgent(model=...))",
                param_hint="'--model'",
            )
        for flag, given in (("--max-turns", max_turns_given), ("--max-tokens", token_budget)):
            if given:
                raise typer.BadParameter(
                    f"{flag} is for the built-in model agents; mcpgym cannot enforce it on a "
                    "harness given to --agent (limit turns or tokens in your loop; "
                    "--time-limit and --timeout do apply)",
                    param_hint=f"'{flag}'",
                )
        return parsed(load_agent, name, "--agent")
    if name in ("reference", "null", "random") and model:
        raise typer.BadParameter(
            f"--model is for model agents; the {name} agent takes no model "
            "(drop --agent to run the model with the openai agent)",
            param_hint="'--model'",
        )
    if name == "reference":
        return ReferenceAgent()
    if name == "null":
        return NullAgent()
    if name == "random":
        from mcpgym_clients.agents import RandomAgent

        return RandomAgent()
    if name != "openai":
        raise typer.BadParameter(
            f"unknown agent {name!r}{did_you_mean(name, AGENT_NAMES)}; "
            f"valid agents: {', '.join(AGENT_NAMES)}",
            param_hint="'--agent'",
        )
    if not model:
        raise typer.BadParameter("--agent openai needs --model", param_hint="'--model'")
    vendor, model_id = parsed(parse_model_spec, model, "--model")
    spec = vendor or VENDORS["openai-compatible"]
    key_vars = _key_vars(model, api_key_env)
    key = api_key or next((os.environ[v] for v in key_vars if os.environ.get(v)), None)
    env_base = os.environ.get(spec.base_url_var) if spec.base_url_var else None
    url = base_url or env_base
    if not key and (url is None or url.rstrip("/") == spec.default_base_url):
        raise typer.BadParameter(
            f"no API key{f' for {vendor.name}' if vendor else ''}: set "
            f"{' or '.join(key_vars)} or pass --api-key "
            "(local servers given with --base-url need none)",
            param_hint="'--api-key'",
        )
    settings = ModelSettings(model_id, temperature, model_seed, max_output_tokens)
    retry = RetryPolicy(request_timeout=request_timeout)
    loop: dict[str, Any] = {
        "max_turns": max_turns,
        "token_budget": token_budget,
        "time_limit": time_limit,
    }
    if vendor is None or vendor.name == "openai-compatible":
        client = ChatCompletionsClient(
            base_url=url or DEFAULT_BASE_URL, api_key=key, timeout=request_timeout
        )
        agent: Agent = OpenAIAgent(
            client=client,
            model=model_id,
            temperature=temperature,
            seed=model_seed,
            max_tokens=max_output_tokens,
            # the openai-compatible vendor reads text tool calls unless told not to
            parse_text_tool_calls=(
                parse_text_tool_calls if parse_text_tool_calls is not None else vendor is not None
            ),
            **loop,
        )
        if vendor is not None:
            agent.name = vendor.name  # type: ignore[misc]
        return agent
    with reported():
        adapter = build_adapter(
            vendor, settings, api_key=key, base_url=url, retry=retry, timeout=request_timeout
        )
    return build_model_agent(adapter, parse_text_tool_calls=bool(parse_text_tool_calls), **loop)


def _hard_cap(timeout: float | None, time_limit: float | None, agent: Agent) -> float:
    """The driver's hard cap per episode (``--timeout``): never unlimited.

    Default 600 s. With ``--time-limit``: a model agent gets the limit plus 600 s (its own
    limit excludes retry waits, the cap does not); any other agent (a harness, which
    cannot exclude them) gets the limit itself as its cap.
    """
    if timeout is not None:
        return timeout
    if time_limit is None:
        return 600.0
    return time_limit + 600.0 if isinstance(agent, ModelAgent) else time_limit


def _key_vars(model: str | None, api_key_env: str | None) -> tuple[str, ...]:
    """The environment variables the key of ``--model`` is read from."""
    if api_key_env:
        return (api_key_env,)
    vendor = None
    with contextlib.suppress(ConfigurationError):
        vendor = parse_model_spec(model or "")[0]
    return (vendor or VENDORS["openai-compatible"]).key_vars


SECRET_FLAGS = ("--api-key", "--grading-token", "--bundle-key", "--control-token", "--seed-salt")
"""Flags whose values never reach the run store's ``argv``."""


def _redacted(argv: list[str]) -> list[str]:
    """``argv`` with the values of `SECRET_FLAGS` replaced by ``***``, and the user info
    and query of URLs (``--base-url https://u:KEY@host/v1?key=KEY``) too."""
    out: list[str] = []
    hide = False
    for arg in argv:
        if hide:
            out.append("***")
            hide = False
        elif arg in SECRET_FLAGS:
            out.append(arg)
            hide = True
        elif arg.split("=", 1)[0] in SECRET_FLAGS and "=" in arg:
            out.append(arg.split("=", 1)[0] + "=***")
        else:
            out.append(redact_urls(arg))
    return out


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


def _served_info(env: Any) -> ServerInfo:
    """What the environment server will say about ``env`` (for checks before it starts)."""
    return ServerInfo(
        env=env.name,
        version=env.version,
        lock="",
        tasks=tuple(TaskInfo(f.name, f.description, tuple(f.bands)) for f in env.families.values()),
    )


def _open_store(path: Path) -> RunStore:
    """Open (create) the run store, or fail with a message naming ``--store``."""
    if path.is_dir():
        raise ConfigurationError(
            f"--store {path} is a directory; give the database file, "
            f"e.g. --store {path / DEFAULT_STORE.name}"
        )
    try:
        return RunStore(path)
    except (OSError, sqlite3.Error) as exc:
        raise ConfigurationError(
            f"--store {path}: cannot open the run store: {message(exc)}"
        ) from None


async def _preflight(agent: Agent, key_hint: str) -> None:
    """One request to the model endpoint before any episode, so a wrong URL, path or key
    fails fast (see each adapter's ``check``). Other failures are left to the episodes."""
    if not isinstance(agent, ModelAgent):
        return
    try:
        await agent.adapter.check()
    except ModelAPIError as exc:
        if exc.status is None:
            hosted = any(
                agent.adapter.base_url.rstrip("/") == v.default_base_url for v in VENDORS.values()
            )
            hint = (
                "check the network connection (and HTTPS_PROXY if you use a proxy)"
                if hosted
                else "is the model server running, and is --base-url right?"
            )
            raise ConfigurationError(f"{exc}; {hint}") from None
        if exc.status == 404:
            raise ConfigurationError(str(exc)) from None
        if exc.status in (401, 403):
            raise ConfigurationError(f"{exc}; check {key_hint}") from None


REPEAT_WINDOW = 1.0
"""Seconds after a stop signal during which another is taken as the same request."""


class _Stopper:
    """Cancels the cancellable phases of a campaign when the user asks it to stop.

    Starting and stopping the local servers is never cancelled: the servers then shut
    down in order (a cancelled uvicorn leaves its lifespan task to die noisily).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.signum: int | None = None
        self._scopes: list[anyio.CancelScope] = []
        self._clock = clock
        self._first: float | None = None

    @property
    def requested(self) -> bool:
        return self.signum is not None

    def stop(self, signum: int) -> None:
        self.signum = signum
        self._first = self._clock()
        for scope in self._scopes:
            scope.cancel()

    def again(self, signum: int) -> bool:
        """A stop signal after the first: whether to exit at once without cleaning up.

        ``False`` within `REPEAT_WINDOW` seconds of the first signal: one Ctrl-C or
        cancel can arrive twice (``uv run`` without a terminal forwards SIGINT on top
        of the one the process group got), which is not the user asking twice.
        """
        return self._first is None or self._clock() - self._first >= REPEAT_WINDOW

    @contextlib.contextmanager
    def cancellable(self) -> Iterator[None]:
        with anyio.CancelScope() as scope:
            if self.requested:
                scope.cancel()
            self._scopes.append(scope)
            try:
                yield
            finally:
                self._scopes.remove(scope)


async def _campaign(
    opts: _EvalOptions, console: Console, status: CampaignStatus, stopper: _Stopper
) -> tuple[CampaignResult, str | None] | None:
    """Start local servers if needed, run the campaign; return it and the bundle directory.

    Everything the user can get wrong (selection, run store, model endpoint) is checked
    before the servers start. Returns ``None`` when ``stopper`` stopped it.
    """
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        stack.push_async_callback(opts.agent.aclose)
        local_env = None
        bundles: str | None = None
        env_url, grading_url, token = opts.env_url, opts.grading_url, opts.grading_token
        control = opts.control_token
        if env_url is None:
            local_env = load_environment(opts.env)
            verify_lock(local_env)  # eval/demo serve only locked environments
            select_variants(_served_info(local_env), opts.tasks, opts.bands, opts.seeds)
        store = _open_store(opts.store)
        stack.callback(store.close)
        with stopper.cancellable():
            await _preflight(opts.agent, opts.key_hint)
        if stopper.requested:
            return None
        if local_env is not None:
            try:
                opts.episodes.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ConfigurationError(
                    f"--episodes {opts.episodes}: cannot create the episode store: {message(exc)}"
                ) from None
            stack.enter_context(_server_logs(opts.episodes.parent / "servers.log"))
            servers = await stack.enter_async_context(
                serve_locally(local_env, opts.episodes, seed_salt=opts.seed_salt)
            )
            env_url, grading_url, token, control = (
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                servers.control_token,
            )
            bundles = str(servers.store_dir)
            say(console, f"serving {opts.env} at {env_url}, grading at {grading_url}")
        assert env_url is not None and grading_url is not None and token is not None
        driver = await stack.enter_async_context(
            EpisodeDriver(
                env_url,
                grading_url,
                token,
                control_token=control,
                episode_timeout=opts.timeout,
                environment=local_env,
            )
        )
        result: CampaignResult | None = None
        with stopper.cancellable():
            info = await driver.server_info()
            if info.env != opts.env:
                raise ConfigurationError(
                    f"the server at {env_url} serves `{info.env}`, not `{opts.env}`"
                )
            await driver.check_control()
            await driver.check_grading()
            variants = select_variants(info, opts.tasks, opts.bands, opts.seeds)
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
                status=status,
                resume=not opts.new_run,
                infra_retries=opts.infra_retries,
                environment=local_env,
            )
        return None if result is None else (result, bundles)


STOP_SIGNALS: tuple[signal.Signals, ...] = (
    () if sys.platform == "win32" else (signal.SIGINT, signal.SIGTERM)
)
"""Signals that stop a campaign cleanly (on Windows, Ctrl-C arrives as KeyboardInterrupt)."""


async def _watch_signals(
    stopper: _Stopper, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
) -> None:
    """Stop the campaign on the first stop signal; exit at once on a second one that comes
    `REPEAT_WINDOW` seconds or more after it (one sooner is the same request, delivered twice)."""
    with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
        task_status.started()
        async for signum in signals:
            if stopper.requested:
                if not stopper.again(signum):
                    continue
                # the user does not want to wait for the clean-up
                sys.stderr.write("interrupted again: exiting without cleaning up\n")
                sys.stderr.flush()
                os._exit(128 + signum)
            stopper.stop(signum)


async def _eval_main(
    opts: _EvalOptions, console: Console, status: CampaignStatus, stopper: _Stopper
) -> tuple[CampaignResult, str | None] | None:
    """Run `_campaign` until it ends or a stop signal stops it (then return ``None``)."""
    result: tuple[CampaignResult, str | None] | None = None
    async with anyio.create_task_group() as tg:
        if STOP_SIGNALS:
            await tg.start(_watch_signals, stopper)
        try:
            result = await _campaign(opts, console, status, stopper)
        except Exception:
            if not stopper.requested:
                raise
            # raised while stopping after a signal: the interruption is what to report
            logging.getLogger("mcpgym").debug("error while stopping", exc_info=True)
        finally:
            tg.cancel_scope.cancel()
    return result  # a campaign that finished before the signal took effect is shown


def _interrupted(opts: _EvalOptions, status: CampaignStatus, signum: int) -> typer.Exit:
    err = Console(stderr=True)
    if status.run_id is None:
        say(err, "interrupted before any episode ran")
    else:
        runs = f"run {status.run_id}"
        if status.baseline_run_id:
            runs += f", baseline run {status.baseline_run_id}"
        say(
            err,
            f"interrupted: {status.stored} of {status.total} episodes completed "
            f"are in {opts.store} ({runs}; left unfinished)",
        )
    return typer.Exit(128 + signum)


def _run_eval(opts: _EvalOptions) -> None:
    console = Console()
    err = Console(stderr=True)
    status = CampaignStatus()
    stopper = _Stopper()
    try:
        with reported():
            outcome = anyio.run(_eval_main, opts, err, status, stopper, backend="asyncio")
    except KeyboardInterrupt:  # Ctrl-C outside the signal watcher (start-up, Windows)
        raise _interrupted(opts, status, signal.SIGINT) from None
    if outcome is None:
        raise _interrupted(opts, status, stopper.signum or signal.SIGINT)
    result, bundles = outcome
    print_table(
        console,
        render_summary(
            result.summary,
            agent=opts.agent.name,
            title=f"{opts.env}: {opts.agent.name}"
            + (f" ({opts.agent.model})" if opts.agent.model else ""),
        ),
    )
    where = f"run {result.run_id}"
    if result.baseline_run_id:
        where += f" (baseline run {result.baseline_run_id})"
    everything = result.records + (result.baseline or [])
    reasons = unscored_reasons(everything)
    if reasons:
        detail = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        console.print(f"[yellow]not scored:[/] {detail}", highlight=False, soft_wrap=True)
        messages = dict.fromkeys(
            r.error or (r.grade or {}).get("error") or "" for r in everything if not r.scored
        )
        for line in [m for m in messages if m][:3]:
            say(console, f"  {line}")
    say(console, f"results: {where} in {opts.store}")
    if bundles:
        say(console, f"episode bundles: {bundles}")
        say(console, f"server log: {Path(bundles).parent / 'servers.log'}")
    if result.records and not any(r.scored for r in result.records):
        why = ", ".join(f"{k} {v}" for k, v in sorted(unscored_reasons(result.records).items()))
        raise fail(
            f"no episode of the {opts.agent.name} run was scored ({why}); "
            "the messages above say why"
        )
    incomplete = result.incomplete()
    if incomplete is not None:
        say(err, incomplete)
        raise typer.Exit(EXIT_INCOMPLETE)


@app.command("eval")
def eval_(
    env: Annotated[str, typer.Argument(help="Environment name, e.g. `helpdesk`.")],
    agent: Annotated[
        str | None,
        typer.Option(
            help="reference, null, openai, or a harness module:attr / file.py:attr "
            "(default: openai with --model)"
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            help="VENDOR:MODEL (openai, openai-responses, anthropic, gemini, "
            "openai-compatible) or a bare name."
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(help="API root (default: the vendor's)."),
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(help="API key (default: from the vendor's variable).")
    ] = None,
    api_key_env: Annotated[
        str | None,
        typer.Option(help="Variable holding the API key (default: by vendor)."),
    ] = None,
    parse_text_tool_calls: Annotated[
        bool | None,
        typer.Option(
            "--parse-text-tool-calls",
            help="Run tool calls written as text (default: on for openai-compatible; "
            "--no-parse-text-tool-calls: off).",
            show_default=False,
        ),
    ] = None,
    no_parse_text_tool_calls: Annotated[
        bool,
        typer.Option("--no-parse-text-tool-calls", hidden=True),
    ] = False,
    max_turns: Annotated[
        int | None,
        typer.Option(help="Model requests per episode (default 30).", min=1, metavar="N"),
    ] = None,
    max_tokens: Annotated[
        int | None, typer.Option(help="Total tokens per episode (a hard cap).", min=1, metavar="N")
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            help="Wall seconds per episode, failed requests and retry waits not "
            "counted (harnesses: the hard cap).",
            min=1.0,
            metavar="SECONDS",
        ),
    ] = None,
    request_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds per model request attempt (then retried; infra_error).",
            min=1.0,
            metavar="SECONDS",
        ),
    ] = 120.0,
    max_output_tokens: Annotated[
        int | None, typer.Option(help="Max tokens per model response.", min=1)
    ] = None,
    temperature: Annotated[
        float | None, typer.Option(help="Sampling temperature.", min=0.0, max=2.0)
    ] = None,
    model_seed: Annotated[
        int | None,
        typer.Option(help="Sampling seed (not sent to openai-responses, anthropic)."),
    ] = None,
    tasks: Annotated[
        str, typer.Option("--tasks", "--task", help="Task families: a,b or all.")
    ] = "all",
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
    control_token: Annotated[
        str | None,
        typer.Option(
            envvar="MCPGYM_CONTROL_TOKEN",
            help="Control token of the --env-url server (local servers get a random one).",
        ),
    ] = None,
    seed_salt: Annotated[
        str | None,
        typer.Option(envvar="MCPGYM_SEED_SALT", help=SEED_SALT + " For local servers (see serve)."),
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
        float | None,
        typer.Option(
            help="Hard cap, seconds per episode (default 600; with --time-limit: "
            "limit + 600, or the limit for harnesses).",
            min=1.0,
            metavar="SECONDS",
            max=86400.0,
            show_default=False,
        ),
    ] = None,
    new_run: Annotated[
        bool,
        typer.Option(
            "--new-run", help="Start a new run instead of resuming an unfinished identical one."
        ),
    ] = False,
    infra_retries: Annotated[
        int, typer.Option(help="Fresh episodes to try after an infra_error.", min=0, max=10)
    ] = 2,
) -> None:
    """Run an agent on task variants and grade every episode.

    Without --env-url, both servers are started in process on loopback. Running the
    same command again resumes its unfinished run, skipping the stored episodes.
    """
    task_list = parsed(parse_names, tasks, "--tasks")
    # Band names are checked against what the environment offers, once it is known.
    band_list = parsed(parse_names, bands, "--bands")
    seed_list = parsed(parse_seeds, seeds, "--seeds")
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
        raise fail(str(UnknownEnvironmentError(env, available_environments())), 2)
    the_agent = _build_agent(
        agent or ("openai" if model else "reference"),
        model=model,
        base_url=base_url,
        api_key=api_key,
        api_key_env=api_key_env,
        parse_text_tool_calls=False if no_parse_text_tool_calls else parse_text_tool_calls,
        max_turns=max_turns or 30,
        max_turns_given=max_turns is not None,
        request_timeout=request_timeout,
        temperature=temperature,
        model_seed=model_seed,
        max_output_tokens=max_output_tokens,
        token_budget=max_tokens,
        time_limit=time_limit,
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
            timeout=_hard_cap(timeout, time_limit, the_agent),
            argv=_redacted(sys.argv),
            key_hint="--api-key"
            if api_key
            else f"{' or '.join(_key_vars(model, api_key_env))} (or pass --api-key)",
            new_run=new_run,
            infra_retries=infra_retries,
            control_token=control_token if env_url is not None else None,
            seed_salt=seed_salt or None,
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
        raise fail(str(UnknownEnvironmentError(env, available_environments())), 2)
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
            argv=_redacted(sys.argv),
        )
    )


def main() -> None:
    """Entry point of the ``mcpgym`` console script."""
    app()


# lock, sign, record, validate; new; runs, show, compare, targets; report; export
for _commands in (instrument, new, measure, report, export):
    _commands.register(app)
