"""Finishing a scaffold in a child process: lock the new environment, sign its rubric and
record its reference runs, with the code `mcpgym lock`, `mcpgym sign` and `mcpgym record` use.

A child process keeps the new package out of the caller's ``sys.modules``: the package is
imported from ``<root>/src`` (``PYTHONPATH``), so nothing needs installing first, and the
lock file and runs land in ``<root>/src/<package>/``. Run as
``python -m mcpgym_clients.scaffold.finish ROOT PACKAGE FAMILY SEED BY``.

The recorded runs are made by feeding the generator's reference solution, call by call, to
the `mcpgym record` prompt (a real server, an MCP client, the grading service): they show
the format and make the scaffold validate. An author records their own after changing the
family.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from mcpgym_clients.scaffold import Names
    from mcpgym_server import Environment

RECORD_SEED = 100
"""Seed of the recorded runs: outside the seeds ``mcpgym validate`` generates (0..19), so the
runs are variants the generator check does not already cover."""


def finish(root: Path, names: Names, *, family: str, by: str) -> str:
    """Lock, sign and record the environment scaffolded in ``root``; return what it printed.

    Raises:
        ScaffoldError: a step failed (the message ends with the child's last error line).
    """
    from mcpgym_clients.scaffold import ScaffoldError

    paths = [str(root / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "PYTHONDONTWRITEBYTECODE": "1"}
    argv = [str(root), names.package, family, str(RECORD_SEED), by]
    done = subprocess.run(
        [sys.executable, "-m", __name__, *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        raise ScaffoldError(f"finishing {names.distribution} failed: {lines[-1]}")
    return done.stdout.strip()


def reference_lines(environment: Environment, family: str, band: str, seed: int) -> list[str]:
    """The `mcpgym record` prompt lines that work ``family@band#seed`` by its reference solution:
    one ``TOOL {json}`` line per call, then ``submit ANSWER``."""
    variant = environment.variant(family, band, seed)
    lines = [f"{c.name} {json.dumps(dict(c.arguments))}" for c in variant.reference]
    return [*lines, f"submit {variant.answer or ''}".rstrip()]


async def _record_all(environment: Environment, family: str, seed: int, by: str) -> list[Path]:
    from mcpgym_clients.instrument.record import record_episode
    from mcpgym_clients.instrument.runs import run_path

    saved: list[Path] = []
    for band in environment.family(family).bands:
        feed: Iterator[str] = iter(reference_lines(environment, family, band, seed))

        async def lines(feed: Iterator[str] = feed) -> str | None:
            return next(feed, None)

        with tempfile.TemporaryDirectory(prefix="mcpgym-new-") as store:
            run = await record_episode(
                environment,
                family,
                band,
                seed,
                lines=lines,
                out=lambda _line: None,
                store_dir=Path(store),
                recorded_by=by,
            )
        if run.grade.get("score") != 1.0:
            raise SystemExit(f"the reference run of {run.variant_id} scored {run.grade}")
        path = run_path(environment, family, band, seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(run.to_json(), encoding="utf-8")
        saved.append(path)
    return saved


def main(argv: list[str]) -> None:
    """The child process: ``ROOT PACKAGE FAMILY SEED BY``; prints one line per step."""
    from mcpgym_server.lock import relock, sign, write_lock

    root, package, family, seed, by = argv
    environment: Environment = importlib.import_module(package).environment
    lock, _notes = relock(environment, None)
    lock = sign(lock, family, by)
    path = write_lock(environment, lock)
    print(f"locked {Path(path).relative_to(root)} (lock {lock.digest[:12]})")
    print(f"signed the `{family}` rubric as {by}")
    saved = anyio.run(_record_all, environment, family, int(seed), by, backend="asyncio")
    for run in saved:
        print(f"recorded {run.relative_to(root)} (reference solution through `mcpgym record`)")


if __name__ == "__main__":
    from mcpgym_server import MCPGymError

    try:
        main(sys.argv[1:])
    except (MCPGymError, ValueError, OSError) as exc:  # expected failures: one line, no traceback
        sys.exit(str(exc))
