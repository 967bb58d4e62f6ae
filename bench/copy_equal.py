"""Sealed bundles' digests with each sandbox copy: `Snapshot.open_copy` vs `open_private`.

Usage::

    uv run python bench/copy_equal.py ENV

For each family x band at seed 0 (the episodes of ``bench/grade_equal.py`` there: the
reference, the null agent, every control mutant and adversarial mutant), the episode runs
through an `EpisodeManager` with ``private_copy = False`` and one with ``True``, and the
three digests of its final state (``final_sha256``, ``delta_sha256``,
``final_pages_sha256``) are compared. Prints a running count and each difference.
"""

from __future__ import annotations

import sys
from typing import Any

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.controls import mutants
from mcpgym_server import SUBMIT_TOOL, EpisodeManager, MemoryEpisodeStore, load_environment


def run(
    m: EpisodeManager, fam: str, band: str, seed: int, calls: list[Any]
) -> tuple[str, str, str]:
    ep = m.open(fam, band, seed)
    answer = None
    for name, args in calls:
        if name == SUBMIT_TOOL:
            answer = args.get("answer") if isinstance(args.get("answer"), str) else None
            break
        if m.is_open(ep.id):
            m.call(ep.id, name, dict(args))
    meta = m.seal(ep.id, "ended", answer=answer)
    return meta.final_sha256, meta.delta_sha256, meta.final_pages_sha256


def main() -> None:
    envname = sys.argv[1]
    env = load_environment(envname)
    n = same = 0
    for fam in sorted(env.families):
        for band in env.family(fam).bands:
            a = EpisodeManager(env, MemoryEpisodeStore(), max_open=10)
            a.private_copy = False
            b = EpisodeManager(env, MemoryEpisodeStore(), max_open=10)
            v = env.variant(fam, band, 0)
            runs = [
                (
                    "ref",
                    [(c.name, dict(c.arguments)) for c in v.reference]
                    + [(SUBMIT_TOOL, {"answer": v.answer})],
                ),
                ("null", []),
            ]
            runs += [(f"mut:{lab}", c) for lab, c in mutants(env, v)]
            runs += [(f"adv:{x.label}", list(x.calls)) for x in adversaries(env, v)]
            for label, calls in runs:
                n += 1
                if run(a, fam, band, 0, calls) == run(b, fam, band, 0, calls):
                    same += 1
                else:
                    print("DIFF", fam, band, label, flush=True)
            print(envname, fam, band, "so far", same, "of", n, flush=True)
    print(envname, "episodes", n, "digests equal", same)


if __name__ == "__main__":
    main()
