"""Benchmark: the campaign's own process, one change at a time, on the same child servers.

Usage::

    uv run python bench/campaign_ab.py [--seeds 0-4] [--rounds 6] [--concurrency 16]
        [--ways current,split-writes,library-insert] [--tool-calls N]

What ``mcpgym eval helpdesk --agent reference --tasks all --bands all --no-baseline`` does
(`serve_in_processes`, an `EpisodeDriver`, `run_campaign` into a run store on disk, no
progress), but with the environment server and the grading service started once: after
one campaign to warm them (variants generated, reference end states cached, the tool
listing kept), each round runs one campaign per way, in the order ABBA..., on the same
servers and the same driver. A way is a patch of this process, active during its
campaign only, that puts back the code path before one change:

- ``current``: the code as it is;
- ``split-writes``: the driver's pooled streams write as the library does (a request's
  head, its body and the body's empty end each a write of their own: before
  `mcpgym_clients._pooled` sent each request in one write);
- ``library-insert``: `RunStore.add_episode` through sqlite-utils' ``insert`` (before its
  single ``INSERT``); the slot index stays;
- ``gc-unfrozen``: `run_campaign` without `collector_spared` (before it: the objects alive
  at the start traced by every full collection, a young collection every 700 allocations);
- ``unparsed-urls``: request URLs parsed by the libraries on every request (before
  `mcpgym_clients._parsed_urls.ParsedUrlClient` and `ServiceClients._url`);
- ``discover-each``: a ``server/discover`` probe in every episode (before
  `mcpgym_clients.discover_reuse`);
- ``derive-headers``: a reused tool listing absorbed by the SDK in every episode (its
  ``x-mcp-header`` annotations checked and mapped from the schemas again: before
  `mcpgym_clients.tool_listing.adopt_listing`);
- ``lean-http``: the driver's three HTTP clients (MCP, control routes, grading) on
  `bench/_lean_http.py`'s bench-only transport instead of ``httpcore``/``httpcore2`` (no
  pool checks, no ``h11``, no timeouts): what the client's HTTP stack costs an episode above
  the least it could (not a code path of any version: a bound, issue 12 §2);
- ``main``: the three at once (the code path of main before them; the run store's slot
  index stays, which at 140 rows a run makes no difference).

Prints, per campaign, CPU ms per episode of this process, the environment server and the
grading service; then per way the medians, the median of the per-round ratios to the
first way, and the same for the campaign's process relative to the two servers (for a
change that leaves the servers' work alone, this cancels what the machine's load does to
all three processes at once: the figure to trust on a loaded machine).
"""

# ruff: noqa: ASYNC109 - the `timeout` parameters are httpcore's network-stream interface
from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio

from mcpgym_clients import EpisodeDriver, ReferenceAgent, RunStore, run_campaign
from mcpgym_clients._pooled import _backend_class  # pyright: ignore[reportPrivateUsage]
from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.runstore import episode_row
from mcpgym_clients.selection import VariantKey
from mcpgym_server import load_environment

ROLES = ("campaign", "env server", "grading")


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children() -> list[int]:
    """This process's child pids, oldest first (the env server, then the grading service)."""
    out = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        out += [int(p) for p in (task / "children").read_text().split()]

    def started(pid: int) -> int:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])

    return sorted(out, key=lambda pid: (started(pid), pid))


_DRIVER: list[EpisodeDriver] = []
"""The campaigns' driver (``lean-http`` swaps its clients' transports)."""


@contextlib.contextmanager
def _lean_http() -> Iterator[None]:
    """The driver's clients on the bench-only lean transport while active."""
    import httpx
    import httpx2
    from _lean_http import lean_transport_class  # pyright: ignore[reportMissingImports]

    driver = _DRIVER[0]
    clients = [
        (driver._mcp._http, httpx2),  # noqa: SLF001
        (driver._env_http, httpx),  # noqa: SLF001
        (driver._grading_http, httpx),  # noqa: SLF001
    ]
    saved = [(c, c._transport) for c, _ in clients]  # noqa: SLF001
    lean = [lean_transport_class(lib)() for _, lib in clients]
    for (c, _), t in zip(clients, lean, strict=True):
        c._transport = t  # noqa: SLF001
    try:
        yield
    finally:
        for c, t in saved:
            c._transport = t  # noqa: SLF001


@contextlib.contextmanager
def _split_writes() -> Iterator[None]:
    """The pooled streams' ``read``/``write`` as the library's: every write sent as it comes."""
    import httpcore
    import httpcore2

    saved = []
    for core in (httpcore, httpcore2):
        stream = _backend_class(core).stream_class

        async def read(self: Any, max_bytes: int, timeout: float | None = None) -> bytes:
            return await self._inner.read(max_bytes, timeout)  # type: ignore[no-any-return]

        async def write(self: Any, buffer: bytes, timeout: float | None = None) -> None:
            await self._inner.write(buffer, timeout)

        saved.append((stream, stream.read, stream.write))
        stream.read, stream.write = read, write
    try:
        yield
    finally:
        for stream, read, write in saved:
            stream.read, stream.write = read, write


def _library_add_episode(
    self: RunStore, run_id: str, rec: EpisodeRecord, *, attempts: int = 1
) -> int:
    """`RunStore.add_episode` before its single ``INSERT``: sqlite-utils' ``insert``."""
    row = episode_row(run_id, rec, attempts=attempts)
    with self._lock, self.db.conn:  # noqa: SLF001 - the code path before
        self.db.execute(
            "DELETE FROM episodes WHERE run_id = ? AND task = ? AND band = ? "
            "AND seed = ? AND epoch = ?",
            [run_id, rec.task, rec.band, rec.seed, rec.epoch],
        )
        return int(self.db.table("episodes").insert(row).last_pk)  # type: ignore[arg-type]


@contextlib.contextmanager
def _library_insert() -> Iterator[None]:
    saved = RunStore.add_episode
    RunStore.add_episode = _library_add_episode  # type: ignore[method-assign]
    try:
        yield
    finally:
        RunStore.add_episode = saved  # type: ignore[method-assign]


@contextlib.contextmanager
def _gc_unfrozen() -> Iterator[None]:
    """`run_campaign` without `collector_spared`: every full collection traces everything."""
    import mcpgym_clients.campaign as campaign

    saved = campaign.collector_spared
    campaign.collector_spared = contextlib.nullcontext  # type: ignore[assignment]
    try:
        yield
    finally:
        campaign.collector_spared = saved


@contextlib.contextmanager
def _unparsed_urls() -> Iterator[None]:
    """URLs parsed again per request: the library's ``build_request``, the control paths
    merged by ``httpx`` each time."""
    import httpx2

    from mcpgym_clients._parsed_urls import ParsedUrlClient
    from mcpgym_clients.services import ServiceClients

    saved = ParsedUrlClient.build_request, ServiceClients._url  # noqa: SLF001
    ParsedUrlClient.build_request = httpx2.AsyncClient.build_request  # type: ignore[method-assign]
    ServiceClients._url = lambda self, service, http, path: path  # type: ignore[method-assign, assignment]  # noqa: SLF001
    try:
        yield
    finally:
        ParsedUrlClient.build_request, ServiceClients._url = saved  # type: ignore[method-assign]  # noqa: SLF001


@contextlib.contextmanager
def _discover_each() -> Iterator[None]:
    """A ``server/discover`` probe in every episode (before `mcpgym_clients.discover_reuse`)."""
    from mcpgym_clients.discover_reuse import DiscoverResults

    saved = DiscoverResults.prior
    DiscoverResults.prior = lambda self, server, lock, instructions: None  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        DiscoverResults.prior = saved  # type: ignore[method-assign]


@contextlib.contextmanager
def _derive_headers() -> Iterator[None]:
    """Every reused listing absorbed the SDK's way (before `tool_listing.adopt_listing`)."""
    import mcpgym_clients.tool_listing as tool_listing

    saved = tool_listing.adopt_listing
    tool_listing.adopt_listing = lambda *args: False  # type: ignore[assignment]  # noqa: ARG005
    try:
        yield
    finally:
        tool_listing.adopt_listing = saved


@contextlib.contextmanager
def _main() -> Iterator[None]:
    """All the ways above at once: main before this branch (the slot index aside)."""
    with _split_writes(), _gc_unfrozen(), _library_insert():
        yield


WAYS: dict[str, Callable[[], contextlib.AbstractContextManager[None]]] = {
    "current": contextlib.nullcontext,
    "split-writes": _split_writes,
    "library-insert": _library_insert,
    "gc-unfrozen": _gc_unfrozen,
    "unparsed-urls": _unparsed_urls,
    "discover-each": _discover_each,
    "derive-headers": _derive_headers,
    "main": _main,
    "lean-http": _lean_http,
}


async def _campaign(
    driver: EpisodeDriver, variants: list[VariantKey], store: Path, concurrency: int
) -> tuple[float, int]:
    with RunStore(store) as runs:
        t0 = time.perf_counter()
        result = await run_campaign(
            driver,
            ReferenceAgent(),
            variants,
            runs,
            concurrency=concurrency,
            baseline=False,
            show_progress=False,
            resume=False,
        )
    assert all(r.score == 1.0 for r in result.records), "a reference episode failed"
    return time.perf_counter() - t0, len(result.records)


@contextlib.asynccontextmanager
async def warm_campaign(
    env: Any, variants: list[VariantKey], tmp: Path, concurrency: int
) -> AsyncIterator[tuple[EpisodeDriver, list[int]]]:
    """Both servers in child processes under ``tmp``, a driver on them, warmed by one
    reference campaign over ``variants``: yields ``(driver, pids)``, ``pids`` this process's
    then the two servers' (what the campaign benchmarks measure CPU on)."""
    async with serve_in_processes(
        env.name, tmp / "episodes", log_path=tmp / "servers.log"
    ) as servers:
        pids = [os.getpid(), *_children()[:2]]
        async with EpisodeDriver(
            servers.env_url,
            servers.grading_url,
            servers.grading_token,
            control_token=servers.control_token,
            environment=env,
        ) as driver:
            await _campaign(driver, variants, tmp / "warm.db", concurrency)
            yield driver, pids


async def main_async(args: argparse.Namespace) -> None:
    """Start the servers, warm them, run the rounds, print the figures."""
    ways = args.ways.split(",")
    env = load_environment("helpdesk")
    lo, _, hi = args.seeds.partition("-")
    seeds = list(range(int(lo), int(hi or lo) + 1))
    variants = [
        VariantKey(f, b, s) for f in env.families for b in env.family(f).bands for s in seeds
    ]
    figures: dict[str, list[dict[str, float]]] = {w: [] for w in ways}
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        async with warm_campaign(env, variants, tmp, args.concurrency) as (driver, pids):
            _DRIVER[:] = [driver]
            for r in range(args.rounds):
                order = ways if r % 2 == 0 else ways[::-1]
                for way in order:
                    c0 = [_cpu_s(p) for p in pids]
                    with WAYS[way]():
                        wall, n = await _campaign(
                            driver, variants, tmp / f"{way}-{r}.db", args.concurrency
                        )
                    cpu = [(_cpu_s(p) - c) * 1000 / n for p, c in zip(pids, c0, strict=True)]
                    x: dict[str, float] = dict(zip(ROLES, cpu, strict=True))
                    x["all"], x["eps"] = sum(cpu), n / wall
                    figures[way].append(x)
                    load = os.getloadavg()[0]
                    shown = ", ".join(f"{k} {v:.1f}" for k, v in x.items() if k != "eps")
                    print(
                        f"round {r} {way}: {x['eps']:.1f} episodes/s, CPU ms/episode "
                        f"{shown} (load {load:.1f})",
                        flush=True,
                    )
    med = statistics.median
    print(f"\n{len(variants)} episodes a campaign, {args.rounds} rounds, same servers")
    print("| way | episodes/s | CPU ms/episode (all) | campaign | env server | grading |")
    print("|---|---|---|---|---|---|")
    for way, xs in figures.items():
        print(
            f"| {way} | {med(x['eps'] for x in xs):.1f} | {med(x['all'] for x in xs):.1f} | "
            + " | ".join(f"{med(x[k] for x in xs):.1f}" for k in ROLES)
            + " |"
        )
    base = ways[0]
    for way in ways[1:]:
        ratios = {
            k: med(a[k] / b[k] for a, b in zip(figures[way], figures[base], strict=True))
            for k in ("all", *ROLES)
        }
        own = med(
            (a["campaign"] / (a["env server"] + a["grading"]))
            / (b["campaign"] / (b["env server"] + b["grading"]))
            for a, b in zip(figures[way], figures[base], strict=True)
        )
        print(
            f"{way} / {base}, median of per-round ratios: "
            + ", ".join(f"{k} x{v:.3f}" for k, v in ratios.items())
            + f"; the campaign's process relative to the servers x{own:.3f}"
        )


async def tool_calls(args: argparse.Namespace) -> None:
    """``--tool-calls N``: one episode's MCP ``tools/call`` (its first reference call,
    ``--concurrency`` in flight), blocks of N per way alternating ``--rounds`` times; CPU ms
    per call of this process and of the environment server."""
    ways = args.ways.split(",")
    env = load_environment("helpdesk")
    call = env.variant("order-status", "easy", 0).reference[0]
    figures: dict[str, list[list[float]]] = {w: [] for w in ways}
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        async with serve_in_processes(
            env.name, tmp / "episodes", log_path=tmp / "servers.log"
        ) as servers:
            pids = [os.getpid(), _children()[0]]
            async with EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=env,
            ) as driver:
                meta = await driver._request(  # noqa: SLF001
                    "env", "POST", "/episodes", {"task": "order-status", "band": "easy", "seed": 0}
                )
                async with driver._mcp.connect(meta["mcp_url"]) as client:  # noqa: SLF001
                    await client.list_tools()
                    limiter = anyio.Semaphore(args.concurrency)

                    async def one() -> None:
                        async with limiter:
                            await client.call_tool(call.name, dict(call.arguments))

                    for r in range(args.rounds):
                        for way in ways if r % 2 == 0 else ways[::-1]:
                            c0 = [_cpu_s(p) for p in pids]
                            with WAYS[way]():
                                async with anyio.create_task_group() as tg:
                                    for _ in range(args.tool_calls):
                                        tg.start_soon(one)
                            cpu = [
                                (_cpu_s(p) - c) * 1000 / args.tool_calls
                                for p, c in zip(pids, c0, strict=True)
                            ]
                            figures[way].append(cpu)
                            print(
                                f"round {r} {way}: client {cpu[0]:.3f}, env server {cpu[1]:.3f} ms "
                                f"CPU per call (load {os.getloadavg()[0]:.1f})",
                                flush=True,
                            )
    med = statistics.median
    for way in ways[1:]:
        pairs = list(zip(figures[way], figures[ways[0]], strict=True))
        print(
            f"{way} / {ways[0]}: client {med(x[0] for x in figures[way]):.3f} / "
            f"{med(x[0] for x in figures[ways[0]]):.3f} ms (median of ratios "
            f"x{med(a[0] / b[0] for a, b in pairs):.3f}), env server "
            f"{med(x[1] for x in figures[way]):.3f} / {med(x[1] for x in figures[ways[0]]):.3f} ms "
            f"(x{med(a[1] / b[1] for a, b in pairs):.3f})"
        )


def main() -> None:
    """Parse the arguments and run."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="0-4", help="a range, e.g. 0-4")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--ways", default="current,split-writes", help=", ".join(WAYS))
    ap.add_argument("--dir", default=None, help="where run stores and bundles go")
    ap.add_argument(
        "--tool-calls",
        type=int,
        default=0,
        metavar="N",
        help="instead of campaigns: blocks of N tool calls of one episode per way",
    )
    args = ap.parse_args()
    unknown = [w for w in args.ways.split(",") if w not in WAYS]
    if unknown:
        ap.error(f"unknown way {unknown[0]!r}; ways: {', '.join(WAYS)}")
    from mcpgym_server.runtime import run

    run(tool_calls if args.tool_calls else main_async, args)


if __name__ == "__main__":
    main()
