"""One ``server/discover`` per server and lock instead of one per episode, where the server
names what each episode's would answer.

On an episode URL, the 2026-era ``server/discover`` answer of an mcpgym server is the same
for every episode (the protocol versions, the capabilities, the server's identity) except
its ``instructions``: the environment's instructions and the episode's own task. The
server names those instructions in its ``POST /episodes`` answer (``server_instructions``).
`DiscoverResults` keeps the answer of the first episode of a server (base URL) and lock
whose probed instructions equal what the server named for that episode; later episodes of
the same server and lock whose ``POST /episodes`` answer names their instructions get that
answer with their own instructions, parsed anew for each, and their MCP session adopts it
as it adopts a probed one (`mcp.Client` with ``prior_discover``), without a request.

Every episode probes as before where no answer can be reused: an older server that names no
instructions, a probed answer whose instructions differ from what the server named (a
server that says one thing and serves another), the 2025 handshake, or the first episodes
of a server and lock (those in flight before the first probe is kept).
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp import Client
from mcp.types import DiscoverResult


@dataclass(frozen=True)
class Adoptable:
    """A discover answer an episode's MCP session adopts instead of probing.

    Attributes:
        version: the protocol version the probing session negotiated (the client is pinned
            to it).
        result: the episode's discover answer (its own instructions; an object of its own).
    """

    version: str
    result: DiscoverResult


class DiscoverResults:
    """The checked ``server/discover`` answers of a harness, by (server base URL, lock)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], tuple[str, bytes]] = {}
        self.adopted = 0
        """Episodes that adopted a kept answer instead of probing."""

    def prior(self, server: str, lock: str | None, instructions: object) -> Adoptable | None:
        """The answer an episode of ``server`` on ``lock`` adopts without a probe, or ``None``
        (it probes).

        Args:
            server: the environment server's base URL.
            lock: the lock the episode's ``POST /episodes`` answer named (``None``: never
                reused).
            instructions: that answer's ``server_instructions`` (``None`` or not a string:
                an older server; never reused).
        """
        if lock is None or not isinstance(instructions, str):
            return None
        kept = self._kept.get((server, lock))
        if kept is None:
            return None
        version, template = kept
        result = DiscoverResult.model_validate_json(template)
        result.instructions = instructions
        self.adopted += 1
        return Adoptable(version, result)

    def learn(self, server: str, lock: str | None, instructions: object, client: Client) -> None:
        """Keep the discover answer ``client`` (an episode's open MCP client, which probed)
        got, when it can stand for later episodes of ``server`` on ``lock``: a 2026-era
        answer whose instructions are the ``instructions`` the server named for the episode
        in its ``POST /episodes`` answer."""
        if lock is None or not isinstance(instructions, str) or (server, lock) in self._kept:
            return
        session = client.session
        probed, version = session.discover_result, session.protocol_version
        if probed is None or version is None or probed.instructions != instructions:
            return
        template = probed.model_copy(update={"instructions": None})
        self._kept[(server, lock)] = (version, template.model_dump_json(by_alias=True).encode())
