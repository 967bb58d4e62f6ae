"""Option defaults and help texts shared by several ``mcpgym`` commands."""

from __future__ import annotations

from pathlib import Path

DEFAULT_EPISODES = Path("runs") / "episodes"
"""Default episode store of ``serve`` and ``grading serve``."""

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
