"""The commands `mcpgym new` prints after scaffolding: install the new distribution, editable,
into the Python environment mcpgym runs in, then check, validate and serve it there.

One recipe, as the README and the scaffold's README give it: from the mcpgym checkout,
``uv pip install -e DIST`` (uv finds the checkout's ``.venv``; ``uv run`` syncs inexactly, so
it keeps the package, while ``uv sync`` removes it) and ``uv run mcpgym validate NAME``.
When mcpgym runs from an environment that is not a checkout's ``.venv`` (installed from
wheels), the same steps are given against that environment's interpreter instead. Every path
is absolute, so the commands work from any folder, as printed.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import mcpgym_clients


def mcpgym_checkout(package_file: str | None = None, prefix: str | None = None) -> Path | None:
    """The mcpgym source checkout whose project environment (``.venv``) runs mcpgym, or None.

    Args:
        package_file: ``mcpgym_clients.__file__`` (default: this process's).
        prefix: the running environment, ``sys.prefix`` (default: this process's).

    Returns:
        The checkout root (holding ``uv.lock`` and ``clients/pyproject.toml``, with
        ``mcpgym_clients`` imported from its ``clients/src``) when ``prefix`` is its ``.venv``;
        None otherwise (mcpgym installed from wheels, or another virtual environment).
    """
    here = Path(package_file or mcpgym_clients.__file__).resolve()
    if len(here.parents) < 4:
        return None
    root = here.parents[3]  # <root>/clients/src/mcpgym_clients/__init__.py
    if not (root / "uv.lock").is_file() or not (root / "clients" / "pyproject.toml").is_file():
        return None
    if Path(prefix or sys.prefix).resolve() != (root / ".venv").resolve():
        return None
    return root


def next_steps(
    dist: Path,
    env: str,
    *,
    checkout: Path | None,
    python: str | None = None,
) -> list[str]:
    """The lines `mcpgym new` prints under ``next:`` (commands, absolute paths, shell-quoted).

    Args:
        dist: the scaffolded distribution's folder (absolute).
        env: the environment's name.
        checkout: the mcpgym checkout running mcpgym (`mcpgym_checkout`), or None.
        python: the interpreter mcpgym runs on when ``checkout`` is None
            (default ``sys.executable``); its folder holds the ``mcpgym`` script.

    Returns:
        Comment lines (starting ``#``) and commands, one per line, in the order to run them.
    """
    q = shlex.quote
    if checkout is not None:
        return [
            "# from the mcpgym checkout (`uv run` keeps the package; reinstall after `uv sync`)",
            f"cd {q(str(checkout))}",
            f"uv pip install -e {q(str(dist))}",
            f"uv run pytest {q(str(dist))}",
            f"uv run mcpgym validate {env}",
            f"uv run mcpgym serve {env} --port 8000",
        ]
    exe = Path(python or sys.executable)
    mcpgym = exe.with_name("mcpgym.exe" if exe.suffix == ".exe" else "mcpgym")
    return [
        f"# into the Python environment mcpgym runs in ({exe})",
        f"uv pip install --python {q(str(exe))} -e {q(str(dist))}",
        f"{q(str(mcpgym))} validate {env}",
        f"{q(str(mcpgym))} serve {env} --port 8000",
    ]
