"""The commands `mcpgym new` prints: the checkout recipe when mcpgym runs from a checkout's
``.venv``, the same steps against the running interpreter otherwise; absolute, quoted paths.

The recipe itself is run for real by ``test_wheel.py`` (the installed-environment case) and was
run by hand from a fresh clone (the checkout case; it installs into the checkout's ``.venv``,
which a test must not change under the rest of the suite).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from mcpgym_clients.scaffold.steps import mcpgym_checkout, next_steps


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder laid out like an mcpgym checkout with its ``.venv``."""
    root = tmp_path / "my mcpgym"
    (root / "clients" / "src" / "mcpgym_clients").mkdir(parents=True)
    (root / "clients" / "src" / "mcpgym_clients" / "__init__.py").write_text("")
    (root / "clients" / "pyproject.toml").write_text('[project]\nname = "mcpgym-clients"\n')
    (root / "uv.lock").write_text("version = 1\n")
    (root / ".venv").mkdir()
    return root


def package_file(root: Path) -> str:
    return str(root / "clients" / "src" / "mcpgym_clients" / "__init__.py")


def test_a_checkout_running_from_its_venv_is_found(checkout: Path) -> None:
    assert mcpgym_checkout(package_file(checkout), str(checkout / ".venv")) == checkout


def test_another_environment_or_a_non_checkout_is_not_a_checkout(
    checkout: Path, tmp_path: Path
) -> None:
    assert mcpgym_checkout(package_file(checkout), str(tmp_path / "other-venv")) is None
    (checkout / "uv.lock").unlink()
    assert mcpgym_checkout(package_file(checkout), str(checkout / ".venv")) is None


def test_from_a_checkout_the_steps_install_into_its_venv_and_use_uv_run(checkout: Path) -> None:
    dist = checkout.parent / "envs" / "mcpgym-shelf"
    commands = [
        line for line in next_steps(dist, "shelf", checkout=checkout) if not line.startswith("#")
    ]
    assert commands == [
        f"cd {shlex.quote(str(checkout))}",
        f"uv pip install -e {dist}",
        f"uv run pytest {dist}",
        "uv run mcpgym validate shelf",
        "uv run mcpgym serve shelf --port 8000",
    ]
    assert shlex.split(commands[0]) == ["cd", str(checkout)]  # the space survives the shell


def test_elsewhere_the_steps_use_the_running_interpreter(tmp_path: Path) -> None:
    python = tmp_path / "venv" / "bin" / "python"
    dist = tmp_path / "mcpgym-shelf"
    lines = next_steps(dist, "shelf", checkout=None, python=str(python))
    assert lines[1:] == [
        f"uv pip install --python {python} -e {dist}",
        f"{python.with_name('mcpgym')} validate shelf",
        f"{python.with_name('mcpgym')} serve shelf --port 8000",
    ]
    assert lines[0].startswith("# ")
