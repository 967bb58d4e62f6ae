"""Shares of a py-spy raw profile (``py-spy record -f raw``) by part of an episode.

Usage: ``python bench/_shares.py PROFILE.raw [--top N]``. Each sample's stack is put in
the first bucket whose marker it contains, innermost frame first; the figures are shares
of the samples, which is what to trust on this loaded machine.
"""

from __future__ import annotations

import argparse
import collections

IDLE = ("Condition.wait", "select.epoll", "EpollSelector.select", "_worker (concurrent")
"""Innermost frames of a thread that waits (py-spy still samples some of them)."""

BUCKETS: list[tuple[str, tuple[str, ...]]] = [
    ("start-up (imports, lock, servers)", ("_find_and_load", "compute_lock", "serving.py")),
    (
        "variant generation (environment code)",
        ("Environment._generate", "mcpgym_helpdesk/families"),
    ),
    ("run store", ("runstore.py",)),
    ("grading", ("mcpgym_grading/",)),
    ("sealing", ("sealing.py", "delta.py", "bundle_state.py", "bundle.py")),
    ("server: SDK tools/list per tool call (Mcp-Param check)", ("_tool_input_schema",)),
    ("server: tool work (EpisodeManager.call)", ("EpisodeManager.call",)),
    ("server: episode open (EpisodeManager.open)", ("EpisodeManager.open",)),
    ("server: MCP SDK + mcpgym routes", ("mcp/server/", "mcpgym_server/")),
    ("server: uvicorn/starlette/h11", ("uvicorn/", "starlette/", "h11/")),
    ("client: MCP SDK client", ("mcp/client/", "mcp/shared/", "mcp_types/")),
    ("client: httpx/httpcore", ("httpx", "httpcore")),
    ("client: driver/campaign/agent", ("mcpgym_clients/",)),
]


def bucket(stack: str) -> str:
    """The bucket of one ``;``-joined stack: the first bucket (in `BUCKETS` order) that
    one of its frames matches; ``idle`` for a waiting thread, else ``event loop/other``."""
    frames = stack.split(";")
    if any(m in frames[-1] for m in IDLE):
        return "idle (waiting threads)"
    for name, markers in BUCKETS:
        if any(m in frame for frame in frames for m in markers):
            return name
    return "event loop/other"


def main() -> None:
    """Print the shares of each bucket (and the top innermost frames with ``--top``)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("--top", type=int, default=0)
    args = ap.parse_args()
    counts: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    for line in open(args.profile, encoding="utf-8"):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        counts[bucket(stack)] += int(n)
        leaves[stack.split(";")[-1]] += int(n)
    total = sum(counts.values())
    for name, n in counts.most_common():
        print(f"{100 * n / total:5.1f}%  {name}")
    print(f"{total} samples")
    for leaf, n in leaves.most_common(args.top):
        print(f"{100 * n / total:5.1f}%  {leaf}")


if __name__ == "__main__":
    main()
