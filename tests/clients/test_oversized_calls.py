"""A tool call too large for the server is the model's fault: a tool error, the episode scored.

Issue 9 section 8 (round 6b, B1): a call whose arguments exceed the MCP body limit (4 MiB)
was refused by the SDK's transport with a bare HTTP 413, which its client reports as
``-32603``; the driver took that for a broken server, so the episode became ``infra_error``,
was retried and left unscored: a model could drop any episode it was failing from the mean.
Now the environment server refuses it inside the protocol (``-32602`` naming the limit and
the size) and the driver answers a bare 413 of any other server as a tool error too. Real
servers on loopback (`serve_locally`).
"""

from __future__ import annotations

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from mcpgym_clients import (
    Agent,
    AgentResult,
    EpisodeContext,
    EpisodeDriver,
    LocalServers,
    ToolOutcome,
)
from mcpgym_server import Environment
from mcpgym_server.runtime import MAX_MCP_BODY, MAX_MESSAGE_ITEMS

pytestmark = pytest.mark.anyio

HUGE = "x" * (MAX_MCP_BODY + 300_000)


class HugeCallThenReference(Agent):
    """Sends one call whose arguments are over the limit, then the reference solution."""

    name = "huge-call"
    uses_reference = True

    def __init__(self, arguments: dict[str, object] | None = None) -> None:
        self.refused: ToolOutcome | None = None
        self.arguments = arguments or {"key": "target", "value": HUGE}

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.refused = await ctx.call_tool("put", self.arguments)
        assert ctx.reference is not None
        for call in ctx.reference:
            await ctx.call_tool(call.name, dict(call.arguments))
        return AgentResult("completed", answer=ctx.reference_answer)


def driver_for(s: LocalServers, env: Environment, **kw: object) -> EpisodeDriver:
    return EpisodeDriver(
        s.env_url,
        s.grading_url,
        s.grading_token,
        control_token=s.control_token,
        environment=env,
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_an_oversized_call_is_a_tool_error_and_the_episode_is_scored(
    servers: LocalServers, toy_env: Environment, mode: str
) -> None:
    agent = HugeCallThenReference()
    async with driver_for(servers, toy_env, mcp_mode=mode) as driver:
        with anyio.fail_after(30):
            rec = await driver.run_episode(agent, "set-target", "easy", 0)
    assert (rec.termination, rec.error) == ("completed", None)
    assert rec.scored and rec.score == 1.0
    assert agent.refused is not None and agent.refused.is_error
    assert f"limit of {MAX_MCP_BODY:,} bytes" in agent.refused.text
    assert f"({len(HUGE) // 1000:,}" in agent.refused.text  # the size, in bytes


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_call_with_too_many_items_is_a_tool_error_and_the_episode_is_scored(
    servers: LocalServers, toy_env: Environment, mode: str
) -> None:
    """200,000 unknown keys (3.6 MB, under the byte limit): refused before parsing, round 9
    S5-1; the model is told the limit and the episode goes on."""
    agent = HugeCallThenReference({f"k{i}": i for i in range(200_000)})
    async with driver_for(servers, toy_env, mcp_mode=mode) as driver:
        with anyio.fail_after(30):
            rec = await driver.run_episode(agent, "set-target", "easy", 0)
    assert (rec.termination, rec.error) == ("completed", None)
    assert rec.scored and rec.score == 1.0
    assert agent.refused is not None and agent.refused.is_error
    assert f"more than {MAX_MESSAGE_ITEMS:,} JSON items" in agent.refused.text


async def test_the_server_refuses_an_oversized_message_as_invalid_params(
    servers: LocalServers,
) -> None:
    async with httpx.AsyncClient(headers={"authorization": f"Bearer {servers.control_token}"}) as c:
        opened = (await c.post(f"{servers.env_url}/episodes", json={"task": "set-target"})).json()
    with anyio.fail_after(30):
        async with Client(opened["mcp_url"]) as client:
            with pytest.raises(MCPError) as refused:
                await client.call_tool("put", {"key": "target", "value": HUGE})
            assert refused.value.code == INVALID_PARAMS
            assert f"limit of {MAX_MCP_BODY:,} bytes" in refused.value.message
            # the session is intact: the next call is served
            assert not (await client.call_tool("get", {"key": "a"})).is_error


async def test_a_bare_413_of_another_server_is_a_tool_error_not_infra_error(
    servers: LocalServers, toy_env: Environment
) -> None:
    """A proxy in front of the server refuses bodies over 1 MB with plain text, as the SDK's
    own transport (and most HTTP servers) do."""
    upstream = httpx2.AsyncClient(timeout=30)

    async def proxy(request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        if len(body) > 1_000_000:
            return httpx2.Response(413, text="Request body too large")
        forwarded = await upstream.request(
            request.method, request.url, headers=request.headers, content=body
        )
        return httpx2.Response(
            forwarded.status_code, headers=forwarded.headers, content=forwarded.content
        )

    agent = HugeCallThenReference()
    async with upstream, httpx2.AsyncClient(transport=httpx2.MockTransport(proxy)) as mcp_http:
        async with driver_for(servers, toy_env, mcp_http=mcp_http) as driver:
            with anyio.fail_after(30):
                rec = await driver.run_episode(agent, "set-target", "easy", 0)
    assert (rec.termination, rec.error) == ("completed", None)
    assert rec.scored and rec.score == 1.0
    assert agent.refused is not None and agent.refused.is_error
    assert "HTTP 413: Request body too large" in agent.refused.text
    assert f"({len(HUGE) // 1000:,}" in agent.refused.text


@pytest.mark.parametrize("chunked", [False, True])
async def test_an_oversized_body_is_refused_with_or_without_its_length(
    servers: LocalServers, chunked: bool
) -> None:
    """Without ``Content-Length`` (chunked upload) the body is counted as it comes."""
    async with httpx.AsyncClient(headers={"authorization": f"Bearer {servers.control_token}"}) as c:
        opened = (await c.post(f"{servers.env_url}/episodes", json={"task": "set-target"})).json()
    body = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"put","arguments":'
    body += b'{"key":"target","value":"' + HUGE.encode() + b'"}}}'

    async def chunks():  # type: ignore[no-untyped-def]
        for i in range(0, len(body), 65536):
            yield body[i : i + 65536]

    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(timeout=30) as raw:
        resp = await raw.post(
            opened["mcp_url"], content=chunks() if chunked else body, headers=headers
        )
    assert resp.status_code == 413
    error = resp.json()["error"]
    assert error["code"] == INVALID_PARAMS
    assert error["data"] == {"limit": MAX_MCP_BODY, "size": len(body)}
