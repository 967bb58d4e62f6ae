"""§1 probe (round 15): the run store's FILE changed under a running campaign.

Usage: ``uv run python adv/round15sys/p1_store15.py ACTION [CONCURRENCY]``
Runs ``mcpgym eval helpdesk --agent reference --tasks all --bands all --seeds 0`` (28 slots,
servers started by eval itself) into ``/tmp/r15/p1s/ACTION/runs.db``; at ~10 stored rows:
- ``rm``: the store file is removed (``rm runs.db*``: a cleanup script);
- ``mv``: another store is moved over it (``mv other.db runs.db``: a backup restored);
- ``lock``: another process holds an exclusive lock on it for 40 s;
- ``ro``: the file and its folder made read-only (``chmod a-w``).
Prints rc, the eval's last lines, and what the store at that path holds afterwards (runs,
rows of the eval's run), plus the rows in the moved-away/unlinked file when they can be
read. Expected: every planned episode ends as one stored row where the eval says the run
is, or the eval says it could not store them (rc != 0).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

ACTION = sys.argv[1]
CONC = sys.argv[2] if len(sys.argv) > 2 else "2"
W = Path(f"/tmp/r15/p1s/{ACTION}-{CONC}")
subprocess.run(["chmod", "-R", "u+w", str(W)], capture_output=True)
subprocess.run(["rm", "-rf", str(W)])
W.mkdir(parents=True)
STORE = W / "runs.db"
EVAL = S.MCPGYM + [
    "eval", "helpdesk", "--agent", "reference", "--tasks", "all", "--bands", "all",
    "--seeds", "0", "--concurrency", CONC, "--no-baseline", "--store", str(STORE),
]  # fmt: skip


def held_lock(seconds: float) -> None:
    db = sqlite3.connect(STORE, timeout=30, isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    time.sleep(seconds)
    db.execute("COMMIT")
    db.close()


def main() -> None:
    log = W / "eval.log"
    ev = subprocess.Popen(EVAL, env=S.probe_env(None, None), cwd=W, stdout=open(log, "w"),
                          stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    t0 = time.monotonic()
    while len(S.rows(STORE)) < 10 and ev.poll() is None and time.monotonic() - t0 < 300:
        time.sleep(0.1)
    at = len(S.rows(STORE))
    keep = None
    if ACTION == "rm":
        keep = os.open(STORE, os.O_RDONLY)  # to read the unlinked file afterwards
        for p in W.glob("runs.db*"):
            p.unlink()
    elif ACTION == "mv":
        other = W / "other.db"
        sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.commit()
        os.replace(STORE, W / "moved-away.db")
        for suf in ("-wal", "-shm"):
            if Path(f"{STORE}{suf}").exists():
                os.replace(f"{STORE}{suf}", f"{W / 'moved-away.db'}{suf}")
        os.replace(other, STORE)
    elif ACTION == "lock":
        threading.Thread(target=held_lock, args=(40,), daemon=True).start()
    elif ACTION == "ro":
        for p in W.glob("runs.db*"):
            p.chmod(0o444)
        W.chmod(0o555)
    print(json.dumps({"action": ACTION, "at_rows": at}), flush=True)
    try:
        rc: object = ev.wait(timeout=400)
    except subprocess.TimeoutExpired:
        S.killpg(ev, 9)
        rc = "TIMEOUT"
    W.chmod(0o755)
    tail = [x[:220] for x in log.read_text(errors="replace").splitlines()[-4:]]
    out: dict = {"rc": rc, "tail": tail, "path_exists": STORE.exists()}
    try:
        c = sqlite3.connect(f"file:{STORE}?mode=ro", uri=True)
        out["runs_at_path"] = c.execute("SELECT id, finished_at FROM runs").fetchall()
        out["rows_at_path"] = c.execute("SELECT count(*) FROM episodes").fetchone()[0]
        c.close()
    except sqlite3.Error as exc:
        out["at_path"] = str(exc)
    moved = W / "moved-away.db"
    if moved.exists():
        out["rows_in_moved_away"] = len(S.rows(moved))
    if keep is not None:
        out["rows_in_unlinked_file"] = len(S.rows(Path(f"/proc/self/fd/{keep}")))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
