"""Finishing a scaffold in a child process: load the new environment from its folder, lock
it, sign its rubric and record its reference runs.

A child process keeps the new package out of the caller's ``sys.modules``; the package is
imported from ``<root>/src`` (``PYTHONPATH``), so nothing needs installing first. Run as
``python -m mcpgym_clients.scaffold.finish ROOT PACKAGE BY``.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcpgym_clients.scaffold import Names


def finish(root: Path, names: Names, *, by: str) -> str:
    """Lock, sign and record the environment scaffolded in ``root``; return what it printed.

    Raises:
        ScaffoldError: a step failed (its output is in the message).
    """
    from mcpgym_clients.scaffold import ScaffoldError

    paths = [str(root / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", __name__, str(root), names.package, by],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise ScaffoldError(
            f"finishing {names.distribution} failed: {(done.stderr or done.stdout).strip()}"
        )
    return done.stdout.strip()


def main(argv: list[str]) -> None:
    """The child process: ``ROOT PACKAGE BY``."""
    root, package, by = argv
    environment = importlib.import_module(package).environment
    print(f"loaded `{environment.name}` {environment.version} from {root}")
    del by


if __name__ == "__main__":
    main(sys.argv[1:])
