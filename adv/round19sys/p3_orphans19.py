"""Probe (round 19, item 3): what of Ray outlives a `kill -9` of `mcpgym eval --backend ray`.

Starts the eval (a local Ray it starts itself), waits for 4 stored episodes, records every
process below it, `kill -9`s the eval process alone, then prints which of those processes
are still alive at 0, 10, 20, ... 60 s. Asserts nothing; ends what is left at the end.
Run: `RAY_USAGE_STATS_ENABLED=0 uv run --no-sync python adv/round19sys/p3_orphans19.py`.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))
from tests.clients.test_ray_gcs_lost import _descendants  # noqa: E402

tmp = Path(tempfile.mkdtemp())
store = tmp / "runs.db"
args = [str(Path(sys.executable).with_name("mcpgym")), "eval", "helpdesk", "--agent", "reference"]
args += ["--tasks", "all", "--bands", "all", "--seeds", "0-19", "--no-baseline"]
args += ["--backend", "ray", "--ray-actors", "1", "--store", str(store)]
args += ["--episodes", str(tmp / "episodes")]
env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0"}
proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stored() -> int:
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5)
        try:
            return int(db.execute("SELECT count(*) FROM episodes").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


t0 = time.monotonic()
while stored() < 4 and time.monotonic() - t0 < 400 and proc.poll() is None:
    time.sleep(0.5)
below = _descendants(proc.pid)
print(f"{len(below)} processes below the eval after {time.monotonic() - t0:.0f} s")
os.kill(proc.pid, signal.SIGKILL)
proc.wait()
for t in range(0, 70, 10):
    alive = {p: c for p, c in below.items() if Path(f"/proc/{p}").exists()}
    names = sorted(
        {
            c.split()[0].rsplit("/", 1)[-1]
            + " "
            + " ".join(w for w in c.split()[1:3] if "ray" in w or w.startswith("-"))
            for c in alive.values()
        }
    )
    print(f"{t:>3} s after kill -9: {len(alive)} alive: {names}")
    if not alive:
        break
    time.sleep(10)
for p in below:
    if Path(f"/proc/{p}").exists():
        os.kill(p, signal.SIGKILL)
