"""Benchmark: memory per open episode, and whether tool calls grow it.

Usage::

    uv run python bench/memory.py [--episodes 300] [--calls 40]

Each measurement runs in a fresh child process: it opens ``--episodes`` helpdesk episodes
in process (`EpisodeManager`), reads the RSS, then makes ``--calls`` read-only tool calls
in each, three times over (``find_customers``, ``find_orders``, ``list_tickets``,
``search_products``, ``get_order``...: the reads that scan the most pages), reading the RSS
after each round. The growth per further call is set beside the size of the call's log
entry (result dropped), i.e. what the episode itself records. Two settings:

- ``capped``: today's sandboxes (page cache capped at ``SANDBOX_CACHE_KIB``);
- ``default``: SQLite's default page cache (2 MB), as before the cap (the baseline).

Prints MB per open episode before and after the calls, the snapshot's size, and the
``--max-open`` default this machine gets (`mcpgym_server._capacity`).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import subprocess
import sys

READS: list[tuple[str, dict[str, object]]] = [
    ("find_customers", {"name": "a"}),
    ("find_customers", {"name": "e"}),
    ("find_orders", {"status": "delivered"}),
    ("find_orders", {"status": "shipped"}),
    ("list_tickets", {"status": "open"}),
    ("list_tickets", {"status": "closed"}),
    ("search_products", {"query": "a"}),
    ("get_order", {"order_id": 100001}),
    ("get_policy", {}),
]


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 1e6


def child(mode: str, n: int, calls: int) -> dict[str, float]:
    """Measure in this process (see the module docstring)."""
    import mcpgym_server._episode as episode_mod
    from mcpgym_server import EpisodeManager, MemoryEpisodeStore, load_environment

    if mode == "default":
        episode_mod.SANDBOX_CACHE_KIB = 2000  # SQLite's default cache_size (-2000)
    env = load_environment("helpdesk")
    manager = EpisodeManager(env, MemoryEpisodeStore(), max_open=n + 1)
    families = sorted(env.families)
    for i in range(50):
        fam = env.family(families[i % len(families)])
        env.variant(fam.name, fam.bands[0], i)
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    r0 = _rss_mb()
    eps = []
    for i in range(n):
        fam = env.family(families[i % len(families)])
        eps.append(manager.open(fam.name, fam.bands[0], i % 50))
    r1 = _rss_mb()
    marks = []
    log_bytes = 0
    for round_ in range(3):
        for ep in eps:
            for k in range(calls):
                tool, args = READS[k % len(READS)]
                entry = manager.call(ep.id, tool, args)
                entry.result = None  # measure the sandbox, not the logged results
                if round_ == 2:
                    log_bytes += len(entry.model_dump_json())
        gc.collect()
        marks.append(_rss_mb())
    return {
        "open_mb": (r1 - r0) / n,
        "after_calls_mb": (marks[0] - r0) / n,
        "after_3x_calls_mb": (marks[2] - r0) / n,
        "kb_per_extra_call": (marks[2] - marks[0]) * 1000 / (2 * calls * n),
        "log_json_kb_per_call": log_bytes / 1000 / (calls * n),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--child", default=None)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.episodes, args.calls)))
        return
    out = {}
    for mode in ("default", "capped"):
        proc = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                mode,
                "--episodes",
                str(args.episodes),
                "--calls",
                str(args.calls),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        out[mode] = json.loads(proc.stdout.strip().splitlines()[-1])
    from mcpgym_server import load_environment
    from mcpgym_server.runtime import SANDBOX_CACHE_KIB, default_max_open, memory_limit

    size = len(load_environment("helpdesk").snapshot.data)
    print(
        f"helpdesk snapshot {size / 1e6:.2f} MB; {args.episodes} open episodes, "
        f"{args.calls} read calls each"
    )
    for mode, r in out.items():
        label = f"cache {SANDBOX_CACHE_KIB} KiB" if mode == "capped" else "cache 2 MB (before)"
        print(
            f"{label:<22} open: {r['open_mb']:.2f} MB/episode   after {args.calls} calls: "
            f"{r['after_calls_mb']:.2f}   after {3 * args.calls}: {r['after_3x_calls_mb']:.2f}"
            f"   (+{r['kb_per_extra_call']:.2f} KB per further call; its log entry's JSON "
            f"{r['log_json_kb_per_call']:.2f} KB)"
        )
    ratio = out["capped"]["after_calls_mb"] / out["default"]["after_calls_mb"]
    print(f"after calls, capped / before = {ratio:.2f}")
    mem = memory_limit()
    print(
        f"memory given: {(mem or 0) / 2**30:.1f} GiB -> --max-open default {default_max_open(size)}"
    )


if __name__ == "__main__":
    main()
