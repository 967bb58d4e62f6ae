"""One request to the model endpoint before any episode, so a wrong URL or key fails fast."""

from __future__ import annotations

from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import VENDORS
from mcpgym_clients.errors import ConfigurationError, ModelAPIError
from mcpgym_clients.protocol import Agent


async def preflight(agent: Agent, key_hint: str) -> None:
    """Check a model agent's endpoint with one request (see each adapter's ``check``).

    Other agents are not checked. Other failures are left to the episodes.

    Args:
        agent: The agent about to run.
        key_hint: Where the key comes from, for the message on a 401/403
            (e.g. ``"--api-key"``).

    Raises:
        ConfigurationError: The endpoint is unreachable, the path or model is not found
            (404), or the key is refused (401, 403).
    """
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
