"""Output piped into a reader that stops early (``mcpgym compare A B | head -1``): every
command ends quietly with status 0; a broken pipe elsewhere stays an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcpgym_clients import RunStore
from mcpgym_clients.commands._common import output_closed

from ..measure.synthetic import rec, store_run

MCPGYM = Path(sys.executable).with_name("mcpgym")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    db = tmp_path_factory.mktemp("piped") / "runs.db"
    with RunStore(db) as s:
        a = store_run(s, [rec("refund", "easy", seed, 0, 0.0) for seed in range(40)])
        b = store_run(s, [rec("refund", "easy", seed, 0, 1.0, True) for seed in range(40)])
    return db, a, b


def _into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``mcpgym ARGS`` with stdout a pipe whose reader is already gone (what ``head``
    leaves once it has read its line), stderr captured."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [str(MCPGYM), *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={**os.environ, "COLUMNS": "120"},
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "command",
    [
        ["--help"],
        ["eval", "--help"],
        ["tasks", "helpdesk"],
        ["runs"],
        ["show", "latest", "--episodes"],
        ["compare", "A", "B"],
    ],
    ids=lambda c: " ".join(c),
)
def test_a_reader_that_stops_early_ends_the_command_quietly_with_status_0(
    command: list[str], store: tuple[Path, str, str]
) -> None:
    db, a, b = store
    args = [{"A": a, "B": b}.get(arg, arg) for arg in command]
    if command[0] in ("runs", "show", "compare"):
        args += ["--store", str(db)]
    done = _into_closed_pipe(*args)
    assert (done.returncode, done.stderr) == (0, "")


def test_a_user_error_still_fails_when_the_output_is_piped() -> None:
    done = _into_closed_pipe("tasks", "no-such-env")
    assert done.returncode == 2 and "unknown environment 'no-such-env'" in done.stderr


def test_a_broken_pipe_elsewhere_is_not_a_closed_output() -> None:
    # under pytest stdout and stderr are files: a broken pipe must come from something else
    assert not output_closed(BrokenPipeError(32, "Broken pipe"))
    assert not output_closed(ValueError("not a pipe error"))
