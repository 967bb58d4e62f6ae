"""``mcpgym eval ENV`` and ``mcpgym demo``: run an agent on task variants and grade them.

Both run `mcpgym_clients.evaluation.evaluate` (servers, checks, campaign, baseline) and
print its summary. Exit status: 0 on success; 1 for an error the user can fix and when no
episode of the agent's run was scored; `EXIT_INCOMPLETE` when episodes are missing or a
server stopped answering (`mcpgym_clients.breaker`);
128 + the signal number (130 for Ctrl-C, 129 for SIGHUP) when a stop signal
(`mcpgym_clients.stopping.stop_signals`: SIGINT, SIGTERM, SIGHUP and every other signal
whose default action would end the process) interrupted it, after the servers stop.

Whatever stops a running campaign (an error: the model API refusing the key or model, a
refused request, a server replaced mid-campaign; a breaker; a stop signal; a campaign not
confirmed), every planned slot it did not play is stored unscored naming the stop (above
`mcpgym_clients.stop_rows.SIGNAL_ROWS_MAX` such slots, only the episodes started, and the
last line says how many never started have no row), the run is left unfinished, the last
line says how many planned episodes of how many are unscored (or were not run), and the
same command (with ``--yes`` for a campaign not confirmed) resumes the run and plays them.
A run store moved away or removed under the campaign is the exception: nothing more is
written to it, and the error says where its rows are (`mcpgym_clients.RunStore`).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer
from rich.console import Console

from mcpgym_clients.backends import backend_problem
from mcpgym_clients.commands._common import fail, parsed, reported, say
from mcpgym_clients.commands._options import (
    DEFAULT_STORE,
    REQUEST_BURST_HELP,
    REQUESTS_PER_SECOND_HELP,
    SEED_SALT,
    MaxResponseBytes,
    ResponseTimeout,
    empty_salt_problem,
)
from mcpgym_clients.selection import parse_names, parse_seeds
from mcpgym_clients.stopping import signal_name
from mcpgym_server import UnknownEnvironmentError, available_environments
from mcpgym_server.runtime import DEFAULT_REQUEST_BURST, DEFAULT_REQUESTS_PER_SECOND

if TYPE_CHECKING:
    from mcpgym_clients.campaign import CampaignStatus
    from mcpgym_clients.evaluation import EvalOptions
    from mcpgym_clients.protocol import Agent

# The campaign, the run store, the agents and the vendor adapters are imported inside the
# commands: `mcpgym --help` and `mcpgym serve` must not pay for them (bench/startup.py).


def server_url_problem(url: str) -> str | None:
    """Why ``url`` (``--env-url``, ``--grading-url``) cannot be an mcpgym server's base URL,
    never echoing a secret, or ``None``: user info (``http://u:PASS@host``: the servers
    authenticate by token, and the HTTP client sent it as Basic auth in place of the token,
    then printed the URL, password and all, in its refusal: adversarial round 17), a query or
    a fragment (paths are appended to the URL)."""
    parts = urlsplit(url)
    try:
        where = f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    except ValueError:  # a port that is not a number: said by the first request
        where = f"{parts.scheme}://{parts.hostname}"
    if parts.username is not None or parts.password is not None:
        return (
            f"the URL of {where} carries user info (user:***@); mcpgym's servers "
            "authenticate by token (--control-token, --grading-token), not by URL: drop it"
        )
    if parts.query or parts.fragment:
        return (
            f"the URL of {where} carries a query or fragment (not shown); give the server's "
            "base URL, and its token with --control-token / --grading-token"
        )
    return None


def build_agent(name: str, **options: Any) -> Agent:
    """`mcpgym_clients.commands._agent.build_agent`, imported on first use (it imports the
    agents and the vendor adapters); a module attribute, so tests can replace it."""
    from mcpgym_clients.commands._agent import build_agent as build

    return build(name, **options)


def _interrupted(opts: EvalOptions, status: CampaignStatus, signum: int) -> typer.Exit:
    err = Console(stderr=True)
    plain = signum in (signal.SIGINT, signal.SIGTERM)  # Ctrl-C, a stop: as always said
    how = "interrupted" if plain else f"interrupted by {signal_name(signum)}"
    if status.run_id is None:
        say(err, f"{how} before any episode ran")
    else:
        runs = f"run {status.run_id}"
        if status.baseline_run_id:
            runs += f", baseline run {status.baseline_run_id}"
        say(
            err,
            f"{how}: {status.stored:,} of {status.total:,} episodes completed "
            f"are in {opts.store} ({runs}; left unfinished)"
            + (
                f"; the other {status.not_run:,} are stored unscored as not run"
                if status.not_run and not status.not_started
                else f"; {status.not_run:,} in flight are stored unscored as not run and "
                f"{status.not_started:,} never started have no row yet"
                if status.not_started
                else ""
            )
            + (
                ": run the same command again to resume the run and play them"
                if status.not_run or status.not_started
                else ""
            ),
        )
    return typer.Exit(128 + signum)


def run_eval(opts: EvalOptions) -> None:
    """Run `evaluate_until_stopped` on ``opts`` and print its summary (``eval``, ``demo``).

    Raises:
        typer.Exit: 1 when no episode of the agent's run was scored, `EXIT_INCOMPLETE`
            when episodes are missing or a server stopped answering (the campaign's
            breaker), 128 + the signal number when interrupted.
    """
    from mcpgym_clients.campaign import EXIT_INCOMPLETE, CampaignStatus
    from mcpgym_clients.evaluation import evaluate_until_stopped
    from mcpgym_clients.measure.render import print_table
    from mcpgym_clients.stopping import Stopper
    from mcpgym_clients.summary import flagged_line, render_summary, unscored_reasons
    from mcpgym_server.runtime import run

    console = Console()
    err = Console(stderr=True)
    status = CampaignStatus()
    stopper = Stopper()
    try:
        with reported():
            outcome = run(evaluate_until_stopped, opts, err, status, stopper)
    except KeyboardInterrupt:  # Ctrl-C outside the signal watcher (start-up, Windows)
        raise _interrupted(opts, status, signal.SIGINT) from None
    except typer.Exit:  # an error stopped the campaign: what it left, after the error line
        if status.incomplete is not None:
            say(err, status.incomplete)
        raise
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
    flagged = flagged_line(
        result.records, reads_text_calls=getattr(opts.agent, "parse_text_tool_calls", None)
    )
    if flagged:
        say(console, flagged)
    say(console, f"results: {where} in {opts.store}")
    if bundles:
        say(console, f"episode bundles: {bundles}")
        say(console, f"server log: {Path(bundles).parent / 'servers.log'}")
    if result.stopped is None and result.records and not any(r.scored for r in result.records):
        why = ", ".join(f"{k} {v}" for k, v in sorted(unscored_reasons(result.records).items()))
        raise fail(
            f"no episode of the {opts.agent.name} run was scored ({why}); "
            "the messages above say why"
        )
    incomplete = result.incomplete()
    if incomplete is not None:
        say(err, incomplete)
        raise typer.Exit(EXIT_INCOMPLETE)


def eval_(
    env: Annotated[str, typer.Argument(help="Environment name, e.g. `helpdesk`.")],
    agent: Annotated[
        str | None,
        typer.Option(
            help="reference, null, random, openai, or a harness module:attr / file.py:attr "
            "(default: openai with --model or --base-url, else reference)"
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
        typer.Option(
            help="API root (default: the vendor's). Alone: the local OpenAI-compatible "
            "server's one model (GET URL/models)."
        ),
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
        float | None,
        typer.Option(
            help="Seconds per model request attempt (then retried; infra_error) [default: 120].",
            min=1.0,
            metavar="SECONDS",
            show_default=False,
        ),
    ] = None,
    response_timeout: ResponseTimeout = None,
    max_response_bytes: MaxResponseBytes = None,
    max_output_tokens: Annotated[
        int | None, typer.Option(help="Max tokens per model response.", min=1)
    ] = None,
    tool_choice: Annotated[
        str | None,
        typer.Option(
            help="Chat Completions tool_choice: auto, required or none (openai-compatible, "
            "openai; default: not sent). llama-cpp-python's chatml-function-calling needs "
            "auto to show the tools.",
            metavar="auto|required|none",
            show_default=False,
        ),
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
    concurrency: Annotated[
        int | None,
        typer.Option(
            help="Episodes in flight (default: 4; 16 for the reference, null and random agents).",
            min=1,
            show_default=False,
        ),
    ] = None,
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
    max_requests_per_second: Annotated[
        float | None,
        typer.Option(
            help=REQUESTS_PER_SECOND_HELP + " For local servers (see serve). "
            f"[default: {DEFAULT_REQUESTS_PER_SECOND:g}]",
            min=0.001,
            metavar="N",
            show_default=False,
        ),
    ] = None,
    request_burst: Annotated[
        int | None,
        typer.Option(
            help=REQUEST_BURST_HELP + f" For local servers. [default: {DEFAULT_REQUEST_BURST}]",
            min=1,
            show_default=False,
        ),
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
    infra_retry_wait: Annotated[
        float,
        typer.Option(
            help="Seconds before the first infra retry, doubling for each next one (at most "
            "5x, with jitter); 0 retries at once.",
            min=0,
            max=60,
        ),
    ] = 3.0,
    backend: Annotated[
        str,
        typer.Option(help="local, or ray: servers as Ray actors (the `ray` extra)."),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to join with --backend ray (default: a local Ray)."),
    ] = None,
    ray_actors: Annotated[
        int | None,
        typer.Option(help="Environment actors with --backend ray [default: 2].", min=1),
    ] = None,
    yes: Annotated[
        bool,
        typer.Option(
            "--yes", "-y", help="Run a campaign estimated above 1 h or 2 GB without asking."
        ),
    ] = False,
) -> None:
    """Run an agent on task variants and grade every episode.

    Without --env-url, both servers are started on loopback, each in a process of its
    own. Running the same command again resumes its unfinished run, skipping the stored
    episodes.
    """
    from mcpgym_clients.commands._agent import choose_agent, hard_cap, key_vars
    from mcpgym_clients.evaluation import EvalOptions, default_concurrency
    from mcpgym_clients.redaction import redacted

    task_list = parsed(parse_names, tasks, "--tasks")
    # Band names are checked against what the environment offers, once it is known.
    band_list = parsed(parse_names, bands, "--bands")
    seed_list = parsed(parse_seeds, seeds, "--seeds")
    if env_url is not None and grading_url is None:
        raise typer.BadParameter(
            "with --env-url, also give --grading-url and --grading-token",
            param_hint="'--grading-url'",
        )
    if env_url is not None and not grading_token:
        raise typer.BadParameter(
            "no grading token: set MCPGYM_GRADING_TOKEN or pass --grading-token",
            param_hint="'--grading-token'",
        )
    for flag, url in (("--env-url", env_url), ("--grading-url", grading_url)):
        if url is not None and (problem := server_url_problem(url)) is not None:
            raise typer.BadParameter(problem, param_hint=f"'{flag}'")
    if env_url is None and grading_url is not None:
        raise typer.BadParameter(
            "--grading-url needs --env-url (without both, servers start locally)",
            param_hint="'--env-url'",
        )
    if env_url is not None and (max_requests_per_second, request_burst) != (None, None):
        raise typer.BadParameter(
            "--max-requests-per-second and --request-burst set the servers eval starts; "
            "the --env-url server has its own (mcpgym serve --max-requests-per-second)",
            param_hint="'--max-requests-per-second'",
        )
    if (problem := backend_problem(backend, ray_address, env_url)) is not None:
        raise typer.BadParameter(problem, param_hint="'--backend'")
    if ray_actors is not None and backend != "ray":  # it was ignored (round 20, F20-2)
        raise typer.BadParameter("--ray-actors needs --backend ray", param_hint="'--ray-actors'")
    if (problem := empty_salt_problem(seed_salt)) is not None:
        raise typer.BadParameter(problem, param_hint="'--seed-salt'")
    if env_url is None and env not in available_environments():
        raise fail(str(UnknownEnvironmentError(env, available_environments())), 2)
    agent, model = choose_agent(
        agent,
        model,
        base_url,
        api_key,
        {
            "--api-key": api_key is not None,
            "--api-key-env": api_key_env is not None,
            "--parse-text-tool-calls": parse_text_tool_calls is not None,
            "--no-parse-text-tool-calls": no_parse_text_tool_calls,
            "--max-turns": max_turns is not None,
            "--max-tokens": max_tokens is not None,
            "--max-output-tokens": max_output_tokens is not None,
            "--tool-choice": tool_choice is not None,
            "--temperature": temperature is not None,
            "--model-seed": model_seed is not None,
            "--request-timeout": request_timeout is not None,
            "--response-timeout": response_timeout is not None,
            "--max-response-bytes": max_response_bytes is not None,
        },
    )
    the_agent = build_agent(
        agent,
        model=model,
        base_url=base_url,
        api_key=api_key,
        api_key_env=api_key_env,
        parse_text_tool_calls=False if no_parse_text_tool_calls else parse_text_tool_calls,
        max_turns=max_turns or 30,
        max_turns_given=max_turns is not None,
        request_timeout=request_timeout or 120.0,
        response_timeout=response_timeout,
        max_response_bytes=max_response_bytes,
        temperature=temperature,
        model_seed=model_seed,
        max_output_tokens=max_output_tokens,
        tool_choice=tool_choice,
        token_budget=max_tokens,
        time_limit=time_limit,
    )
    run_eval(
        EvalOptions(
            env=env,
            agent=the_agent,
            tasks=task_list,
            bands=band_list,
            seeds=seed_list,
            epochs=epochs,
            concurrency=concurrency or default_concurrency(the_agent),
            env_url=env_url,
            grading_url=grading_url,
            grading_token=grading_token,
            store=store,
            episodes=episodes or store.parent / "episodes",
            baseline=not no_baseline,
            timeout=hard_cap(timeout, time_limit, the_agent),
            argv=redacted(sys.argv),
            key_hint="--api-key"
            if api_key
            else f"{' or '.join(key_vars(model, api_key_env))} (or pass --api-key)",
            new_run=new_run,
            infra_retries=infra_retries,
            infra_retry_wait=infra_retry_wait,
            control_token=control_token if env_url is not None else None,
            seed_salt=seed_salt or None,
            max_requests_per_second=max_requests_per_second or DEFAULT_REQUESTS_PER_SECOND,
            request_burst=request_burst or DEFAULT_REQUEST_BURST,
            backend=backend,
            ray_address=ray_address,
            ray_actors=ray_actors or 2,
            yes=yes,
        )
    )


def demo(
    env: Annotated[
        list[str] | None,
        typer.Option(help="Environment to demonstrate (repeatable; default: every one installed)."),
    ] = None,
    store: Annotated[Path, typer.Option(help="Run store (SQLite).")] = DEFAULT_STORE,
    seeds: Annotated[int, typer.Option(help="Seeds per family and band.", min=1)] = 3,
    concurrency: Annotated[int, typer.Option(help="Episodes in flight.", min=1)] = 2,
) -> None:
    """Run `reference` and `null` over real loopback HTTP on every family and band.

    Without --env, every installed environment is demonstrated, one after the other.
    """
    from mcpgym_clients.agents import ReferenceAgent
    from mcpgym_clients.evaluation import EvalOptions
    from mcpgym_clients.redaction import redacted

    installed = available_environments()
    for name in env or ():
        if name not in installed:
            raise fail(str(UnknownEnvironmentError(name, installed)), 2)
    for name in env or installed:
        run_eval(
            EvalOptions(
                env=name,
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
                argv=redacted(sys.argv),
            )
        )


def register(app: typer.Typer) -> None:
    """Add the ``eval`` and ``demo`` commands to the ``mcpgym`` app."""
    app.command("eval")(eval_)
    app.command()(demo)
