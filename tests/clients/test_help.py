"""Every command's --help reads well: plain placeholders, whole sentences, no internal words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from mcpgym_clients.cli import app

runner = CliRunner()


def _paths(command: Any, path: list[str]) -> Iterator[list[str]]:
    yield path
    for name, sub in sorted((getattr(command, "commands", None) or {}).items()):
        yield from _paths(sub, [*path, name])


PATHS = list(_paths(typer.main.get_command(app), []))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "mcpgym")
def test_help_has_no_angle_bracket_types_and_no_internal_words(path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert re.findall(r"<(?:bool|str|int|float|path|int range|float range)>", result.output) == []
    assert "issue" not in result.output.lower()


def test_docstring_paragraphs_are_not_broken_mid_sentence() -> None:
    result = runner.invoke(app, ["eval", "--help"], env={"COLUMNS": "200"})
    assert "Running the same command again resumes its unfinished run" in result.output


def test_flags_show_no_placeholder_and_numbers_say_n() -> None:
    out = runner.invoke(app, ["eval", "--help"], env={"COLUMNS": "200"}).output
    (line,) = [ln for ln in out.splitlines() if "--no-baseline" in ln]
    assert re.search(r"--no-baseline\s+Do not run", line), line
    (line,) = [ln for ln in out.splitlines() if "--epochs" in ln]
    assert re.search(r"--epochs\s+N\b", line), line


def test_what_the_user_typed_is_shown_as_typed_in_errors(tmp_path: Path) -> None:
    from mcpgym_clients.runstore import RunStore

    with RunStore(tmp_path / "s.db"):
        pass
    ours = runner.invoke(app, ["show", ":smile:", "--store", str(tmp_path / "s.db")])
    clicks = runner.invoke(app, ["eval", "helpdesk", "--model", "openai-compat:m"])
    assert ":smile:" in ours.output and "😄" not in ours.output
    assert "openai-compat:m" in clicks.output and "Ⓜ" not in clicks.output
