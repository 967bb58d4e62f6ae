"""Server processes for the benchmarks: the mcpgym environment server and a bare `mcp` server.

Run as ``python bench/_servers.py env ENV PORT STORE`` or ``python bench/_servers.py bare PORT``.
Each prints ``ready`` on stdout once it accepts connections.
"""

from __future__ import annotations

import sys

import anyio


async def _run(app: object, port: int) -> None:
    from mcpgym_server.serving import serve

    async with serve(app, port=port):
        print("ready", flush=True)
        await anyio.sleep_forever()


def bare_app() -> object:
    """A bare `mcp` server with one trivial tool, same transport settings as mcpgym's."""
    from mcp.server import MCPServer

    server = MCPServer("bare", log_level="WARNING")

    @server.tool()
    async def noop() -> str:
        """Do nothing."""
        return "ok"

    app = server.streamable_http_app(json_response=True)
    return app


def env_app(name: str, store: str) -> object:
    """The mcpgym environment server for ``name``."""
    from mcpgym_server import load_environment
    from mcpgym_server.http import create_app

    return create_app(load_environment(name), store, control_token=None)  # loopback bench


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "bare":
        anyio.run(_run, bare_app(), int(sys.argv[2]))
    else:
        anyio.run(_run, env_app(sys.argv[2], sys.argv[4]), int(sys.argv[3]))
