"""How many episodes a server can hold open: ``--max-open`` from the memory it is given.

An open episode holds a private in-memory copy of the snapshot (plus what it writes), a
page cache capped at `mcpgym_server._episode.SANDBOX_CACHE_KIB`, the parsed schema, its
tool-call log and, over HTTP, an MCP session. Measured on helpdesk (1.07 MB snapshot):
1.33 MB per open episode in process, 1.37 MB with an MCP session, however many reads it
makes (`bench/memory.py`). `EPISODE_OVERHEAD` is that excess over the snapshot, rounded up.

The memory given is the cgroup limit (v2 ``memory.max``, v1 ``memory.limit_in_bytes``)
when there is one, else the machine's physical memory; the default keeps open episodes
within `MEMORY_SHARE` of it, leaving the rest to the process, bundles being written and
the OS.

Extra MCP sessions on one episode URL are capped (`mcpgym_server._session_caps`: 8 per
episode by default, at most ``max_open`` times that on the server), so a flooding agent adds
at most 7 * ~38 KiB = 0.27 MB per open episode, which the other half of the memory absorbs.
"""

from __future__ import annotations

import os
from pathlib import Path

EPISODE_OVERHEAD = 512 * 1024
"""Bytes an open episode holds beyond its copy of the snapshot (measured ~0.3 MB + margin)."""

MEMORY_SHARE = 0.5
"""Share of the memory given that open episodes may use by default."""

MIN_OPEN, MAX_OPEN = 16, 100_000
"""Bounds of the computed default."""

_CGROUP_FILES = (
    Path("/sys/fs/cgroup/memory.max"),
    Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
)


def memory_limit() -> int | None:
    """Bytes of memory this process is given: the cgroup limit if set, else physical memory.

    Returns ``None`` when neither can be read (non-Linux without ``sysconf``).
    """
    physical: int | None = None
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        physical = None
    for path in _CGROUP_FILES:
        try:
            text = path.read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            limit = int(text)
            # cgroup v1 reports "no limit" as a huge number
            return limit if physical is None else min(limit, physical)
    return physical


def default_max_open(snapshot_size: int, memory: int | None = None) -> int:
    """The default ``max_open``: how many episodes fit in `MEMORY_SHARE` of ``memory``.

    ``floor(MEMORY_SHARE * memory / (snapshot_size + EPISODE_OVERHEAD))``, within
    [`MIN_OPEN`, `MAX_OPEN`]. For helpdesk (1.07 MB) on a 24 GiB machine: about 7,900; in a 2 GiB
    container: 672.

    Args:
        snapshot_size: the snapshot's size in bytes.
        memory: bytes available (default: `memory_limit`; 1,000 episodes when unknown).
    """
    memory = memory_limit() if memory is None else memory
    if memory is None:
        return 1_000
    per_episode = max(snapshot_size, 0) + EPISODE_OVERHEAD
    return max(MIN_OPEN, min(MAX_OPEN, int(MEMORY_SHARE * memory // per_episode)))
