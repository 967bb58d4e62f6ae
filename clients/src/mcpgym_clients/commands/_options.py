"""Option defaults and help texts shared by several ``mcpgym`` commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DEFAULT_EPISODES = Path("runs") / "episodes"
"""Default episode store of ``serve`` and ``grading serve``."""

DEFAULT_STORE = Path("runs") / "mcpgym.db"
"""Default run store of ``eval``, ``demo``, ``runs``, ``show``... (the same as
`mcpgym_clients.runstore.DEFAULT_STORE`, which imports sqlite_utils: not at start-up)."""

BUNDLE_KEY = (
    "Secret shared by the environment server (signs sealed bundles) and the grading service "
    "(grades only bundles whose signature verifies)."
)

SEED_SALT = (
    "Secret mapping each requested seed to the generator seed served, so that an agent with "
    "the public package cannot regenerate its variant from the published seeds."
)


def empty_salt_problem(seed_salt: str | None) -> str | None:
    """Why an empty ``--seed-salt`` is refused, or ``None``.

    An empty value is most often an unset shell variable (``--seed-salt "$SALT"``); taken
    as "no salt" it served the public seeds to a run meant to be private, silently
    (adversarial round 20, F20-3). (An empty ``MCPGYM_SEED_SALT`` is unset to click.)"""
    if seed_salt is None or seed_salt.strip():
        return None
    return (
        'the seed salt is empty (an unset variable in --seed-salt "$SALT"?); give the '
        "secret, or leave --seed-salt out to serve the public seeds"
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

REQUESTS_PER_SECOND_HELP = (
    "Most MCP requests a second one episode URL may send, notifications included "
    "(sustained, after --request-burst at once); past it a request is refused (429), "
    "logged once per episode and counted in its bundle."
)
REQUEST_BURST_HELP = (
    "MCP requests one episode URL may send at once before --max-requests-per-second applies."
)


MaxResponseBytes = Annotated[
    int | None,
    typer.Option(
        help="Bytes one model response may take; past it the response is refused "
        "(model_error: the server ignored max_tokens) before it is stored. Default 8 MiB.",
        min=1,
        metavar="BYTES",
    ),
]
"""``--max-response-bytes`` (``None``: `streaming.DEFAULT_MAX_RESPONSE_BYTES`)."""

ResponseTimeout = Annotated[
    float | None,
    typer.Option(
        help="Seconds one streamed model response may take as a whole, events or not "
        "(then retried; infra_error). Default 5 x --request-timeout.",
        min=1.0,
        metavar="SECONDS",
    ),
]
"""``--response-timeout`` (``None``: `RESPONSE_TIMEOUT_FACTOR` times ``--request-timeout``)."""
