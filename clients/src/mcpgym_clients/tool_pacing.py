"""Tool calls paced by the environment server's per-episode request rate.

An mcpgym environment server refuses a tool call over its episode's request rate with a
JSON-RPC error (`mcpgym_server.runtime.RATE_LIMIT_ERROR`, ``data.kind == "rate_limit"``,
``data.retry_after_s``): the call was not run, and `paced_call` resends it after the wait
the server names, within `MAX_PACING_WAIT_S`.
"""

from __future__ import annotations

import time
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError

from mcpgym_server.runtime import RATE_LIMIT_ERROR

MAX_PACING_WAIT_S = 60.0
"""Seconds one tool call may wait in all on the environment server's request rate (its
429 ``rate_limit`` refusals, each waited as its ``retry_after_s`` says) before the refusal
is the episode's `InfraError`."""


def _pacing_wait(exc: MCPError) -> float | None:
    """The seconds to wait before resending a tool call the environment server refused
    for its episode's request rate (`mcpgym_server._rate_limit`; such a request was not
    run), or ``None`` when ``exc`` is another error."""
    data = exc.data if isinstance(exc.data, dict) else {}
    if exc.code != RATE_LIMIT_ERROR or data.get("kind") != "rate_limit":
        return None  # -32002 is also MCP's "resource not found"
    wait = data.get("retry_after_s")
    return min(max(float(wait), 0.0), 5.0) if isinstance(wait, int | float) else 1.0


async def paced_call(client: Any, name: str, arguments: dict[str, Any]) -> Any:
    """``client.call_tool``, resent after each refusal for the episode's request rate.

    The harness runs a turn's tool calls back to back, so a model turn of many calls
    (1,000 in one turn) outruns the server's per-episode rate (20 a second, bursts of
    200 by default): the refused call was not run and the server says when to resend
    it. Taking the refusal as an outage made the model's own turn an ``infra_error``,
    retried and never scored (adversarial round 15, S1-10). Resends for at most
    `MAX_PACING_WAIT_S` from the first refusal (then the refusal is raised), within
    the hard cap.

    Raises:
        MCPError: another error, or the rate refusal once the waits are spent.
    """
    since: float | None = None
    while True:
        try:
            return await client.call_tool(name, arguments)
        except MCPError as exc:
            wait = _pacing_wait(exc)
            now = time.monotonic()
            since = now if since is None else since
            if wait is None or now + wait - since > MAX_PACING_WAIT_S:
                raise
        await anyio.sleep(wait)
