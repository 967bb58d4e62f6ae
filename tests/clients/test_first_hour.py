"""What a new user meets in the first hour: commands without their argument, one-line errors."""

from __future__ import annotations

from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_server import available_environments

runner = CliRunner()


def test_tasks_without_env_lists_the_installed_environments() -> None:
    result = runner.invoke(app, ["tasks"])
    assert result.exit_code == 0, result.output
    names = available_environments()
    assert "helpdesk" in names
    assert result.output.splitlines()[0] == "installed environments: " + ", ".join(names)
    assert "`mcpgym tasks ENV`" in result.output
