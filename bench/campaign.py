"""Benchmark: a reference campaign end to end over loopback, against the code path before.

Usage::

    uv run python bench/campaign.py [--seeds 0-4] [--concurrency 16] [--rounds 2]
        [--ways before,children] [--trainer-rows 8] [--dir DIR]

What ``mcpgym eval helpdesk --agent reference --tasks all --bands all --no-baseline`` does:
the environment server and the grading service on 127.0.0.1, an `EpisodeDriver`,
`run_campaign` into a run store in a temporary folder (on disk, as ``runs/``). Each round
runs the campaign twice on fresh servers: *cold* (variants generated, reference end
states built, as one ``mcpgym eval`` does) and *warm* (the same again). The ways
(`WAYS`), interleaved round by round, the order rotating, the first the baseline:

- ``before``: ``mcpgym eval`` before it served in child processes, kept callable here:
  both servers in this process (`serve_locally`, one interpreter lock), generators'
  snapshot queries run every time (no `FrozenSnapshot` memo), every run-store commit
  fsynced (``synchronous = FULL``);
- ``children``: today's ``mcpgym eval``: the servers in child processes
  (`serve_in_processes`);
- ``in-process``: today's code with the servers in this process;
- ``processes``: the bench's own server processes (bench/_servers.py);
- ``children-asyncio`` / ``children-uvloop``: ``children`` with the campaign's process and
  both children on the standard asyncio loop (``MCPGYM_UVLOOP=0``) or on uvloop (not a
  dependency: ``uv pip install uvloop`` first); each campaign runs in an event loop of its
  own, so both alternate in one run;
- ``children-plain-pools``: ``children-asyncio`` with the driver's HTTP pools as the
  libraries make them (before `mcpgym_clients._pooled`);
- ``children-list-each``: ``children`` with a ``tools/list`` in every episode (before
  `mcpgym_clients.tool_listing`: no listing reused across episodes).

Prints per way and campaign: episodes/s (start to end of `run_campaign`), the servers'
start-up time, CPU milliseconds per episode of every process involved, of this one and
of the busiest one, the bound they set on two free cores (min(2000 / all, 1000 /
busiest) episodes/s), and HTTP requests per episode by kind; each way's ratios against
the baseline. Then the floor those requests set: the CPU and wall time of a minimal
loopback round trip (``GET /healthz`` on the same uvicorn server, httpx client) and of a
minimal MCP tool call, times the requests per episode; then the trainer path
(`mcpgym_clients.train`'s `Rollouts.in_process`: ASGI, no sockets; before and after the
schema lookup and discover reuse, interleaved) and the same work with no HTTP or MCP at
all (`EpisodeManager` + `grade_bundle`).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import functools
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2

import mcpgym_server._http as server_http  # patched for *before* (tests/test_import_structure)
from mcpgym_clients import EpisodeDriver, ReferenceAgent, RunStore, run_campaign, serve_locally
from mcpgym_clients._parsed_urls import ParsedUrlClient
from mcpgym_clients._pooled import http2_transport
from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_clients.selection import VariantKey
from mcpgym_clients.tool_listing import ToolListings
from mcpgym_server import Environment, load_environment
from mcpgym_server._event_loop import UVLOOP_ENV
from mcpgym_server._snapshot import FrozenSnapshot

Counts = collections.Counter[str]
PHASES = ("cold", "warm")
"""cold: a campaign on fresh servers (variants generated, reference end states built, as
one ``mcpgym eval`` run does); warm: the same campaign again on the same servers."""


def _kind(method: str, url: str, body: bytes) -> str:
    """``POST /episodes``, ``mcp tools/call``...: what one request was."""
    if "/mcp" in url:
        try:
            return "mcp " + str(json.loads(body).get("method"))
        except ValueError:
            return "mcp ?"
    path = httpx.URL(url).path
    if path.startswith("/episodes/") and path.endswith("/end"):
        path = "/episodes/{id}/end"
    return f"{method} {path}"


def _unremembered(self: FrozenSnapshot, sql: str, params: Any = ()) -> Any:
    """`FrozenSnapshot.rows` before it remembered query results: the query runs each time."""
    cur = self.execute(sql, params)
    return [c[0] for c in cur.description or ()], cur.fetchall()


@contextlib.contextmanager
def _before_queries(before: bool) -> Any:
    """While active, generators' snapshot queries in this process are not remembered."""
    if not before:
        yield
        return
    remembered = FrozenSnapshot.rows
    FrozenSnapshot.rows = _unremembered  # type: ignore[method-assign]
    try:
        yield
    finally:
        FrozenSnapshot.rows = remembered  # type: ignore[method-assign]


@contextlib.contextmanager
def _before_server(before: bool) -> Any:
    """While active, `create_app` builds MCP servers without the tool-schema lookup."""
    original = server_http.build_mcp_server
    if not before:
        yield
        return

    def build(*args: Any, **kwargs: Any) -> Any:
        server = original(*args, **kwargs)
        server.get_tool_input_schema = None  # the SDK falls back to a tools/list per call
        return server

    server_http.build_mcp_server = build  # type: ignore[assignment]
    try:
        yield
    finally:
        server_http.build_mcp_server = original  # type: ignore[assignment]


@contextlib.contextmanager
def _h11_children(active: bool) -> Any:
    """While active, child processes started here serve HTTP with h11 (bench/_h11)."""
    if not active:
        yield
        return
    saved = {k: os.environ.get(k) for k in ("MCPGYM_BENCH_HTTP", "PYTHONPATH")}
    hook = str(Path(__file__).resolve().parent / "_h11")
    os.environ["MCPGYM_BENCH_HTTP"] = "h11"
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (hook, saved["PYTHONPATH"]) if p)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.asynccontextmanager
async def _driver(
    servers: Any, env: Environment, plain_pools: bool, counts: Counts, list_each: bool = False
) -> AsyncIterator[EpisodeDriver]:
    async def count(request: Any) -> None:
        named = request.headers.get("mcp-method")  # 2026 era: no body parsed to count
        if named:
            counts[f"mcp {named}"] += 1
        else:
            counts[_kind(request.method, str(request.url), request.content)] += 1

    limits = {"max_connections": 100, "max_keepalive_connections": 20, "keepalive_expiry": 2.0}
    plain: dict[str, Any] = {}
    if plain_pools:  # the libraries' own pools: an idle check rebuilds the socket's
        # attributes, with a getpeername (`mcpgym_clients._pooled`)
        mcp_transport: Any = httpx2.AsyncHTTPTransport(limits=httpx2.Limits(**limits))
        plain = {
            f"{role}_transport": httpx.AsyncHTTPTransport(limits=httpx.Limits(**limits))
            for role in ("env", "grading")
        }
    else:
        mcp_transport = http2_transport(limits=httpx2.Limits(**limits), trust_env=False)
    mcp_http = ParsedUrlClient(  # as the driver makes it (`McpConnections`)
        trust_env=False, event_hooks={"request": [count]}, transport=mcp_transport
    )
    driver = EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=env,
        mcp_http=mcp_http,
        **plain,
    )
    for http in (driver._env_http, driver._grading_http):  # noqa: SLF001 - counting only
        http.event_hooks["request"].append(count)
    if list_each:  # no listing is ever checked against the lock, so none is reused

        async def unknown(lock: str) -> None:
            return None

        driver._listings = ToolListings(unknown)  # noqa: SLF001 - the way before
    async with mcp_http, driver:
        yield driver


@dataclasses.dataclass
class _Spawned:
    env_url: str
    grading_url: str
    grading_token: str
    control_token: str
    pids: list[int]


def _children_pids() -> list[int]:
    """The pids of this process's children (the servers of `serve_in_processes`), oldest
    first: the environment server, then the grading service (started in that order)."""
    me = os.getpid()
    out = []
    for task in Path(f"/proc/{me}/task").iterdir():
        out += [int(p) for p in (task / "children").read_text().split()]

    def started(pid: int) -> int:  # field 22 of /proc/PID/stat: start time in clock ticks
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])

    return sorted(out, key=lambda pid: (started(pid), pid))


SERVER_ROLES = ("env server", "grading")
"""What each server process is, in the order of `_children_pids` and `_Spawned.pids`."""


def start_py_spy(pid: int, out: Path, rate: int = 200) -> subprocess.Popen[bytes]:
    """``py-spy record`` of process ``pid`` at ``rate`` samples/s into ``out`` (raw format,
    read with ``bench/_shares.py``); stop it with SIGINT to have the profile written."""
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen(
        [str(spy), "record", "--pid", str(pid), "-r", str(rate), "-f", "raw", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@contextlib.contextmanager
def _py_spy(pids: list[int], out_dir: str | None, tag: str) -> Any:
    """While active, ``py-spy record`` samples this process and each server process
    (``--py-spy DIR``): ``DIR/TAG-ROLE.raw``, read with ``bench/_shares.py``. No-op without
    a folder."""
    if not out_dir:
        yield
        return
    roles = [(os.getpid(), "campaign"), *zip(pids, SERVER_ROLES, strict=False)]
    procs = [
        start_py_spy(pid, Path(out_dir) / f"{tag}-{role.replace(' ', '-')}.raw")
        for pid, role in roles
    ]
    try:
        yield
    finally:
        for proc in procs:
            proc.send_signal(2)  # SIGINT: py-spy writes its profile and exits
            proc.wait(30)


def _cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of processes (Linux ``/proc``)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _start(env: Environment, store: Path, before: bool) -> tuple[_Spawned, list[Any]]:
    """Start the environment server and the grading service, a process each."""
    from mcpgym_server.runtime import bind_socket

    def free_port() -> int:
        sock = bind_socket()
        port = int(sock.getsockname()[1])
        sock.close()
        return port

    store.mkdir(parents=True)
    key, token, control = (secrets.token_urlsafe(24) for _ in range(3))
    env_port, grading_port = free_port(), free_port()
    mode = "no-schema-lookup" if before else "current"
    helper = str(Path(__file__).resolve().parent / "_servers.py")
    argvs = [
        ["signed-env", env.name, str(env_port), str(store), key, control, mode],
        ["grading", str(grading_port), str(store), token, key],
    ]
    procs = [
        subprocess.Popen([sys.executable, helper, *a], stdout=subprocess.PIPE, text=True)
        for a in argvs
    ]
    for proc in procs:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError("a server process failed to start")
    spawned = _Spawned(
        f"http://127.0.0.1:{env_port}",
        f"http://127.0.0.1:{grading_port}",
        token,
        control,
        [p.pid for p in procs],
    )
    return spawned, procs


@contextlib.asynccontextmanager
async def _spawn(env: Environment, store: Path, before: bool) -> AsyncIterator[_Spawned]:
    """The environment server and the grading service, one process each (two more cores)."""
    spawned, procs = await anyio.to_thread.run_sync(_start, env, store, before)
    try:
        yield spawned
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)


async def one_campaign(
    env: Environment,
    variants: list[VariantKey],
    concurrency: int,
    before: bool,
    tmp: Path,
    servers_mode: str = "in-process",
    spy: tuple[str | None, str] = (None, ""),
    plain_pools: bool = False,
    list_each: bool = False,
) -> list[dict[str, Any]]:
    """Run a campaign twice on fresh servers (cold, then warm: variants generated and
    reference end states cached); each one's episodes/s, CPU ms per episode (all
    processes, this one, and each server process's under ``per_process``), requests.
    ``spy``: (folder, tag) to sample the processes with py-spy (none by default);
    ``plain_pools``: the HTTP clients' pools as the libraries make them; ``list_each``: a
    ``tools/list`` in every episode."""
    with _before_queries(before):
        return await _one_campaign(
            env, variants, concurrency, before, tmp, servers_mode, spy, plain_pools, list_each
        )


async def _one_campaign(
    env: Environment,
    variants: list[VariantKey],
    concurrency: int,
    before: bool,
    tmp: Path,
    servers_mode: str,
    spy: tuple[str | None, str],
    plain_pools: bool,
    list_each: bool = False,
) -> list[dict[str, Any]]:
    type(env)._variant.cache_clear()  # noqa: SLF001 - cold: variants generated again
    env._generation_db._memo.clear()  # type: ignore[attr-defined]  # noqa: SLF001 - and queried
    counts: Counts = collections.Counter()
    store_dir = Path(tempfile.mkdtemp(dir=tmp))
    started = time.perf_counter()
    servers_cm: Any
    if servers_mode == "processes":
        servers_cm = _spawn(env, store_dir / "episodes", False)
        servers = await servers_cm.__aenter__()
    elif servers_mode in ("children", "children-h11"):
        servers_cm = serve_in_processes(
            env.name, store_dir / "episodes", log_path=store_dir / "servers.log"
        )
        with _h11_children(servers_mode == "children-h11"):
            servers = await servers_cm.__aenter__()
    else:
        servers_cm = serve_locally(env, store_dir / "episodes")
        servers = await servers_cm.__aenter__()
    start_s = time.perf_counter() - started
    pids = getattr(servers, "pids", None) or _children_pids()
    out: list[dict[str, Any]] = []
    try:
        async with _driver(servers, env, plain_pools, counts, list_each) as driver:
            await driver.server_info()
            for i in range(2):  # cold: nothing generated or cached yet; warm: the same again
                counts.clear()
                with RunStore(store_dir / f"runs-{i}.db") as store:
                    if before:  # the run store before: every episode's commit fsynced
                        store.db.execute("PRAGMA synchronous = FULL")
                    t0, c0 = time.perf_counter(), time.process_time()
                    s0 = [_cpu_s([p]) for p in pids]
                    with _py_spy(pids, spy[0], f"{spy[1]}-{PHASES[i]}"):
                        result = await run_campaign(
                            driver,
                            ReferenceAgent(),
                            variants,
                            store,
                            concurrency=concurrency,
                            baseline=False,
                            show_progress=False,
                            resume=False,
                        )
                        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                        each = [_cpu_s([p]) - c for p, c in zip(pids, s0, strict=True)]
                    server_cpu = sum(each)
                assert all(r.score == 1.0 for r in result.records), "a reference episode failed"
                n = len(result.records)
                counts.pop("GET /tasks", None)
                out.append(
                    {
                        "eps": n / wall,
                        "cpu_ms": (cpu + server_cpu) * 1000 / n,
                        "busiest_ms": max([cpu, *each]) * 1000 / n,
                        "client_cpu_ms": cpu * 1000 / n,
                        "per_process": {
                            role: c * 1000 / n for role, c in zip(SERVER_ROLES, each, strict=False)
                        },
                        "requests": collections.Counter(counts),
                        "n": n,
                        "start_s": start_s,
                    }
                )
    finally:
        await servers_cm.__aexit__(None, None, None)
    return out


async def floor(env: Environment, n: int, concurrency: int, tmp: Path) -> dict[str, float]:
    """CPU and wall ms of minimal loopback round trips on the same servers and clients
    (``n`` HTTP round trips, at least 1: raises ValueError below)."""
    if n < 1:
        raise ValueError(f"the floor needs at least one round trip, not {n}")
    # no per-episode rate limit: the MCP floor sends its calls to one episode back to back
    async with serve_locally(
        env, Path(tempfile.mkdtemp(dir=tmp)), max_requests_per_second=None
    ) as servers:
        async with httpx.AsyncClient(base_url=servers.env_url, trust_env=False) as http:
            await http.get("/healthz")
            limiter = anyio.CapacityLimiter(concurrency)

            async def get() -> None:
                async with limiter:
                    (await http.get("/healthz")).raise_for_status()

            t0, c0 = time.perf_counter(), time.process_time()
            async with anyio.create_task_group() as tg:
                for _ in range(n):
                    tg.start_soon(get)
            http_wall, http_cpu = time.perf_counter() - t0, time.process_time() - c0
        # a minimal MCP tool call of an episode: the cheapest read tool, one episode
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
                call = env.variant("order-status", "easy", 0).reference[0]
                await client.call_tool(call.name, dict(call.arguments))
                m = max(n // 4, 50)
                t0, c0 = time.perf_counter(), time.process_time()
                for _ in range(m):
                    await client.call_tool(call.name, dict(call.arguments))
                mcp_wall, mcp_cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "http_cpu_ms": http_cpu * 1000 / n,
        "http_wall_ms": http_wall * 1000 / n,
        "mcp_cpu_ms": mcp_cpu * 1000 / m,
        "mcp_wall_ms": mcp_wall * 1000 / m,
    }


def in_process(env: Environment, variants: list[VariantKey], tmp: Path) -> dict[str, float]:
    """The trainer path without HTTP: `EpisodeManager` open, reference calls, seal, grade."""
    from mcpgym_grading import ReferenceCache, grade_bundle
    from mcpgym_server import EpisodeManager, EpisodeStore

    store = EpisodeStore(Path(tempfile.mkdtemp(dir=tmp)))
    manager = EpisodeManager(env, store, max_open=64)
    cache = ReferenceCache()

    def episode(v: VariantKey) -> float:
        variant = env.variant(v.task, v.band, v.seed)
        ep = manager.open(v.task, v.band, v.seed)
        for c in variant.reference:
            manager.call(ep.id, c.name, dict(c.arguments))
        manager.seal(ep.id, "submitted", answer=variant.answer)
        return grade_bundle(store.read(ep.id), env, reference_cache=cache).score

    for v in variants:  # variants generated and reference end states cached, as in training
        episode(v)
    t0, c0 = time.perf_counter(), time.process_time()
    scores = [episode(v) for v in variants for _ in range(2)]
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert all(s == 1.0 for s in scores)
    return {"eps": len(scores) / wall, "cpu_ms": cpu * 1000 / len(scores)}


async def trainer(env: Environment, rows: int, group: int, before: bool) -> dict[str, float]:
    """`Rollouts.in_process` (the trainer path: ASGI, no sockets): ``rows`` easy variants
    in groups of ``group`` (reference policy), once to warm up, then measured."""
    from mcpgym_clients.train import Rollouts, training_rows

    picked = training_rows(env.name, bands=["easy"], seeds=range(rows))[:rows]
    with _before_server(before), _before_queries(before):
        async with Rollouts.in_process(env, concurrency=group) as ro:
            await ro.rollout_groups(picked, ReferenceAgent(), n=group)
            t0, c0 = time.perf_counter(), time.process_time()
            groups = await ro.rollout_groups(picked, ReferenceAgent(), n=group)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert all(r == 1.0 for g in groups for r in g.rewards), "a reference rollout failed"
    n = rows * group
    return {"eps": n / wall, "cpu_ms": cpu * 1000 / n}


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


WAYS: dict[str, tuple[bool, str]] = {
    "in-process": (False, "in-process"),
    "children": (False, "children"),
    "children-h11": (False, "children-h11"),
    "processes": (False, "processes"),
    "before": (True, "in-process"),
    "children-asyncio": (False, "children"),
    "children-uvloop": (False, "children"),
    "children-plain-pools": (False, "children"),
    "children-list-each": (False, "children"),
}
"""Each way: (the code path before child servers, where the servers run). ``before``:
``mcpgym eval`` before it served in child processes: servers in process (`serve_locally`),
generators' snapshot queries run every time, every run-store commit fsynced;
``in-process``: today's code with the servers in process; ``children``:
`serve_in_processes`, what ``mcpgym eval`` and ``mcpgym demo`` do now; ``children-h11``:
the same with the servers' HTTP parsed by h11 (before httptools; bench/_h11); ``processes``:
the bench's own server processes (bench/_servers.py); ``children-asyncio`` and
``children-uvloop``: ``children`` with all three processes on the standard asyncio loop
(``MCPGYM_UVLOOP=0``) or on uvloop (`LOOPS`); ``children-plain-pools``:
``children-asyncio`` with the driver's HTTP pools as the libraries make them (before
`mcpgym_clients._pooled`); ``children-list-each``: ``children`` with a ``tools/list`` in
every episode (before `mcpgym_clients.tool_listing`)."""

LOOPS: dict[str, bool] = {
    "children-asyncio": False,
    "children-uvloop": True,
    "children-plain-pools": False,
}
"""Ways that pin the event loop of the campaign's process and of its child servers
(``MCPGYM_UVLOOP``); every other way runs on what `uses_uvloop` says."""


def _on_loop(way: str, func: Any, *args: Any) -> Any:
    """Run ``func(*args)`` in an event loop of its own: the one `LOOPS` pins for ``way``
    (its child processes inherit ``MCPGYM_UVLOOP``), else the default (`run`)."""
    from mcpgym_server.runtime import run

    if way not in LOOPS:
        return run(func, *args)
    saved = os.environ.get(UVLOOP_ENV)
    os.environ[UVLOOP_ENV] = "1" if LOOPS[way] else "0"
    try:
        return anyio.run(func, *args, backend_options={"use_uvloop": LOOPS[way]})
    finally:
        if saved is None:
            os.environ.pop(UVLOOP_ENV, None)
        else:
            os.environ[UVLOOP_ENV] = saved


def main() -> None:
    """Run the rounds and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0-4")
    ap.add_argument("--concurrency", type=int, default=16, help="as `mcpgym eval` runs reference")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument(
        "--floor-requests",
        type=int,
        default=2000,
        help="GET /healthz round trips of the floor (the MCP floor: a quarter, at least 50); "
        "0 leaves the floor out",
    )
    ap.add_argument(
        "--ways",
        default="before,children",
        help=f"comma-separated, the first is the baseline; of: {', '.join(WAYS)}",
    )
    ap.add_argument(
        "--trainer-rows", type=int, default=8, help="rows x 8 rollouts for the trainer path"
    )
    ap.add_argument(
        "--dir",
        default=None,
        help="where run stores and bundles go (default: the system's temporary directory, "
        "on disk as `mcpgym eval`'s runs/; /dev/shm leaves fsync out)",
    )
    ap.add_argument(
        "--py-spy",
        default=None,
        metavar="DIR",
        help="sample this process and each server process with py-spy (in this venv) during "
        "the campaigns: DIR/WAY-rROUND-PHASE-ROLE.raw, read with bench/_shares.py",
    )
    args = ap.parse_args()
    if args.floor_requests < 0:
        ap.error(f"--floor-requests must be 0 (no floor) or more, not {args.floor_requests}")
    ways = args.ways.split(",")
    unknown = [w for w in ways if w not in WAYS]
    if unknown:
        ap.error(f"unknown way {unknown[0]!r}; ways: {', '.join(WAYS)}")
    env = load_environment("helpdesk")
    variants = [
        VariantKey(f, b, s)
        for f in env.families
        for b in env.family(f).bands
        for s in _seeds(args.seeds)
    ]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        runs: dict[str, list[list[dict[str, Any]]]] = {w: [] for w in ways}
        for r in range(args.rounds):  # interleaved, the order rotating
            for way in ways[r % len(ways) :] + ways[: r % len(ways)]:
                before, servers_mode = WAYS[way]
                res = _on_loop(
                    way,
                    functools.partial(
                        one_campaign,
                        servers_mode=servers_mode,
                        spy=(args.py_spy, f"{way}-r{r}"),
                        plain_pools=way == "children-plain-pools",
                        list_each=way == "children-list-each",
                    ),
                    env,
                    variants,
                    args.concurrency,
                    before,
                    tmp,
                )
                runs[way].append(res)
                for phase, x in zip(PHASES, res, strict=True):
                    split = "".join(f", {v:.1f} {k}" for k, v in x["per_process"].items())
                    print(
                        f"round {r} {way} {phase}: {x['eps']:.1f} episodes/s, "
                        f"{x['cpu_ms']:.1f} ms CPU ({x['client_cpu_ms']:.1f} in this process"
                        f"{split})",
                        flush=True,
                    )
        train: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for r in range(args.rounds if args.trainer_rows else 0):
            for way in ("before", "after") if r % 2 == 0 else ("after", "before"):
                train[way].append(
                    _on_loop(way, trainer, env, args.trainer_rows, 8, way == "before")
                )
        fl = (  # 0: no floor (it divided by zero: stop 26)
            _on_loop("", floor, env, args.floor_requests, args.concurrency, tmp)
            if args.floor_requests
            else None
        )
        ip = in_process(env, variants, tmp)
    med = statistics.median
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\n{len(variants)} episodes a campaign, concurrency {args.concurrency}, "
        f"medians of {args.rounds} rounds, load average {load:.1f} at the end"
    )
    print(
        "| way | campaign | episodes/s | servers start s | CPU ms/episode (all) "
        "| of it here | busiest process | bound on 2 free cores | requests/episode |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    per_ep: dict[str, float] = {}
    for i, phase in enumerate(PHASES):
        for way, rs in runs.items():
            xs = [r[i] for r in rs]
            reqs = xs[-1]["requests"]
            per_ep[way] = sum(reqs.values()) / xs[-1]["n"]
            start = f"{med(x['start_s'] for x in xs):.2f}" if i == 0 else ""
            print(
                f"| {way} | {phase} | {med(x['eps'] for x in xs):.1f} | {start} "
                f"| {med(x['cpu_ms'] for x in xs):.1f} "
                f"| {med(x['client_cpu_ms'] for x in xs):.1f} "
                f"| {med(x['busiest_ms'] for x in xs):.1f} "
                f"| {med(min(2000 / x['cpu_ms'], 1000 / x['busiest_ms']) for x in xs):.0f} "
                f"| {per_ep[way]:.2f} |"
            )
    for i, phase in enumerate(PHASES):
        for way, rs in runs.items():
            xs = [r[i] for r in rs]
            roles = xs[-1]["per_process"]
            if roles:
                shown = ", ".join(
                    f"{role} {med(x['per_process'][role] for x in xs):.1f}" for role in roles
                )
                print(
                    f"CPU ms per episode by process, {way}, {phase}: campaign "
                    f"{med(x['client_cpu_ms'] for x in xs):.1f}, {shown}"
                )
    base = ways[0]
    for way in ways[1:]:
        for i, phase in enumerate(PHASES):
            new = [r[i] for r in runs[way]]
            old = [r[i] for r in runs[base]]
            ratio = med(x["eps"] for x in new) / med(x["eps"] for x in old)
            cpu = med(x["cpu_ms"] for x in new) / med(x["cpu_ms"] for x in old)
            here = med(x["client_cpu_ms"] for x in new) / med(x["client_cpu_ms"] for x in old)
            print(
                f"{way}/{base}, {phase}: episodes/s x{ratio:.2f}, CPU per episode x{cpu:.2f} "
                f"(in the campaign's process x{here:.2f})"
            )
    for way, rs in runs.items():
        reqs = rs[-1][0]["requests"]
        shown = ", ".join(f"{k} {v / rs[-1][0]['n']:.2f}" for k, v in sorted(reqs.items()))
        print(f"requests per episode, {way}, cold: {shown}")
    reqs = per_ep[ways[-1]]
    if fl is None:
        print("\nfloor: not measured (--floor-requests 0)")
    else:
        print(
            f"\nfloor: GET /healthz round trip {fl['http_cpu_ms']:.2f} ms CPU "
            f"({fl['http_wall_ms']:.2f} ms wall at concurrency {args.concurrency}); "
            f"MCP tools/call {fl['mcp_cpu_ms']:.2f} ms CPU "
            f"({fl['mcp_wall_ms']:.2f} ms wall, one at a time)"
        )
        mcp = reqs - 2  # POST /episodes and POST /grades are plain HTTP, the rest MCP
        http_floor = reqs * fl["http_cpu_ms"]
        mcp_floor = 2 * fl["http_cpu_ms"] + mcp * fl["mcp_cpu_ms"]
        print(
            f"{reqs:.2f} requests per episode x {fl['http_cpu_ms']:.2f} ms = {http_floor:.1f} ms "
            f"CPU: at most {1000 / http_floor:.0f} episodes/s on one core, {2000 / http_floor:.0f} "
            f"on two, for bare HTTP round trips; as MCP calls ({mcp:.2f} of them at "
            f"{fl['mcp_cpu_ms']:.2f} ms): {mcp_floor:.1f} ms, at most {1000 / mcp_floor:.0f} "
            f"episodes/s on one core, {2000 / mcp_floor:.0f} on two"
        )
    for way, xs in train.items():
        if xs:
            print(
                f"trainer path (Rollouts.in_process), {way}: "
                f"{med(x['eps'] for x in xs):.1f} rollouts/s, "
                f"{med(x['cpu_ms'] for x in xs):.1f} ms CPU each"
            )
    if train["after"]:
        ratio = med(x["eps"] for x in train["after"]) / med(x["eps"] for x in train["before"])
        cpu = med(x["cpu_ms"] for x in train["after"]) / med(x["cpu_ms"] for x in train["before"])
        print(f"trainer path after/before: rollouts/s x{ratio:.2f}, CPU x{cpu:.2f}")
    print(
        f"in process (EpisodeManager + grade_bundle, no HTTP): {ip['eps']:.0f} episodes/s, "
        f"{ip['cpu_ms']:.2f} ms CPU each"
    )


if __name__ == "__main__":
    main()
