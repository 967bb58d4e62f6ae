"""How many MCP sessions one episode, and the whole server, may hold live at once.

An MCP session costs the server memory until it ends (about 38 KiB for a 2025-era
session, measured on helpdesk: `bench/session_flood.py`), and a 2025-era session ends
only on an HTTP ``DELETE``, the idle timeout (``idle_ttl``) or shutdown. Without a cap an
agent holding one episode URL could open sessions until the server runs out of memory,
starving every other episode. So:

- **per episode** at most `SessionCaps.per_episode` (default
  `DEFAULT_SESSIONS_PER_EPISODE`) are live: every 2025-era session opened on the
  episode's URL (``initialize``, from the opening request until the session ends) and
  every 2026-07-28 request in flight there (that era has no sessions: each request is
  its own connection, a ``subscriptions/listen`` stream possibly a long one). Past it the
  opening request is refused with HTTP 429 and a JSON-RPC error (`SESSION_CAP_ERROR`)
  that says why and how to free or raise the cap; the episode's live sessions are
  untouched and other episodes are unaffected. A session that ends frees its slot.
- **per server** at most `SessionCaps.total` (default: ``max_open`` episodes times the
  per-episode cap, so the bound follows the memory-derived ``--max-open``), counting
  connect-to-start sessions too (each is its own episode there); past it: HTTP 503.
  Worst case this adds ``max_open * (per_episode - 1)`` sessions beyond the one an
  episode's measured footprint already includes (`mcpgym_server._capacity`): at the
  default cap of 8 about 7 * 38 KiB = 0.27 MB per episode, inside the half of the memory
  that ``--max-open`` leaves outside the episodes.

A slot is reserved when the opening request arrives (before the SDK creates anything) and
released exactly once: when the request ends unless it established a 2025 session, else
when that session's connection closes (its exit stack, `Slot.hold`); the HTTP side of this
is `mcpgym_server._session_gate`. This module imports nothing heavy (the CLI reads its
default).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DEFAULT_SESSIONS_PER_EPISODE = 8
"""Default cap on live MCP sessions (and 2026-era requests in flight) per episode."""

SESSION_BYTES = 40 * 1024
"""Bytes a live 2025-era MCP session holds on the server (measured ~38 KiB, rounded up)."""

SESSION_CAP_ERROR = -32001
"""JSON-RPC error code (server-defined range) of a refusal at a session cap."""


@dataclass(frozen=True)
class CapRefusal:
    """Why a session was not admitted.

    Attributes:
        status: HTTP status (429 episode cap, 503 server cap). message: the explanation.
        data: the JSON-RPC ``error.data`` (``kind``, ``limit``, ``live``, ``episode_id``).
    """

    status: int
    message: str
    data: dict[str, Any]


class Slot:
    """One reserved session slot of an episode; `release` is idempotent.

    ``held`` is set by `hold` when the request established a 2025-era session: the slot
    then stays reserved until that session ends (`SessionCaps.release_session` on its
    DELETE, or its connection's exit stack). ``endpoint`` is the URL path the session was
    opened on (`SessionCaps.endpoint_of`).
    """

    __slots__ = ("_caps", "endpoint", "episode_id", "held", "released", "session_id")

    def __init__(self, caps: SessionCaps, episode_id: str, endpoint: str | None = None) -> None:
        self._caps = caps
        self.episode_id = episode_id
        self.endpoint = endpoint
        self.session_id: str | None = None
        self.held = False
        self.released = False

    def hold(self, session_id: str | None) -> None:
        """Keep the slot past the request: it established the session ``session_id``."""
        self.held = True
        self.session_id = session_id
        if session_id is not None:
            self._caps._sessions[session_id] = self  # noqa: SLF001 - the slot's own owner

    def release(self) -> None:
        """Give the slot back (a second call does nothing)."""
        if not self.released:
            self.released = True
            self._caps._release(self)  # noqa: SLF001 - the slot's own owner


class SessionCaps:
    """Counts live MCP sessions per episode and in total, and admits or refuses new ones.

    Args:
        per_episode: most live sessions (2026-era requests in flight included) per episode.
        total: most live sessions on the server.

    Raises:
        ValueError: a cap below 1.
    """

    def __init__(self, per_episode: int, total: int) -> None:
        if per_episode < 1:
            raise ValueError(
                f"the MCP session cap per episode must be at least 1, got {per_episode}"
            )
        if total < 1:
            raise ValueError(f"the MCP session cap of the server must be at least 1, got {total}")
        self.per_episode = per_episode
        self.total = total
        self._live: dict[str, int] = {}
        self._sessions: dict[str, Slot] = {}
        self._count = 0

    def live(self, episode_id: str | None = None) -> int:
        """Live sessions of ``episode_id`` (``None``: of the whole server)."""
        return self._count if episode_id is None else self._live.get(episode_id, 0)

    def endpoint_of(self, session_id: str) -> str | None:
        """The URL path the live 2025-era session ``session_id`` was opened on (``None``:
        not a session this server holds, or opened without a path)."""
        slot = self._sessions.get(session_id)
        return None if slot is None else slot.endpoint

    def episode_of(self, session_id: str) -> str | None:
        """The episode the live 2025-era session ``session_id`` belongs to (``None``: not
        a session this server holds)."""
        slot = self._sessions.get(session_id)
        return None if slot is None else slot.episode_id

    def reserve(self, episode_id: str, endpoint: str | None = None) -> Slot | CapRefusal:
        """Reserve a slot for a session of ``episode_id`` opened on the URL path
        ``endpoint``, or say why not (see the module)."""
        live = self._live.get(episode_id, 0)
        if live >= self.per_episode:
            return CapRefusal(
                429,
                f"episode {episode_id} already has {live} live MCP sessions, the most one "
                f"episode may hold ({self.per_episode}; 2026-07-28 requests in flight count "
                "as sessions). Reuse an open session, or close one (the client's exit, or "
                "HTTP DELETE with its Mcp-Session-Id) to free its slot; an abandoned session "
                "frees it when it idles past the server's --idle-ttl. The server's operator "
                "can raise the cap: `mcpgym serve --max-sessions-per-episode N` "
                "(`create_app(..., max_sessions_per_episode=N)`).",
                {
                    "kind": "session_cap",
                    "episode_id": episode_id,
                    "limit": self.per_episode,
                    "live": live,
                },
            )
        if self._count >= self.total:
            return CapRefusal(
                503,
                f"this server already holds {self._count} live MCP sessions, the most it "
                f"serves ({self.total}: --max-open episodes times --max-sessions-per-episode); "
                "retry once sessions close or idle out, or serve with a larger --max-open.",
                {"kind": "server_session_cap", "limit": self.total, "live": self._count},
            )
        self._live[episode_id] = live + 1
        self._count += 1
        return Slot(self, episode_id, endpoint)

    def release_session(self, session_id: str) -> None:
        """Free the slot of the 2025-era session ``session_id`` (it was deleted); an
        unknown id does nothing."""
        slot = self._sessions.get(session_id)
        if slot is not None:
            slot.release()

    def _release(self, slot: Slot) -> None:
        if slot.session_id is not None:
            self._sessions.pop(slot.session_id, None)
        left = self._live.get(slot.episode_id, 0) - 1
        if left > 0:
            self._live[slot.episode_id] = left
        else:
            self._live.pop(slot.episode_id, None)
        self._count -= 1
