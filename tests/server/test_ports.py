"""Ports: one taken is one line naming it; ``--port 0`` picks a free one and prints its URL."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_server import ServerStartError
from mcpgym_server.runtime import listening_socket

ROOT = Path(__file__).resolve().parents[2]
MCPGYM = [sys.executable, "-c", "from mcpgym_clients.cli import main; main()"]


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def test_a_port_in_use_is_a_server_start_error_naming_it(busy_port: int) -> None:
    with pytest.raises(ServerStartError, match=f"^port {busy_port} on 127.0.0.1 is already in use"):
        listening_socket("127.0.0.1", busy_port)


@pytest.mark.parametrize(
    "command",
    [["serve", "helpdesk", "--no-control-token"], ["grading", "serve", "--token", "t"]],
    ids=["serve", "grading serve"],
)
def test_serving_on_a_port_in_use_says_so_in_one_line(
    command: list[str], busy_port: int, tmp_path: Path
) -> None:
    args = [*command, "--port", str(busy_port), "--store", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert errors == [
        f"error: port {busy_port} on 127.0.0.1 is already in use; stop what holds it, or "
        "choose another with --port (--port 0 picks a free one)"
    ]
    assert "Traceback" not in result.output


@pytest.mark.anyio
async def test_port_0_picks_a_free_port_and_prints_the_url_it_serves(tmp_path: Path) -> None:
    args = ["grading", "serve", "--port", "0", "--token", "t", "--store", str(tmp_path)]
    text = ""
    with anyio.fail_after(60):
        async with await anyio.open_process(
            [*MCPGYM, *args],
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
        ) as proc:
            assert proc.stderr is not None
            async for chunk in proc.stderr:
                text += chunk.decode()
                found = re.search(r"^grading service at (http://127\.0\.0\.1:(\d+))$", text, re.M)
                if found:
                    break
            assert found is not None, text
            assert int(found[2]) != 0
            async with httpx.AsyncClient() as client:
                health = await client.get(f"{found[1]}/healthz")
            assert health.status_code == 200
            # SIGUSR2's default action ended it at once (S2-3): it stops as on SIGTERM now
            proc.send_signal(signal.SIGUSR2)
            async for chunk in proc.stderr:
                text += chunk.decode()
            await proc.wait()
    assert "Finished server process" in text and proc.returncode == -signal.SIGUSR2, text
