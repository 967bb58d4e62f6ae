"""Bench-only start-up hook (on ``PYTHONPATH`` for bench/round_trips.py): with
``MCPGYM_BENCH_ACCESS=DIR`` every process of an ``mcpgym eval`` counts what it is asked
and what it spends, and writes ``DIR/<pid>.json`` when it exits:

- a server process (uvicorn serves in it): each request it is sent, by kind (``POST
  /episodes``, ``mcp tools/call``...: the JSON-RPC method of an MCP request, read from
  its body), and the process's CPU seconds;
- the ``mcpgym`` command: each request its HTTP clients send (httpx and httpx2), by the
  same kinds, and the CPU of its process and of the thread running its event loop while
  `run_campaign` runs (start-up, the servers' start and the summary left out).

``MCPGYM_BENCH_WAY`` names a way of bench/round_trips.py (a patch of the ``mcpgym``
process back to a code path before a change); the hook applies it before the command
runs. Nothing else changes."""

import os

if os.environ.get("MCPGYM_BENCH_ACCESS"):
    from _access_hook import install  # beside this file

    install(os.environ["MCPGYM_BENCH_ACCESS"], os.environ.get("MCPGYM_BENCH_WAY", ""))
