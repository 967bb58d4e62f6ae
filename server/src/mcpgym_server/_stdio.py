"""One episode per process over stdio: ``mcpgym serve ENV --stdio --task T --seed N``.

The episode opens when the process starts and is sealed (termination ``eof``)
when standard input ends, or ``submitted`` if the agent calls ``submit`` first.
SIGTERM, SIGINT, SIGHUP and the other signals whose default action would end the process
(`mcpgym_server._stop_signals`) seal it with termination ``shutdown``, then end the
process with that signal's default action. Works with clients of both protocol eras, since the
process is the episode.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import anyio
from anyio.abc import TaskStatus
from mcp.server import ServerRequestContext
from mcp.server.stdio import stdio_server

from mcpgym_server._bundle import EpisodeMeta, EpisodeStore
from mcpgym_server._environment import Environment
from mcpgym_server._episode import EpisodeManager
from mcpgym_server._logcap import LOG_BUDGET, LOG_VALUE_CAP
from mcpgym_server._mcp_bridge import build_mcp_server
from mcpgym_server._stop_signals import stop_signals


async def _seal_on_signal(
    manager: EpisodeManager, episode_id: list[str], *, task_status: TaskStatus[None]
) -> None:
    # Standard input is read in a worker thread that no cancellation can interrupt, so a
    # signal seals the episode here, then ends the process with the signal's default
    # action (the status a supervisor expects), as uvicorn does for the HTTP server.
    # anyio annotates `Signals`; asyncio takes any number (the real-time ones have no name)
    taken = cast("tuple[signal.Signals, ...]", stop_signals())
    with anyio.open_signal_receiver(*taken) as signals:
        task_status.started()
        async for signum in signals:
            for eid in episode_id:
                if manager.is_open(eid):
                    manager.seal(eid, "shutdown")
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)


async def serve_stdio(
    env: Environment,
    *,
    task: str,
    band: str | None = None,
    seed: int = 0,
    store_dir: str | Path,
    unlocked: bool = False,
    bundle_key: str | None = None,
    stdin: anyio.AsyncFile[str] | None = None,
    stdout: anyio.AsyncFile[str] | None = None,
    announce: Callable[[str], None] | None = None,
    handle_signals: bool = True,
    log_value_cap: int = LOG_VALUE_CAP,
    log_budget: int = LOG_BUDGET,
) -> EpisodeMeta:
    """Serve one episode of ``task@band#seed`` over stdio until end of input.

    Args:
        env: the environment. task, band, seed: the variant (band defaults to the
            family's easiest). store_dir: episode store for the sealed bundle.
        unlocked: mark the bundle as served unlocked.
        bundle_key: sign the bundle with this key (see `mcpgym_server._bundle`).
        stdin, stdout: explicit streams (tests); default the process's own.
        announce: called once with a line naming the opened episode (its id, variant and
            bundle directory); default: written to standard error (standard output is
            the MCP stream).
        handle_signals: on a stop signal (SIGTERM, SIGINT, SIGHUP...: `stop_signals`), seal
            the episode (termination ``shutdown``)
            and end the process with that signal's default action (only from the main
            thread; pass ``False`` to leave signals to the caller).
        log_value_cap, log_budget: the tool-call log's caps (see `EpisodeManager`).

    Returns:
        The sealed episode's metadata (the episode id is also in the bundle path).

    Raises:
        UnknownTaskError, UnknownBandError: before anything is served.
    """
    manager = EpisodeManager(
        env,
        EpisodeStore(store_dir, sign_key=bundle_key),
        unlocked=unlocked,
        log_value_cap=log_value_cap,
        log_budget=log_budget,
    )
    fam = env.family(task)
    opened: list[str] = []  # the episode id, once open (read by the signal handler)
    async with anyio.create_task_group() as tg:
        if handle_signals and threading.current_thread() is threading.main_thread():
            await tg.start(_seal_on_signal, manager, opened)  # before the episode opens
        ep = manager.open(task, band or fam.bands[0], seed)
        opened.append(ep.id)
        where = Path(store_dir) / ep.id
        line = f"mcpgym: episode {ep.id} ({ep.variant.id}) open; bundle: {where}"
        if announce is None:
            print(line, file=sys.stderr, flush=True)
        else:
            announce(line)

        def resolve(ctx: ServerRequestContext[Any, Any]) -> str:
            return ep.id

        server = build_mcp_server(manager, resolve)
        try:
            async with stdio_server(stdin, stdout) as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
        finally:
            meta = manager.seal(ep.id, "eof") if manager.is_open(ep.id) else None
            tg.cancel_scope.cancel()
    return meta or manager.store.read_meta(ep.id)
