"""`mcpgym new`: scaffold an environment distribution that validates out of the box.

The template is a real, working environment shipped as package data under
``scaffold/template/`` (its own ``pyproject.toml`` makes it a ruff root, so its code is
linted as it will be generated). Its placeholder name is ``yourenv``: the distribution
``mcpgym-yourenv``, the import package ``mcpgym_yourenv``. `scaffold` copies it with the
placeholders replaced, builds the snapshot with the template's own build script, then
locks, signs and records it (`mcpgym_clients.scaffold.finish`) so that
``mcpgym validate NAME`` passes as soon as the distribution is installed.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from mcpgym_clients.errors import ConfigurationError

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
"""Environment names: lowercase letters and digits in dash-separated words, a letter first."""

MAX_NAME_LENGTH = 40
"""Longest environment name `scaffold` accepts (keeps generated lines within 100 columns)."""

PLACEHOLDER = "yourenv"
"""The template's environment name; ``mcpgym_yourenv`` and ``mcpgym-yourenv`` derive from it."""

TEMPLATE_SIGNER = "mcpgym maintainers <maintainers@mcpgym.dev>"
"""Who signs the template's rubric and records its reference runs unless ``by`` is given:
the rubric as generated is the template's, which the mcpgym maintainers approved."""

FAMILY = "recount-item"
"""The template's one task family."""

RENAMED = {"gitignore": ".gitignore"}
"""Template files stored without their leading dot (package data keeps them visible)."""

SKIPPED = frozenset({"__pycache__", ".ruff_cache", ".pytest_cache", ".venv", "dist"})
"""Folders of a template checkout that are never copied."""


class ScaffoldError(ConfigurationError):
    """`mcpgym new` cannot scaffold: bad name, taken name, non-empty target, failed build.

    Sits under ``MCPGymError > ClientError > ConfigurationError`` (see `mcpgym_clients.errors`).
    """


@dataclass(frozen=True)
class Names:
    """The names an environment ``env`` gets: ``crm-lite`` -> ``mcpgym-crm-lite``,
    ``mcpgym_crm_lite``."""

    env: str
    distribution: str
    package: str


@dataclass(frozen=True)
class Scaffold:
    """What `scaffold` made.

    Attributes:
        names: the environment's names. root: the distribution folder.
        files: paths written, relative to ``root``, sorted (POSIX form).
        snapshot_sha256: hex sha256 of the built ``data/snapshot.db``.
        finish_log: what the lock, sign and record steps printed.
    """

    names: Names
    root: Path
    files: tuple[str, ...]
    snapshot_sha256: str
    finish_log: str


def names_for(env: str) -> Names:
    """Check an environment name and derive the distribution and package names.

    Raises:
        ScaffoldError: the name is not lowercase letters, digits and single dashes starting
            with a letter, or is longer than `MAX_NAME_LENGTH`.
    """
    if not NAME_PATTERN.match(env) or len(env) > MAX_NAME_LENGTH:
        raise ScaffoldError(
            f"environment name {env!r} must be at most {MAX_NAME_LENGTH} characters of "
            "lowercase letters, digits and single dashes, starting with a letter "
            "(e.g. `warehouse` or `crm-lite`)"
        )
    return Names(env=env, distribution=f"mcpgym-{env}", package="mcpgym_" + env.replace("-", "_"))


def check_available(names: Names) -> None:
    """Refuse a name whose package or environment is already installed.

    Raises:
        ScaffoldError: ``names.package`` is importable (``mcpgym new server`` would shadow
            ``mcpgym_server``), or an environment ``names.env`` is installed.
    """
    from mcpgym_server import available_environments

    if importlib.util.find_spec(names.package) is not None:
        raise ScaffoldError(
            f"a package `{names.package}` is already installed; choose another environment name"
        )
    if names.env in available_environments():
        raise ScaffoldError(
            f"an environment `{names.env}` is already installed; choose another environment name"
        )


def check_target(root: Path) -> None:
    """Refuse a target that is a file or a non-empty folder.

    Raises:
        ScaffoldError: naming the path.
    """
    if root.exists() and not root.is_dir():
        raise ScaffoldError(f"{root} is a file; give --dir a new or empty folder")
    if root.is_dir() and any(root.iterdir()):
        raise ScaffoldError(f"{root} is not empty; give --dir a new or empty folder")


def template_root() -> Traversable:
    """The template folder shipped as package data."""
    return resources.files("mcpgym_clients.scaffold").joinpath("template")


def render(text: str, names: Names) -> str:
    """Replace the placeholders in one pass (so a name containing ``yourenv`` stays intact)."""
    table = {
        f"mcpgym_{PLACEHOLDER}": names.package,
        f"mcpgym-{PLACEHOLDER}": names.distribution,
        PLACEHOLDER: names.env,
    }
    return re.sub("|".join(re.escape(k) for k in table), lambda m: table[m.group()], text)


def _copy(src: Traversable, dest: Path, names: Names, rel: str, written: list[str]) -> None:
    for child in sorted(src.iterdir(), key=lambda c: c.name):
        if child.name in SKIPPED or child.name.endswith(".pyc"):
            continue
        name = render(RENAMED.get(child.name, child.name), names)
        if child.is_dir():
            (dest / name).mkdir()
            _copy(child, dest / name, names, f"{rel}{name}/", written)
        else:
            (dest / name).write_text(render(child.read_text(encoding="utf-8"), names), "utf-8")
            written.append(rel + name)


def write_template(root: Path, names: Names) -> list[str]:
    """Copy the template into the existing folder ``root`` with the placeholders replaced.

    Returns:
        The files written, relative to ``root`` (POSIX form), in copy order.
    """
    written: list[str] = []
    _copy(template_root(), root, names, "", written)
    return written


def build_snapshot(root: Path, names: Names) -> str:
    """Run the distribution's snapshot build script; return the snapshot's sha256.

    The script writes ``data/snapshot.db`` and sets ``SNAPSHOT_SHA256`` in ``env.py``.

    Raises:
        ScaffoldError: the script failed (naming its last error line).
    """
    script = root / "src" / names.package / "data" / "build_snapshot.py"
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        raise ScaffoldError(f"{script} failed: {lines[-1]}")
    return done.stdout.strip().rsplit(" ", 1)[-1]


def scaffold(env: str, root: Path | None = None, *, by: str = TEMPLATE_SIGNER) -> Scaffold:
    """Write a new environment distribution ``mcpgym-ENV`` and make it validate.

    Args:
        env: the environment name (see `names_for`).
        root: the distribution folder (default ``./mcpgym-ENV``); created if missing,
            refused if not empty.
        by: ``Name <email>`` who signs the rubric and records the reference runs.

    Returns:
        The `Scaffold`.

    Raises:
        ScaffoldError: bad or taken name, non-empty target, or a finishing step failed.
        OSError: the files cannot be written.
    """
    from mcpgym_clients.scaffold.finish import finish
    from mcpgym_server.lock import SIGNER

    names = names_for(env)
    if not SIGNER.match(by):
        raise ScaffoldError(
            f'--by {by!r} must be a name and an email: "Jane Doe <jane@example.org>"'
        )
    check_available(names)
    root = (root or Path.cwd() / names.distribution).resolve()
    check_target(root)
    existed = root.exists()
    root.mkdir(parents=True, exist_ok=True)
    try:
        write_template(root, names)
        digest = build_snapshot(root, names)
        log = finish(root, names, family=FAMILY, by=by)
    except BaseException:
        _clear(root, remove=not existed)  # never leave a half-made distribution behind
        raise
    files = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and not SKIPPED.intersection(p.relative_to(root).parts)
    )
    return Scaffold(
        names=names, root=root, files=tuple(files), snapshot_sha256=digest, finish_log=log
    )


def _clear(root: Path, *, remove: bool) -> None:
    """Remove what `scaffold` wrote into ``root`` (checked empty before), or ``root`` itself."""
    if remove:
        shutil.rmtree(root, ignore_errors=True)
        return
    for child in root.iterdir():
        if child.is_dir():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
