"""Benchmark: how fast the ``mcpgym`` command starts, against baselines measured in the same run.

Usage::

    uv run python bench/startup.py [--runs 5] [--env helpdesk] [--task order-status]

Each figure is the best (and median) of ``--runs`` fresh processes, wall-clock seconds:

- ``import mcpgym_clients.cli``: what every ``mcpgym`` command pays before it runs;
  baseline: the same import followed by the modules the CLI used to import eagerly (the
  campaign, the run store with sqlite_utils and numpy, the vendor adapters, the driver),
  i.e. the cost before imports were lazy;
- ``mcpgym --help``;
- ``mcpgym serve ENV --stdio``: from process start to the ``initialize`` response on
  standard output (what an MCP client waits for; the OpenAI Agents SDK's stdio client
  gives up after 5 s); baseline: a bare ``mcp`` low-level stdio server with one tool,
  started the same way.

Prints the figures, the ratios to the baselines, and the machine's load average.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

EAGER = (
    "mcpgym_clients.campaign",
    "mcpgym_clients.runstore",
    "mcpgym_clients.adapters",
    "mcpgym_clients.agents.vendors",
    "mcpgym_clients.driver",
    "mcpgym_clients.local",
    "mcpgym_clients.summary",
    "mcpgym_clients.measure.render",
)
"""What ``mcpgym_clients.cli`` imported at its top before the imports were made lazy."""

BARE_SERVER = textwrap.dedent(
    """
    import anyio
    from mcp import types
    from mcp.server import Server
    from mcp.server.stdio import stdio_server

    async def list_tools(ctx, params):
        tool = types.Tool(name="noop", input_schema={"type": "object"})
        return types.ListToolsResult(tools=[tool])

    server = Server("bare", on_list_tools=list_tools)

    async def main():
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
    """
)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench-startup", "version": "0"},
    },
}


def _wall(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def _first_response(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from spawning ``argv`` to its first line on stdout after ``initialize``."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(json.dumps(INITIALIZE) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        elapsed = time.perf_counter() - started
        answer = json.loads(line)
        if answer.get("id") != 1 or "result" not in answer:
            raise RuntimeError(f"{argv[:4]} answered initialize with {line[:200]!r}")
        return elapsed
    finally:
        proc.stdin.close()  # end of input: the episode is sealed (eof)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def _measure(label: str, runs: int, once: Callable[[], float]) -> float:
    once()  # warm the file cache
    times = [once() for _ in range(runs)]
    best, median = min(times), statistics.median(times)
    print(f"  {label:<46} best {best:6.3f} s   median {median:6.3f} s")
    return best


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--task", default="order-status")
    args = parser.parse_args()
    py = sys.executable
    mcpgym = shutil.which("mcpgym", path=str(Path(py).parent)) or "mcpgym"
    load = os.getloadavg()
    print(f"bench/startup.py: {args.runs} runs each, {os.cpu_count()} CPUs, load {load[0]:.2f}")

    print("import of the CLI module")
    imp = _measure(
        "import mcpgym_clients.cli",
        args.runs,
        lambda: _wall([py, "-c", "import mcpgym_clients.cli"]),
    )
    eager = "import mcpgym_clients.cli, " + ", ".join(EAGER)
    imp_base = _measure(
        "baseline: + the eagerly imported modules", args.runs, lambda: _wall([py, "-c", eager])
    )
    print("help")
    helped = _measure("mcpgym --help", args.runs, lambda: _wall([mcpgym, "--help"]))

    print("stdio: process start to the initialize response")
    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare_server.py"
        bare.write_text(BARE_SERVER)
        env = {**os.environ, "MCPGYM_CONTROL_TOKEN": "unused"}
        serve = [mcpgym, "serve", args.env, "--stdio", "--task", args.task, "--store", tmp]
        stdio = _measure(
            f"mcpgym serve {args.env} --stdio", args.runs, lambda: _first_response(serve, env)
        )
        stdio_base = _measure(
            "baseline: bare mcp stdio server",
            args.runs,
            lambda: _first_response([py, str(bare)], env),
        )

    print("ratios (best of runs)")
    print(f"  CLI import, lazy / eager:        {imp / imp_base:5.2f}")
    print(f"  stdio first response / bare mcp: {stdio / stdio_base:5.2f}")
    print(f"  --help {helped:.3f} s, stdio first response {stdio:.3f} s (aim: about 1 s each)")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
