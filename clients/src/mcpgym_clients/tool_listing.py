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
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client
from mcp.types import ListToolsResult

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
        return listing
