"""Request URLs parsed once (issue 12 §2): the MCP client's and the control clients'.

`mcpgym_clients._parsed_urls.ParsedUrlClient` remembers each string URL's parse, and
`ServiceClients` each path's merged URL. What must hold: every request goes to its own
URL (no episode's request to another episode's URL, whatever was remembered before), and
the request is the one the library builds from the string.
"""

from __future__ import annotations

import httpx
import httpx2
import pytest

from mcpgym_clients._parsed_urls import URLS_REMEMBERED, ParsedUrlClient, parsed_url
from mcpgym_clients.mcp_connection import McpConnections
from mcpgym_clients.services import URLS_KEPT, ServiceClients

pytestmark = pytest.mark.anyio

BASE = "http://127.0.0.1:9/episodes/{}/mcp"


def _request_parts(req: httpx2.Request) -> tuple[str, str, list[tuple[bytes, bytes]], bytes]:
    return req.method, str(req.url), list(req.headers.raw), req.read()


async def test_same_request_as_the_library_for_each_url() -> None:
    """Built from a remembered parse, each request equals the library's own, URL for URL."""
    plain = httpx2.AsyncClient(headers={"x-a": "1"})
    parsed = ParsedUrlClient(headers={"x-a": "1"})
    urls = [BASE.format(f"ep_{i}") for i in range(5)] + ["http://h:1/a?b=c&d=%20e", "/rel"]
    try:
        for _ in range(2):  # the second pass is served from the memo
            for url in urls:
                headers, body = {"x-b": url}, {"u": url}
                want = _request_parts(plain.build_request("POST", url, headers=headers, json=body))
                got = parsed.build_request("POST", url, headers=headers, json=body)
                assert _request_parts(got) == want
    finally:
        await plain.aclose()
        await parsed.aclose()


async def test_each_episode_reaches_its_own_url() -> None:
    """Requests alternating between episodes, past the memo's bound, each reach their URL."""
    seen: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(str(request.url))
        return httpx2.Response(200, json={})

    urls = [BASE.format(f"ep_{i}") for i in range(URLS_REMEMBERED + 3)]
    async with ParsedUrlClient(transport=httpx2.MockTransport(handler)) as client:
        for url in [*urls, *reversed(urls[:5]), *urls[-5:]]:
            await client.post(url, json={})
    assert seen == [*urls, *reversed(urls[:5]), *urls[-5:]]
    assert parsed_url.cache_info().currsize <= URLS_REMEMBERED


async def test_the_driver_mcp_client_is_one() -> None:
    """The harness's shared MCP HTTP client is a `ParsedUrlClient` (a given one is kept)."""
    conns = McpConnections()
    try:
        assert isinstance(conns._http, ParsedUrlClient)  # pyright: ignore[reportPrivateUsage]
    finally:
        await conns.aclose()
    given = httpx2.AsyncClient()
    assert McpConnections(http=given)._http is given  # pyright: ignore[reportPrivateUsage]
    await given.aclose()


async def test_control_paths_merge_with_their_own_service() -> None:
    """The env and grading clients each keep their own merged URLs: the same path goes to
    its own service, paths naming episodes to their own episode, past `URLS_KEPT`."""
    seen: list[tuple[str, str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.host, request.url.path))
        return httpx.Response(200, json={"ok": True})

    clients = ServiceClients(
        "http://env.test:1/base",
        "http://grading.test:2",
        "tok",
        env_transport=httpx.MockTransport(handler),
        grading_transport=httpx.MockTransport(handler),
    )
    want: list[tuple[str, str]] = []
    async with clients:
        for i in range(URLS_KEPT + 5):
            for service, host, prefix in (
                ("env", "env.test", "/base"),
                ("grading", "grading.test", ""),
            ):
                await clients._request(service, "POST", "/grades", {})  # noqa: SLF001
                await clients._request(service, "POST", f"/episodes/ep_{i}/end", {})  # noqa: SLF001
                want += [(host, f"{prefix}/grades"), (host, f"{prefix}/episodes/ep_{i}/end")]
    assert seen == want
