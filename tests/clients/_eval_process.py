"""Start a real ``mcpgym`` process and wait for a line of its stderr (the signal tests)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

MCPGYM = Path(sys.executable).with_name("mcpgym")


def eval_until(
    tmp: Path, args: list[str], marker: str, *, group: bool = False
) -> tuple[subprocess.Popen[str], list[str]]:
    """Start ``mcpgym ARGS`` in ``tmp`` (in a process group of its own with ``group``, as a
    terminal's job) and return once a stderr line containing ``marker`` appeared.

    Returns:
        The process (stderr still being read into the list) and the stderr lines so far.

    Raises:
        AssertionError: the process ended, or 120 s passed, before ``marker``.
    """
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [str(MCPGYM), *args],
        cwd=tmp,
        process_group=0 if group else None,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    seen = threading.Event()
    watchdog = threading.Timer(120, proc.kill)  # a hung start fails the test, never hangs it
    watchdog.start()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if marker in line:
                seen.set()
        seen.set()

    threading.Thread(target=read, daemon=True).start()
    seen.wait()
    watchdog.cancel()
    assert any(marker in line for line in lines), "".join(lines)
    return proc, lines
