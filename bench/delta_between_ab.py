"""Benchmark: `PageDelta.between` of this tree against a base tree's, in one process.

Usage::

    git -C /work/main archive main server/src | tar -x -C /tmp/main
    uv run python bench/delta_between_ab.py --base-src /tmp/main/server/src [--rounds 40]

Runs the reference solution of the first seed of each helpdesk family (easy) through an
`EpisodeManager`, keeps each final database's bytes, checks both trees find the same
pages, then times both ``between``\\s on those files, alternating round by round (thread
CPU, ms per file, median over rounds, and the median of the per-round ratios).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time

from mcpgym_server import MemoryEpisodeStore, load_environment
from mcpgym_server.bundles import PageDelta
from mcpgym_server.runtime import EpisodeManager


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--base-src", required=True, help="a tree's server/src")
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    spec = importlib.util.spec_from_file_location(
        "base_delta", f"{args.base_src}/mcpgym_server/_delta.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["base_delta"] = module
    spec.loader.exec_module(module)
    old = module.PageDelta
    env = load_environment("helpdesk")
    store = MemoryEpisodeStore()
    manager = EpisodeManager(env, store, keep_final_db=True, hash_final=False)
    finals: list[bytes] = []
    for family in env.families:
        v = env.variant(family, "easy", 0)
        ep = manager.open(family, "easy", 0)
        for c in v.reference:
            manager.call(ep.id, c.name, dict(c.arguments))
        manager.call(ep.id, "submit", {} if v.answer is None else {"answer": v.answer})
        db = manager.take_final_db(ep.id)
        assert db is not None
        finals.append(db.serialize())
        db.close()
        store.take(ep.id)
    base = env.snapshot.data
    for f in finals:
        a, b = old.between(base, f), PageDelta.between(base, f)
        assert (a.page_size, a.size, a.pages, a.base_pages) == (
            b.page_size,
            b.size,
            b.pages,
            b.base_pages,
        )
    ways = [("base", old), ("this", PageDelta)]
    got: dict[str, list[float]] = {"base": [], "this": []}
    for r in range(args.rounds):
        for name, cls in ways if r % 2 else ways[::-1]:
            t = time.thread_time()
            for _ in range(20):
                for f in finals:
                    cls.between(base, f)
            got[name].append((time.thread_time() - t) / 20 / len(finals) * 1000)
    a, b = statistics.median(got["base"]), statistics.median(got["this"])
    per_round = statistics.median(y / x for x, y in zip(got["base"], got["this"], strict=True))
    pages = statistics.mean(len(PageDelta.between(base, f).pages) for f in finals)
    print(
        f"{len(finals)} final states ({pages:.0f} changed pages on average): between "
        f"base {a:.3f} ms, this {b:.3f} ms, x{b / a:.3f} (per round x{per_round:.3f})"
    )


if __name__ == "__main__":
    main()
