"""The runtime face: serving environments (HTTP, stdio), episodes in process, their limits.

Trainers, benchmarks and the ``mcpgym`` command line use these names; the modules behind
them (``mcpgym_server._episode``, ``_http``, ``_serving``...) are private. Names are
imported on first use, so that importing this face stays cheap (the HTTP stack, uvicorn
and the MCP server are loaded only by what serves).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcpgym_server._body_limit import MAX_MCP_BODY
    from mcpgym_server._capacity import EPISODE_OVERHEAD, MIN_OPEN, default_max_open, memory_limit
    from mcpgym_server._episode import (
        SANDBOX_CACHE_KIB,
        Episode,
        EpisodeManager,
        new_episode_id,
        replay,
    )
    from mcpgym_server._event_loop import run, uses_uvloop
    from mcpgym_server._http import EPISODE_ID_HEADER, create_app
    from mcpgym_server._item_limit import MAX_MESSAGE_ITEMS
    from mcpgym_server._logcap import LOG_BUDGET, LOG_VALUE_CAP, log_form
    from mcpgym_server._mcp_bridge import episode_instructions
    from mcpgym_server._mcp_tools import tool_definitions
    from mcpgym_server._plain_json import MAX_ARGUMENT_DEPTH, is_plain_json
    from mcpgym_server._rate_limit import (
        DEFAULT_REQUEST_BURST,
        DEFAULT_REQUESTS_PER_SECOND,
        RATE_LIMIT_ERROR,
    )
    from mcpgym_server._seeds import salt_fingerprint, salted_seed
    from mcpgym_server._serving import (
        SEALING_GRACE_S,
        bind_socket,
        listening_socket,
        run_until_stopped,
        serve,
    )
    from mcpgym_server._session_caps import DEFAULT_SESSIONS_PER_EPISODE, SESSION_BYTES
    from mcpgym_server._stdio import serve_stdio
    from mcpgym_server._tools import MAX_STRING_LENGTH

_WHERE = {
    "MAX_MCP_BODY": "_body_limit",
    "EPISODE_OVERHEAD": "_capacity",
    "MIN_OPEN": "_capacity",
    "default_max_open": "_capacity",
    "memory_limit": "_capacity",
    "MAX_ARGUMENT_DEPTH": "_plain_json",
    "SANDBOX_CACHE_KIB": "_episode",
    "Episode": "_episode",
    "EpisodeManager": "_episode",
    "is_plain_json": "_plain_json",
    "new_episode_id": "_episode",
    "replay": "_episode",
    "run": "_event_loop",
    "uses_uvloop": "_event_loop",
    "EPISODE_ID_HEADER": "_http",
    "create_app": "_http",
    "MAX_MESSAGE_ITEMS": "_item_limit",
    "LOG_BUDGET": "_logcap",
    "LOG_VALUE_CAP": "_logcap",
    "log_form": "_logcap",
    "episode_instructions": "_mcp_bridge",
    "tool_definitions": "_mcp_tools",
    "DEFAULT_REQUEST_BURST": "_rate_limit",
    "DEFAULT_REQUESTS_PER_SECOND": "_rate_limit",
    "RATE_LIMIT_ERROR": "_rate_limit",
    "salt_fingerprint": "_seeds",
    "salted_seed": "_seeds",
    "DEFAULT_SESSIONS_PER_EPISODE": "_session_caps",
    "SESSION_BYTES": "_session_caps",
    "SEALING_GRACE_S": "_serving",
    "bind_socket": "_serving",
    "listening_socket": "_serving",
    "run_until_stopped": "_serving",
    "serve": "_serving",
    "serve_stdio": "_stdio",
    "MAX_STRING_LENGTH": "_tools",
}

__all__ = [
    "DEFAULT_REQUESTS_PER_SECOND",
    "DEFAULT_REQUEST_BURST",
    "DEFAULT_SESSIONS_PER_EPISODE",
    "EPISODE_ID_HEADER",
    "EPISODE_OVERHEAD",
    "LOG_BUDGET",
    "LOG_VALUE_CAP",
    "MAX_ARGUMENT_DEPTH",
    "MAX_MCP_BODY",
    "MAX_MESSAGE_ITEMS",
    "MAX_STRING_LENGTH",
    "MIN_OPEN",
    "RATE_LIMIT_ERROR",
    "SANDBOX_CACHE_KIB",
    "SEALING_GRACE_S",
    "SESSION_BYTES",
    "Episode",
    "EpisodeManager",
    "bind_socket",
    "create_app",
    "default_max_open",
    "episode_instructions",
    "is_plain_json",
    "listening_socket",
    "log_form",
    "memory_limit",
    "new_episode_id",
    "replay",
    "run",
    "run_until_stopped",
    "salt_fingerprint",
    "salted_seed",
    "serve",
    "serve_stdio",
    "tool_definitions",
    "uses_uvloop",
]


def __getattr__(name: str) -> Any:
    """Import ``name`` from its private module on first use."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"mcpgym_server.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
