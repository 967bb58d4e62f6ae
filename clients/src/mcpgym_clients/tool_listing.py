"""One ``tools/list`` per server and lock instead of one per episode, where that is provably safe.

Every episode of an mcpgym environment server serves the same tool list: the definitions
of the served environment (`mcpgym_server.lock.served_tools`), which its lock digests
(``tools_sha256``). `ToolListings` keeps the listing an episode got from the server and
hands it to later episodes of the same server (base URL) and the same lock (the
``lock`` of each ``POST /episodes`` answer), without a request, when the listing was
checked against the lock: it equals, definition for definition, the served tool list of
the environment installed here, whose own lock is that lock. Where the environment is not
installed here, or its lock differs, or the listing differs from it, every episode lists
its tools as before.

A reused listing is parsed anew for each episode from the JSON the server sent, so no
episode's agent shares a schema object with another's, and the episode's MCP session
absorbs it as the SDK absorbs a listing it fetched: the ``Mcp-Param-*`` header maps and
the output schemas its ``tools/call`` checks results against (the SDK's own response
cache does the same on a hit, through the same session method).

The header maps are what the SDK derives from the listing's input schemas (each schema
walked twice: its ``x-mcp-header`` annotations checked, then mapped; ~3.5% of a reference
campaign's own CPU when done per episode, issue 12 §2). For a reused listing, which is
the same bytes, they are taken from the episode that fetched it (a copy per session)
instead of derived again, where the session speaks the same protocol version and holds no
compiled output validator (a fresh session); otherwise the SDK absorbs it as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, cast

from mcp import Client
from mcp.client.session import ClientSession
from mcp.types import ListToolsResult
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

Expected = Callable[[str], Awaitable[list[dict[str, Any]] | None]]
"""``expected(lock)``: the tool list (wire dicts, `served_tools`) that ``lock`` names, or
``None`` when it cannot be known here (no such environment installed)."""


def wire_tools(listing: ListToolsResult) -> list[dict[str, Any]]:
    """A listing's tools in their wire form (camelCase keys, ``None`` fields left out), the
    form `mcpgym_server.lock.served_tools` digests."""
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listing.tools]


class ToolListings:
    """The checked tool listings of a harness, by (server base URL, lock).

    Args:
        expected: the tool list a lock names (`Expected`), awaited once per lock.
    """

    def __init__(self, expected: Expected) -> None:
        self._expected = expected
        self._checked: dict[str, list[dict[str, Any]] | None] = {}
        self._listings: dict[tuple[str, str], bytes] = {}
        # the header maps the SDK derived from each kept listing, and the version it spoke
        self._maps: dict[tuple[str, str], tuple[str | None, HeaderMaps]] = {}
        self.requests = 0
        """``tools/list`` requests sent (the rest of the listings were reused)."""

    def reusable(self, server: str, lock: str | None) -> bool:
        """Whether an episode of ``server`` on ``lock`` gets a checked listing without a request."""
        return lock is not None and (server, lock) in self._listings

    async def list_tools(self, client: Client, server: str, lock: str | None) -> ListToolsResult:
        """The tools of the episode whose MCP session is ``client``.

        Args:
            client: the episode's open MCP client.
            server: the environment server's base URL (the episode's URL is under it).
            lock: the lock the server named in the episode's ``POST /episodes`` answer
                (``None``: unknown, so the listing is never reused).

        Returns:
            The listing, as the SDK's ``Client.list_tools`` returns it; the session has
            absorbed it either way.

        Raises:
            Whatever ``Client.list_tools`` raises, when a request is sent.
        """
        known = self._listings.get((server, lock)) if lock is not None else None
        if known is not None:
            listing = ListToolsResult.model_validate_json(known)
            kept = self._maps.get((server, cast(str, lock)))
            if kept is not None and adopt_listing(client.session, listing, *kept):
                return listing
            absorb = client.session._absorb_tool_listing  # pyright: ignore[reportPrivateUsage]
            return absorb(listing, complete=True)
        self.requests += 1
        listing = await client.list_tools()
        if lock is not None and listing.next_cursor is None:
            if lock not in self._checked:
                self._checked[lock] = await self._expected(lock)
            tools = wire_tools(listing)
            if tools == self._checked[lock]:
                self._listings[(server, lock)] = listing.model_dump_json(
                    by_alias=True, exclude_none=True
                ).encode()
                session = client.session
                self._maps[(server, lock)] = (
                    session._negotiated_version,  # pyright: ignore[reportPrivateUsage]
                    _copy(session._x_mcp_header_maps),  # pyright: ignore[reportPrivateUsage]
                )
        return listing


HeaderMaps = dict[str, dict[tuple[str, ...], str]]
"""A session's ``Mcp-Param-*`` header maps: tool name -> (argument path -> header token)."""


def _copy(maps: HeaderMaps) -> HeaderMaps:
    return {name: dict(m) for name, m in maps.items()}


def adopt_listing(
    session: ClientSession, listing: ListToolsResult, version: str | None, maps: HeaderMaps
) -> bool:
    """Leave ``session`` as ``session._absorb_tool_listing(listing, complete=True)`` would,
    with ``maps`` (the header maps the SDK derived from the same listing in a session that
    spoke ``version``) instead of deriving them from the schemas again.

    Returns:
        ``False``, with ``session`` untouched, where the result could differ or nothing is
        spared: the session speaks another version or a pre-2026 one (which maps no
        headers), it holds a compiled output validator (it absorbed a listing before), or
        ``maps`` does not name exactly the listed tools; the caller then absorbs
        ``listing`` the SDK's way.
    """
    s: Any = session  # the SDK's private per-tool state, as `_absorb_tool_listing` sets it
    if s._negotiated_version != version or version not in MODERN_PROTOCOL_VERSIONS:
        return False
    if s._tool_output_validators or set(maps) != {tool.name for tool in listing.tools}:
        return False
    s._x_mcp_header_maps = _copy(maps)
    s._tool_output_schemas = {tool.name: tool.output_schema for tool in listing.tools}
    return True
