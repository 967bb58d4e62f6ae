"""``mcpgym`` starts fast: the CLI, ``--help`` and a stdio episode import nothing heavy.

The OpenAI Agents SDK's stdio client gives up on a server that has not answered
``initialize`` within 5 s, and importing everything eagerly cost ~4 s at load: the campaign,
the run store (sqlite_utils, which pulls in numpy), the vendor adapters and the episode
driver are imported only by the commands that use them (`bench/startup.py` has the
figures). Each check runs in a fresh interpreter and lists the heavy modules it loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HEAVY = (
    "mcpgym_clients.campaign",
    "mcpgym_clients.runstore",
    "mcpgym_clients.driver",
    "mcpgym_clients.adapters",
    "mcpgym_clients.agents.vendors",
    "mcpgym_clients.measure.metrics",
    "sqlite_utils",
    "numpy",
    "scipy",
    "openai",
    "anthropic",
    "httpx",
)
"""Modules that neither ``mcpgym --help`` nor ``mcpgym serve`` may import."""

_REPORT = textwrap.dedent(
    """
    import atexit, json, sys
    HEAVY = {heavy!r}
    def report():
        loaded = sorted(m for m in HEAVY if m in sys.modules)
        print("HEAVY " + json.dumps(loaded), file=sys.stderr, flush=True)
    atexit.register(report)
    sys.argv = ["mcpgym", *{argv!r}]
    from mcpgym_clients.cli import main
    main()
    """
)


def _heavy_loaded(argv: list[str], stdin: str = "") -> tuple[list[str], str]:
    code = _REPORT.format(heavy=HEAVY, argv=argv)
    done = subprocess.run(
        [sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=120
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("HEAVY ")]
    assert lines, f"exit {done.returncode}: {done.stderr[-2000:]}"
    return json.loads(lines[-1].removeprefix("HEAVY ")), done.stdout


def test_importing_the_package_and_the_cli_loads_nothing_heavy() -> None:
    code = (
        "import json, sys, mcpgym_clients, mcpgym_clients.cli\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_help_loads_nothing_heavy() -> None:
    loaded, out = _heavy_loaded(["--help"])
    assert loaded == []
    assert "serve" in out and "eval" in out


@pytest.mark.parametrize("command", [["eval", "--help"], ["show", "--help"]])
def test_each_commands_help_loads_nothing_heavy(command: list[str]) -> None:
    loaded, out = _heavy_loaded(command)
    assert loaded == [] and "Usage" in out


def test_a_stdio_episode_loads_nothing_heavy(tmp_path: Path) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    argv = ["serve", "helpdesk", "--stdio", "--task", "order-status", "--store", str(tmp_path)]
    loaded, out = _heavy_loaded(argv, stdin=json.dumps(initialize) + "\n")
    assert json.loads(out.splitlines()[0])["result"]["serverInfo"]["name"] == "mcpgym-helpdesk"
    assert loaded == []


def test_the_commands_default_run_store_is_the_run_stores() -> None:
    from mcpgym_clients.commands._options import DEFAULT_STORE
    from mcpgym_clients.runstore import DEFAULT_STORE as RUNSTORE_DEFAULT

    assert DEFAULT_STORE == RUNSTORE_DEFAULT
