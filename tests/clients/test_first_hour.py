"""What a new user meets in the first hour: commands without their argument, one-line errors."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_clients.plan import CampaignPlan
from mcpgym_server import available_environments

from .test_cli import flat

runner = CliRunner()


def test_tasks_without_env_lists_the_installed_environments() -> None:
    result = runner.invoke(app, ["tasks"])
    assert result.exit_code == 0, result.output
    names = available_environments()
    assert "helpdesk" in names
    assert result.output.splitlines()[0] == "installed environments: " + ", ".join(names)
    assert "`mcpgym tasks ENV`" in result.output


def test_env_url_without_a_grading_token_names_the_variable(monkeypatch: Any) -> None:
    monkeypatch.delenv("MCPGYM_GRADING_TOKEN", raising=False)
    args = ["eval", "helpdesk", "--env-url", "http://127.0.0.1:9", "--grading-url"]
    result = runner.invoke(app, [*args, "http://127.0.0.1:9"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "no grading token: set MCPGYM_GRADING_TOKEN or pass --grading-token" in flat(
        result.output
    )


def test_env_url_pointing_at_nothing_asks_whether_serve_runs_there(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a loopback port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    args = ["eval", "helpdesk", "--env-url", url, "--grading-url", url, "--grading-token", "t"]
    result = runner.invoke(app, [*args, "--store", str(tmp_path / "r.db")], env={"COLUMNS": "300"})
    assert result.exit_code == 1, result.output
    assert f"is `mcpgym serve` running at {url}?" in flat(result.output)


@pytest.mark.parametrize(
    ("variants", "epochs", "line"),
    [
        (1, 1, "plan: toy, 1 variant x 1 epoch = 1 episode of reference"),
        (2, 1, "plan: toy, 2 variants x 1 epoch = 2 episodes of reference"),
        (1, 3, "plan: toy, 1 variant x 3 epochs = 3 episodes of reference"),
    ],
)
def test_the_plan_line_is_plural_only_where_it_should_be(
    variants: int, epochs: int, line: str
) -> None:
    plan = CampaignPlan("toy", "reference", None, variants, epochs, False, 1, variants * epochs, 0)
    assert plan.describe().startswith(line + ";")


def test_grading_serve_prints_an_export_line_and_warns_without_a_bundle_key(
    monkeypatch: Any, tmp_path: Path
) -> None:
    import mcpgym_server.runtime as runtime

    monkeypatch.delenv("MCPGYM_GRADING_TOKEN", raising=False)
    monkeypatch.delenv("MCPGYM_BUNDLE_KEY", raising=False)
    monkeypatch.setattr(runtime, "run_until_stopped", lambda app_, **kw: None)
    result = runner.invoke(
        app, ["grading", "serve", "--store", str(tmp_path)], env={"COLUMNS": "300"}
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"^export MCPGYM_GRADING_TOKEN=\S+$", result.output, re.M), result.output
    assert "warning: no bundle key" in result.output
    assert "signatures are not checked" in result.output
