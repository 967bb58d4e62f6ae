"""Benchmark: ways to give an episode its private copy of the snapshot (issue 12 §2).

Usage::

    uv run python bench/sandbox_copy.py [--env helpdesk] [--n 300]

Per way, thread CPU per sandbox (medians of rounds, the ways alternating) of: *open* (the
private copy and the page cache size, as `EpisodeManager.open` makes it), *setup* (a variant's
setup statements: SQLite parses the schema on first use), *calls* (a reference episode's
tool calls), *seal copy* (the final bytes the page delta is taken from) and *close*:

- ``deserialize``: today's (`Snapshot.open_copy`: ``Connection.deserialize`` of the
  snapshot's bytes: SQLite copies the 1 MB);
- ``backup``: ``Connection.backup`` from a connection holding the snapshot;
- ``open_private``: the same as the server makes it since stop 29 (`Snapshot.open_private`:
  the schema cookie put back, the final bytes' header written by `counted_commits`);
- ``cow``: the snapshot's in-memory file (`mcpgym_grading._cow`) mapped private and
  writable, handed to SQLite in place (``sqlite3_deserialize`` without a copy, room to grow
  to the mapping's size): the kernel copies only the pages an episode writes, and the final
  bytes are the mapping itself (no ``serialize``). A prototype here, not in the server.
"""

from __future__ import annotations

import argparse
import ctypes
import mmap
import sqlite3
import statistics
import time
from collections.abc import Callable
from typing import Any

from mcpgym_grading import _cow
from mcpgym_server import Sandbox, VirtualClock, load_environment
from mcpgym_server.bundles import PageDelta, counted_commits
from mcpgym_server.runtime import SANDBOX_CACHE_KIB


def deserialize(env: Any) -> tuple[sqlite3.Connection, Callable[[], bytes], Callable[[], None]]:
    db = env.snapshot.open_copy()
    return db, db.serialize, db.close


def private(env: Any) -> tuple[sqlite3.Connection, Callable[[], bytes], Callable[[], None]]:
    db = env.snapshot.open_private()

    def final() -> bytes:  # as sealing takes it: the header's counter written (5 commits)
        return counted_commits(db.serialize(), 5)

    return db, final, db.close


def make_backup(env: Any) -> Callable[[Any], Any]:
    template = env.snapshot.open_copy()

    def backup(env: Any) -> tuple[sqlite3.Connection, Callable[[], bytes], Callable[[], None]]:
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        template.backup(db)
        return db, db.serialize, db.close

    return backup


def cow(env: Any) -> tuple[sqlite3.Connection, Callable[[], Any], Callable[[], None]]:
    assert _cow.cow_available()
    found = _cow._base(env.snapshot)  # pyright: ignore[reportPrivateUsage]
    assert found is not None
    fd, capacity = found
    size = len(env.snapshot.data)
    mm = mmap.mmap(fd, capacity, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    buf = (ctypes.c_char * capacity).from_buffer(mm)
    rc = _cow._lib.sqlite3_deserialize(  # pyright: ignore[reportPrivateUsage, reportOptionalMemberAccess]
        _cow._handle(db), b"main", ctypes.addressof(buf), size, capacity, 0
    )
    assert rc == 0

    def final() -> Any:
        n = (
            db.execute("PRAGMA page_count").fetchone()[0]
            * db.execute("PRAGMA page_size").fetchone()[0]
        )
        return memoryview(mm)[:n]

    def close() -> None:
        db.close()
        nonlocal buf
        del buf
        mm.close()

    return db, final, close


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--env", default="helpdesk")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    env = load_environment(args.env)
    variants = [env.variant(f, "easy", s) for f in env.families for s in range(3)]
    ways: dict[str, Callable[[Any], Any]] = {
        "deserialize": deserialize,
        "backup": make_backup(env),
        "open_private": private,
        "cow": cow,
    }
    parts = ("open", "setup", "calls", "seal copy", "delta", "close")
    got: dict[str, dict[str, list[float]]] = {w: {p: [] for p in parts} for w in ways}
    clock = time.thread_time
    base = env.snapshot.data
    for r in range(args.rounds + 1):
        order = list(ways.items())
        k = r % len(order)
        for name, way in order[k:] + order[:k]:  # the order rotating round by round
            t = dict.fromkeys(parts, 0.0)
            for i in range(args.n):
                v = variants[i % len(variants)]
                t0 = clock()
                db, final, close = way(env)
                db.execute(f"PRAGMA cache_size = -{SANDBOX_CACHE_KIB}")
                t1 = clock()
                for sql, params in v.setup:
                    db.execute(sql, params)
                t2 = clock()
                sb = Sandbox(
                    db=db,
                    clock=VirtualClock(env.clock_start, env.clock_step),
                    seed=0,
                    episode_id="ep_x",
                )
                for c in v.reference:
                    try:
                        env.tools[c.name].fn(sb, **env.tools[c.name].validate(dict(c.arguments)))
                    except Exception:
                        pass
                t3 = clock()
                data = final()
                t4 = clock()
                PageDelta.between(base, data)  # pyright: ignore[reportArgumentType]
                t5 = clock()
                del data
                close()
                t6 = clock()
                for p, a, b in zip(
                    parts, (t0, t1, t2, t3, t4, t5), (t1, t2, t3, t4, t5, t6), strict=True
                ):
                    t[p] += b - a
            if r:  # round 0 warms up
                for p in parts:
                    got[name][p].append(t[p] * 1000 / args.n)
    print(f"{args.env}: thread CPU ms per sandbox, median of {args.rounds} rounds of {args.n}")
    print(f"{'way':12s} " + " ".join(f"{p:>9s}" for p in parts) + "       sum")
    for name in ways:
        meds = [statistics.median(got[name][p]) for p in parts]
        print(f"{name:12s} " + " ".join(f"{m:9.3f}" for m in meds) + f" {sum(meds):9.3f}")


if __name__ == "__main__":
    main()
