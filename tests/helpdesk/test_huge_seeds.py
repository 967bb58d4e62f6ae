"""Helpdesk's generators give valid variants for any seed, not only the small ones validate
and the other tests use: seeds sampled up to 2^40 for every family and band build a variant
whose reference replays without a tool error, scores 1.0, and whose null run fails.

(ledger has the same proof: tests/ledger/test_families.py,
``test_generators_are_valid_for_huge_seeds``.)
"""

from __future__ import annotations

import random

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import replay

FAMILIES = tuple(sorted(environment.families))
BANDS = ("easy", "medium", "hard", "expert")
CACHE = ReferenceCache(maxsize=256)


def huge_seeds(family: str, band: str, n: int = 3) -> list[int]:
    """2^40 itself and ``n`` seeds drawn below it (fixed per family and band)."""
    rng = random.Random(f"huge|{family}|{band}")
    return [2**40, *(rng.randrange(2**20, 2**40) for _ in range(n))]


def test_every_family_has_every_band() -> None:
    assert len(FAMILIES) == 7
    for name in FAMILIES:
        assert environment.family(name).bands == BANDS


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("family", FAMILIES)
def test_generators_are_valid_for_huge_seeds(family: str, band: str) -> None:
    for seed in huge_seeds(family, band):
        v = environment.variant(family, band, seed)
        assert v.seed == seed and v.id.endswith(f"@{band}#{seed}")
        bundle = replay(environment, family, band, seed, list(v.reference), answer=v.answer)
        assert [(e.tool, e.error) for e in bundle.log if e.status != "ok"] == [], v.id
        g = grade_bundle(bundle, environment, reference_cache=CACHE)
        assert g.status == "graded", (v.id, g.error)
        assert g.score == 1.0 and g.passed, (v.id, [c.name for c in g.checks if not c.passed])
        null = grade_bundle(replay(environment, family, band, seed, []), environment)
        assert null.status == "graded" and not null.passed, v.id
