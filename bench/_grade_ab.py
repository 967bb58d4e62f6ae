"""Shared parts of the in-process grading A/B benchmarks (`grade_memos.py`, `grade_reads.py`).

Both run reference and null episodes of every family x band x seed in process, grade the
null bundles first (reference end states built, other texts met), then grade each reference
bundle one way and the other, the order alternating bundle by bundle and round by round.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_server import EpisodeManager, EpisodeStore, load_environment


@dataclass
class Episodes:
    """Sealed episodes of one environment: ``ref`` and ``null`` are episode ids in ``store``."""

    env: Any
    store: EpisodeStore
    ref: list[str] = field(default_factory=list)
    null: list[str] = field(default_factory=list)


def run_episodes(
    env_name: str, seeds: int, bands: Callable[[Any, str], Iterable[str]] | None = None
) -> Episodes:
    """Run the reference and the null agent on every family x band x seed ``0..seeds-1``.

    ``bands(env, family)`` names the bands to run (default: the family's own bands); a band
    whose variant cannot be generated is skipped. Bundles go to a fresh temporary folder.
    """
    env = load_environment(env_name)
    out = Episodes(env, EpisodeStore(Path(tempfile.mkdtemp(prefix="mcpgym-bench-"))))
    manager = EpisodeManager(env, out.store, max_open=10)
    for fam in sorted(env.families):
        for band in bands(env, fam) if bands else env.family(fam).bands:
            for seed in range(seeds):
                try:
                    v = env.variant(fam, band, seed)
                except Exception:  # noqa: BLE001 - a band the family lacks
                    continue
                for agent in ("null", "reference"):
                    ep = manager.open(fam, band, seed)
                    for c in v.reference if agent == "reference" else ():
                        if manager.is_open(ep.id):
                            manager.call(ep.id, c.name, dict(c.arguments))
                    answer = v.answer if agent == "reference" else None
                    manager.seal(ep.id, "ended", answer=answer)
                    (out.ref if agent == "reference" else out.null).append(ep.id)
    return out


def grade_both_ways(
    eps: Episodes, rounds: int, use: Callable[[bool], None]
) -> tuple[dict[str, list[float]], bool]:
    """Grade every reference bundle ``rounds`` times each way; ``use(on)`` switches the way.

    Returns the thread CPU per grade in ms for ``"off"`` and ``"on"`` (one entry per bundle
    and round, paired by position) and whether the two ways' grades (JSON, episode id left
    out) are byte-identical. Ends with ``use(True)``.
    """
    cache = ReferenceCache()
    use(False)
    for eid in eps.null:
        grade_bundle(eps.store.read(eid), eps.env, reference_cache=cache)
    ms: dict[str, list[float]] = {"off": [], "on": []}
    digests = {k: hashlib.sha256() for k in ms}
    for rnd in range(rounds):
        for n, eid in enumerate(eps.ref):
            for way in ("on", "off") if (n + rnd) % 2 else ("off", "on"):
                use(way == "on")
                bundle = eps.store.read(eid)
                c0 = time.thread_time()
                grade = grade_bundle(bundle, eps.env, reference_cache=cache)
                ms[way].append((time.thread_time() - c0) * 1000)
                dump = grade.model_dump()
                dump.pop("episode_id")
                digests[way].update(json.dumps(dump, sort_keys=True, default=str).encode())
    use(True)
    return ms, digests["on"].digest() == digests["off"].digest()


def summary(env_name: str, ms: dict[str, list[float]], identical: bool) -> str:
    """One line: CPU ms per grade off/on (median, mean), ratios, and grade identity."""
    on, off = ms["on"], ms["off"]
    ratios = [a / b for a, b in zip(on, off, strict=True)]
    return (
        f"{env_name}: {len(on)} grades each way, load {os.getloadavg()[0]:.1f}; CPU ms per grade "
        f"off median {statistics.median(off):.2f} mean {statistics.mean(off):.2f}, on median "
        f"{statistics.median(on):.2f} mean {statistics.mean(on):.2f}; on/off mean "
        f"x{statistics.mean(on) / statistics.mean(off):.3f}, median of ratios "
        f"x{statistics.median(ratios):.3f}; grades identical: {identical}"
    )
