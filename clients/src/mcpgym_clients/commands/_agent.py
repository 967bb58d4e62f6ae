"""The agent that ``--agent``/``--model`` and their options name (``mcpgym eval``)."""

from __future__ import annotations

import contextlib
import os
from typing import Any

import httpx
import typer

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import (
    CHECK_TIMEOUT,
    DEFAULT_BASE_URL,
    ChatCompletionsClient,
    api_error_text,
)
from mcpgym_clients.adapters.openai_chat import TOOL_CHOICES
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.adapters.streaming import DEFAULT_MAX_RESPONSE_BYTES
from mcpgym_clients.agent_spec import is_agent_spec, load_agent
from mcpgym_clients.agents import AGENT_NAMES, NullAgent, OpenAIAgent, ReferenceAgent
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import (
    VENDORS,
    build_adapter,
    build_model_agent,
    parse_model_spec,
)
from mcpgym_clients.commands._common import fail, parsed, reported
from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.protocol import Agent
from mcpgym_server import did_you_mean

CHAT_VENDORS = ("openai-compatible", "openai")
"""The vendors that send ``--tool-choice`` (Chat Completions ``tool_choice``)."""


def build_agent(
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
    response_timeout: float | None = None,
    max_response_bytes: int | None = None,
    max_turns_given: bool = False,
    tool_choice: str | None = None,
) -> Agent:
    """The agent for ``--agent``/``--model`` (see `mcpgym_clients.agents.vendors`).

    ``response_timeout`` and ``max_response_bytes`` (``None``: the library defaults,
    `mcpgym_clients.adapters.streaming`) bound each model response. ``tool_choice``
    (``--tool-choice``, one of `TOOL_CHOICES`; ``None``: not sent) is for the Chat
    Completions vendors (``openai-compatible``, ``openai``) only.
    """
    if tool_choice is not None and tool_choice not in TOOL_CHOICES:
        raise typer.BadParameter(
            f"{tool_choice!r} is not a tool choice; valid: {', '.join(TOOL_CHOICES)}",
            param_hint="'--tool-choice'",
        )
    if is_agent_spec(name):  # a lab's own harness: package.module:attr or file.py:attr
        if model:
            raise typer.BadParameter(
                "--model is for the built-in model agents; a harness given to --agent "
                "chooses its own model (set Agent.model or FunctionAgent(model=...))",
                param_hint="'--model'",
            )
        for flag, given in (
            ("--max-turns", max_turns_given),
            ("--max-tokens", token_budget),
            ("--tool-choice", tool_choice),
        ):
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
    if (
        vendor is not None
        and vendor.name == "openai-compatible"
        and not (base_url or (spec.base_url_var and os.environ.get(spec.base_url_var)))
    ):
        raise typer.BadParameter(
            "openai-compatible needs --base-url (e.g. http://127.0.0.1:11434/v1)",
            param_hint="'--base-url'",
        )
    key_names = key_vars(model, api_key_env)
    key = api_key or next((os.environ[v] for v in key_names if os.environ.get(v)), None)
    env_base = os.environ.get(spec.base_url_var) if spec.base_url_var else None
    url = base_url or env_base
    if not key and (url is None or url.rstrip("/") == spec.default_base_url):
        raise typer.BadParameter(
            f"no API key{f' for {vendor.name}' if vendor else ''}: set "
            f"{' or '.join(key_names)} or pass --api-key "
            "(local servers given with --base-url need none)",
            param_hint="'--api-key'",
        )
    if tool_choice is not None and vendor is not None and vendor.name not in CHAT_VENDORS:
        raise typer.BadParameter(
            f"--tool-choice is sent by the Chat Completions vendors ({', '.join(CHAT_VENDORS)}) "
            f"only; {vendor.name} chooses tools its own way (drop --tool-choice)",
            param_hint="'--tool-choice'",
        )
    settings = ModelSettings(model_id, temperature, model_seed, max_output_tokens, tool_choice)
    retry = RetryPolicy(request_timeout=request_timeout)
    loop: dict[str, Any] = {
        "max_turns": max_turns,
        "token_budget": token_budget,
        "time_limit": time_limit,
    }
    if vendor is None or vendor.name == "openai-compatible":
        client = ChatCompletionsClient(
            base_url=url or DEFAULT_BASE_URL,
            api_key=key,
            timeout=request_timeout,
            response_timeout=response_timeout,
            max_response_bytes=max_response_bytes or DEFAULT_MAX_RESPONSE_BYTES,
        )
        agent: Agent = OpenAIAgent(
            client=client,
            model=model_id,
            temperature=temperature,
            seed=model_seed,
            max_tokens=max_output_tokens,
            tool_choice=tool_choice,
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
    if max_response_bytes is not None:
        adapter.max_response_bytes = max_response_bytes
    return build_model_agent(adapter, parse_text_tool_calls=bool(parse_text_tool_calls), **loop)


def choose_agent(
    agent: str | None,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    model_flags: dict[str, bool],
    *,
    transport: httpx.BaseTransport | None = None,
) -> tuple[str, str | None]:
    """The agent name and ``--model`` that ``mcpgym eval``'s flags mean: ``(agent, model)``.

    No ``--agent``: ``openai`` with ``--model``; with ``--base-url`` alone, the
    openai-compatible vendor running the one model that ``GET {base_url}/models`` lists
    (`served_model`); with neither, the reference agent. ``model_flags`` maps each other
    model-only flag (``--api-key``, ``--temperature``...) to whether it was given.

    Raises:
        typer.BadParameter: a model-only flag without a model agent; the server lists
            no model or several.
        typer.Exit: the server cannot be reached (exit 1; `served_model`).
    """
    if agent is None and model is None and base_url is not None:
        return "openai", f"openai-compatible:{served_model(base_url, api_key, transport)}"
    if model is None and (agent is None or agent in ("reference", "null", "random")):
        given = ["--base-url"] if base_url is not None else []
        given += [flag for flag, on in model_flags.items() if on]
        if given:
            who = agent or "reference (the default without --model)"
            raise typer.BadParameter(
                f"{given[0]} is for model agents and the {who} agent takes none: add "
                "--model VENDOR:MODEL, or --base-url URL alone for a local server",
                param_hint=f"'{given[0]}'",
            )
    return agent or ("openai" if model else "reference"), model


def served_model(
    base_url: str, api_key: str | None = None, transport: httpx.BaseTransport | None = None
) -> str:
    """The id of the one model an OpenAI-compatible server lists at ``GET {base_url}/models``.

    Raises:
        typer.Exit: the server cannot be reached (``error: cannot reach the model API``
            on stderr, exit 1, as for a model endpoint that cannot be reached later).
        typer.BadParameter: the server refuses the key (401/403), answers an error or no
            list (a 404 at a URL not ending in ``/v1`` asks whether it should), lists no
            model, or lists several (the message names them and says
            ``--model openai-compatible:NAME``).
    """
    base = base_url.rstrip("/")
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    hint = "'--base-url'"
    try:
        with httpx.Client(transport=transport, timeout=CHECK_TIMEOUT) as http:
            resp = http.get(f"{base}/models", headers=headers)
    except (httpx.TransportError, httpx.InvalidURL) as exc:
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise fail(
            f"cannot reach the model API at {base} ({detail}); is the model server "
            "running, and is --base-url right?"
        ) from exc
    if resp.status_code in (401, 403):
        raise typer.BadParameter(
            f"the model API at {base} rejected the API key ({resp.status_code}: "
            f"{api_error_text(resp.text)}): set the key it expects in OPENAI_API_KEY or pass "
            "--api-key-env NAME (--api-key KEY in scripts); local servers usually need none",
            param_hint="'--api-key'",
        )
    try:
        data = resp.json()
        ids = [str(m["id"]) for m in data["data"]]
    except (ValueError, KeyError, TypeError) as exc:
        path = (
            " (does --base-url end in /v1?)"
            if resp.status_code == 404 and not base.endswith("/v1")
            else ""
        )
        raise typer.BadParameter(
            f"GET {base}/models answered {resp.status_code} without a model list{path}, so "
            "the model to run is unknown: pass --model openai-compatible:NAME",
            param_hint=hint,
        ) from exc
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise typer.BadParameter(
            f"the server at {base} lists no model: load one, or pass "
            "--model openai-compatible:NAME",
            param_hint=hint,
        )
    raise typer.BadParameter(
        f"the server at {base} serves {len(ids)} models ({', '.join(ids)}): "
        "pick one with --model openai-compatible:NAME",
        param_hint="'--model'",
    )


def hard_cap(timeout: float | None, time_limit: float | None, agent: Agent) -> float:
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


def key_vars(model: str | None, api_key_env: str | None) -> tuple[str, ...]:
    """The environment variables the key of ``--model`` is read from."""
    if api_key_env:
        return (api_key_env,)
    vendor = None
    with contextlib.suppress(ConfigurationError):
        vendor = parse_model_spec(model or "")[0]
    return (vendor or VENDORS["openai-compatible"]).key_vars
