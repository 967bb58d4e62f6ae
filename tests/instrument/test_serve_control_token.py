"""``mcpgym serve`` never serves open control routes by accident: the control token comes
from ``MCPGYM_CONTROL_TOKEN`` (or ``--control-token``), else a random one is made and
printed; an open server needs ``--no-control-token``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from mcpgym_clients import cli
from mcpgym_server import Environment, runtime

from .test_commands import locked  # noqa: F401  (fixture: the toy environment, locked)

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("locked")


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The apps `mcpgym serve` would have run (uvicorn is not started)."""
    apps: list[Any] = []
    monkeypatch.setattr(runtime, "run_until_stopped", lambda app, **kw: apps.append(app))
    return apps


async def _create(app: Any, headers: dict[str, str]) -> int:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
        resp = await http.post("/episodes", json={"task": "copy-secret"}, headers=headers)
    return resp.status_code


def _serve(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(
        cli.app, ["serve", "toyvault", "--store", str(tmp_path / "episodes"), *args], env=env
    )


@pytest.mark.anyio
async def test_without_a_token_serve_makes_one_and_prints_it(
    served: list[Any], tmp_path: Path
) -> None:
    result = _serve(tmp_path, env={"MCPGYM_CONTROL_TOKEN": ""})
    assert result.exit_code == 0, result.output
    match = re.search(r"export MCPGYM_CONTROL_TOKEN=(\S+)", result.output)
    assert match is not None, result.output
    (app,) = served
    assert await _create(app, {}) == 401
    assert await _create(app, {"authorization": f"Bearer {match.group(1)}"}) == 201


@pytest.mark.anyio
async def test_the_token_comes_from_the_variable_and_is_never_printed(
    served: list[Any], tmp_path: Path
) -> None:
    result = _serve(tmp_path, env={"MCPGYM_CONTROL_TOKEN": "s3cret-control"})
    assert result.exit_code == 0, result.output
    assert "s3cret-control" not in result.output and "control token" not in result.output
    (app,) = served
    assert await _create(app, {"authorization": "Bearer wrong"}) == 403
    assert await _create(app, {"authorization": "Bearer s3cret-control"}) == 201


@pytest.mark.anyio
async def test_an_open_server_needs_no_control_token_and_refuses_both(
    served: list[Any],
    tmp_path: Path,
    locked: Environment,  # noqa: F811
) -> None:
    both = _serve(tmp_path, "--no-control-token", env={"MCPGYM_CONTROL_TOKEN": "x"})
    assert both.exit_code == 2 and "not both" in both.output
    result = _serve(tmp_path, "--no-control-token", env={"MCPGYM_CONTROL_TOKEN": ""})
    assert result.exit_code == 0, result.output
    (app,) = served
    assert await _create(app, {}) == 201
