"""Benchmark: the requests a reference episode of ``mcpgym eval`` makes, and their CPU.

Usage::

    uv run python bench/round_trips.py [--seeds 0-4] [--rounds 4] [--ways current]
        [--concurrency 16] [--dir DIR]

Runs the command itself, ``mcpgym eval helpdesk --agent reference --tasks all --bands all
--seeds S --no-baseline --new-run`` (the environment server and the grading service in
child processes, as always without ``--env-url``), with the bench's start-up hook on
``PYTHONPATH`` (bench/_access): every server process counts the requests it is sent (the
JSON-RPC method of each MCP request), the ``mcpgym`` process the requests its HTTP
clients send, and each writes its CPU when it exits; the ``mcpgym`` process also times
its `run_campaign` (wall, process CPU, the event loop thread's CPU), so start-up, the
servers' start and the summary are left out of its per-episode figures. Each round runs
the command once per way (``MCPGYM_BENCH_WAY``: bench/_access/round_trips_ways.py, a
patch of the ``mcpgym`` process back to the code path before one change), the order
alternating (ABBA), all on the same machine at the same time, so that the ratios
between ways are what to read when the machine is loaded.

Prints per run the episodes/s of the campaign, the CPU ms per episode of the ``mcpgym``
process during the campaign (all threads, and its event loop's thread) and of each
server process from its first request on (a cold campaign: variants generated, reference
end states built; its start-up is printed apart); then per way
the medians, the median of per-round ratios to the first way, and the requests per
episode by kind, as the servers counted them and as the client sent them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def one_run(way: str, seeds: str, concurrency: int, tmp: Path) -> dict[str, Any]:
    """One ``mcpgym eval`` with the hook; its figures."""
    out = Path(tempfile.mkdtemp(dir=tmp))
    env = {
        **os.environ,
        "MCPGYM_BENCH_ACCESS": str(out),
        "MCPGYM_BENCH_WAY": way,
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(HERE / "_access"), os.environ.get("PYTHONPATH")) if p
        ),
    }
    mcpgym = Path(sys.executable).with_name("mcpgym")
    cmd = [
        str(mcpgym), "eval", "helpdesk", "--agent", "reference", "--tasks", "all",
        "--bands", "all", "--seeds", seeds, "--no-baseline", "--new-run",
        "--concurrency", str(concurrency), "--store", str(out / "runs.db"),
    ]  # fmt: skip
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    (out / "eval.out").write_text(proc.stdout + "\n--- stderr\n" + proc.stderr)
    if proc.returncode != 0:
        raise RuntimeError(f"mcpgym eval exited {proc.returncode}:\n{proc.stderr[-3000:]}")
    figures = [json.loads(p.read_text()) for p in out.glob("*.json")]
    campaign = next(f for f in figures if f.get("role") == "campaign")
    c = campaign["campaign"]
    n = c["episodes"]
    assert all(s == 1.0 for s in c["scores"]), "a reference episode failed"
    servers: dict[str, Any] = {}
    served: dict[str, int] = {}
    for f in figures:
        if f.get("role") != "server":
            continue
        role = (
            "grading"
            if any(k.startswith(("POST /grades", "GET /grades")) for k in f["counts"])
            else "env server"
        )
        servers[role] = (f["cpu_s"] - f.get("served_cpu_from", 0.0)) * 1000 / n
        servers[f"{role} (with start-up)"] = f["cpu_s"] * 1000 / n
        for k, v in f["counts"].items():
            served[k] = served.get(k, 0) + v
    return {
        "eps": n / c["wall_s"],
        "n": n,
        "campaign": c["cpu_s"] * 1000 / n,
        "loop thread": c["loop_thread_cpu_s"] * 1000 / n,
        **servers,
        "sent": c["counts"],
        "served": served,
        "load": os.getloadavg()[0],
    }


def main() -> None:
    """Run the rounds and print the figures."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="0-4")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--ways", default="current")
    ap.add_argument("--dir", default=None, help="where run stores and bundles go")
    ap.add_argument("--keep", action="store_true", help="keep the runs' files (and print where)")
    args = ap.parse_args()
    ways = args.ways.split(",")
    runs: dict[str, list[dict[str, Any]]] = {w: [] for w in ways}
    keys = ("campaign", "loop thread", "env server", "grading")
    kept = tempfile.mkdtemp(dir=args.dir) if args.keep else None
    if kept:
        print(f"kept: {kept}")
    room = contextlib.nullcontext(kept) if kept else tempfile.TemporaryDirectory(dir=args.dir)
    with room as tmp_name:
        for r in range(args.rounds):
            for way in ways if r % 2 == 0 else ways[::-1]:
                x = one_run(way, args.seeds, args.concurrency, Path(tmp_name))
                runs[way].append(x)
                every = (*keys, "env server (with start-up)", "grading (with start-up)")
                shown = ", ".join(f"{k} {x[k]:.1f}" for k in every if k in x)
                print(
                    f"round {r} {way}: {x['eps']:.1f} episodes/s, CPU ms/episode {shown} "
                    f"(load {x['load']:.1f})",
                    flush=True,
                )
    med = statistics.median
    n = runs[ways[0]][0]["n"]
    print(f"\n{n} episodes a campaign, concurrency {args.concurrency}, {args.rounds} rounds")
    print(
        "| way | episodes/s | campaign process | its loop thread | env server | grading "
        "| requests/episode |"
    )
    print("|---|---|---|---|---|---|---|")
    for way, xs in runs.items():
        reqs = sum(xs[-1]["served"].values()) / xs[-1]["n"]
        print(
            f"| {way} | {med(x['eps'] for x in xs):.1f} | "
            + " | ".join(f"{med(x[k] for x in xs):.1f}" for k in keys)
            + f" | {reqs:.2f} |"
        )
    base = ways[0]
    for way in ways[1:]:
        pairs = list(zip(runs[way], runs[base], strict=True))
        print(
            f"{way} / {base}, median of per-round ratios: "
            + ", ".join(f"{k} x{med(a[k] / b[k] for a, b in pairs):.3f}" for k in ("eps", *keys))
        )
    for way, xs in runs.items():
        x = xs[-1]
        for what in ("served", "sent"):
            shown = ", ".join(f"{k} {v / x['n']:.2f}" for k, v in sorted(x[what].items()))
            print(f"requests per episode, {way}, {what}: {shown}")


if __name__ == "__main__":
    main()
