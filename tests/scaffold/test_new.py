"""`mcpgym new`: name and target checks, and what a scaffold contains (built, linted, tested)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mcpgym_clients.scaffold as scaffold_module
from mcpgym_clients.cli import app
from mcpgym_clients.scaffold import (
    MAX_NAME_LENGTH,
    PLACEHOLDER,
    Names,
    Scaffold,
    ScaffoldError,
    names_for,
    render,
    scaffold,
    write_template,
)

runner = CliRunner()

LONG_NAME = "x" + "-ab12" * ((MAX_NAME_LENGTH - 1) // 5)
"""The longest kind of name: every generated line must still fit in 100 columns."""


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Scaffold:
    return scaffold(LONG_NAME, tmp_path_factory.mktemp("new") / "dist")


@pytest.mark.parametrize(
    ("name", "names"),
    [
        ("warehouse", Names("warehouse", "mcpgym-warehouse", "mcpgym_warehouse")),
        ("crm-lite2", Names("crm-lite2", "mcpgym-crm-lite2", "mcpgym_crm_lite2")),
    ],
)
def test_names_derive_the_distribution_and_the_package(name: str, names: Names) -> None:
    assert names_for(name) == names


@pytest.mark.parametrize(
    "name", ["", "CRM", "crm_lite", "-crm", "crm-", "crm--lite", "2crm", "crm lite", "x" * 41]
)
def test_bad_names_are_refused_with_what_a_name_may_be(name: str) -> None:
    with pytest.raises(ScaffoldError, match="lowercase letters, digits and single dashes"):
        names_for(name)


def test_render_replaces_every_placeholder_in_one_pass() -> None:
    names = names_for("yourenv-two")
    text = "mcpgym_yourenv mcpgym-yourenv yourenv"
    assert render(text, names) == "mcpgym_yourenv_two mcpgym-yourenv-two yourenv-two"


def test_the_cli_refuses_a_bad_name_in_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", "Bad_Name", "--dir", str(tmp_path / "x")])
    assert result.exit_code == 2  # a usage error, like a bad option
    assert flat(result.output).startswith("error: environment name 'Bad_Name' must be at most")
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("helpdesk", "a package `mcpgym_helpdesk` is already installed"),
        ("server", "a package `mcpgym_server` is already installed"),
    ],
)
def test_the_cli_refuses_a_name_that_is_taken(tmp_path: Path, name: str, message: str) -> None:
    result = runner.invoke(app, ["new", name, "--dir", str(tmp_path / "x")])
    assert result.exit_code == 1
    assert flat(result.output) == f"error: {message}; choose another environment name"


def test_the_cli_refuses_a_non_empty_folder_and_leaves_it_alone(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = runner.invoke(app, ["new", "warehouse", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert (
        flat(result.output) == f"error: {tmp_path} is not empty; give --dir a new or empty folder"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_scaffold_has_the_distribution_layout(made: Scaffold) -> None:
    pkg = f"src/{made.names.package}"
    expected = {
        ".gitignore",
        "README.md",
        "pyproject.toml",
        "tests/test_family.py",
        "tests/test_tools.py",
        *(
            f"{pkg}/{f}"
            for f in (
                "__init__.py",
                "env.py",
                "families.py",
                "tools.py",
                "data/build_snapshot.py",
                "data/schema.sql",
                "data/seed_rows.json",
                "data/snapshot.db",
            )
        ),
    }
    assert expected <= set(made.files)
    pyproject = (made.root / "pyproject.toml").read_text()
    assert f'name = "{made.names.distribution}"' in pyproject
    assert f'{made.names.env} = "{made.names.package}:environment"' in pyproject


def test_no_placeholder_is_left(made: Scaffold) -> None:
    left = [
        f
        for f in made.files
        if not f.endswith(".db") and PLACEHOLDER in (made.root / f).read_text() + f
    ]
    assert left == []


def test_the_snapshot_is_built_deterministically_and_declared(
    made: Scaffold, tmp_path: Path
) -> None:
    data = made.root / "src" / made.names.package / "data"
    built = (data / "snapshot.db").read_bytes()
    assert hashlib.sha256(built).hexdigest() == made.snapshot_sha256
    env_py = (data.parent / "env.py").read_text()
    assert f'SNAPSHOT_SHA256 = "{made.snapshot_sha256}"' in env_py
    again = subprocess.run(
        [sys.executable, str(data / "build_snapshot.py"), "--out", str(tmp_path / "again.db")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert again.stdout.strip().endswith(f"sha256 {made.snapshot_sha256}")
    assert (tmp_path / "again.db").read_bytes() == built
    assert (data.parent / "env.py").read_text() == env_py  # --out leaves env.py alone


@pytest.mark.parametrize("name", ["a", LONG_NAME])
def test_the_template_passes_ruff_for_short_and_long_names(tmp_path: Path, name: str) -> None:
    write_template(tmp_path, names_for(name))
    for args in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *args, "--no-cache", str(tmp_path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_scaffolds_own_tests_pass(made: Scaffold) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=made.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


def test_the_cli_refuses_a_signer_without_an_email_before_writing(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", "warehouse", "--dir", str(tmp_path), "--by", "Jane"])
    assert result.exit_code == 1
    assert flat(result.output) == (
        "error: --by 'Jane' must be a name and an email: \"Jane Doe <jane@example.org>\""
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("existed", [True, False], ids=["empty-folder", "new-folder"])
def test_a_failed_step_leaves_no_half_made_distribution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existed: bool
) -> None:
    monkeypatch.setattr(scaffold_module, "FAMILY", "no-such-family")  # signing really fails
    root = tmp_path / "dist"
    if existed:
        root.mkdir()
    with pytest.raises(
        ScaffoldError,
        match="^finishing mcpgym-warehouse failed: unknown task 'no-such-family'; valid tasks",
    ):
        scaffold("warehouse", root)
    assert (list(root.iterdir()) == []) if existed else not root.exists()
