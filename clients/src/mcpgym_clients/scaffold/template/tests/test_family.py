"""The `recount-item` family: deterministic variants, a reference solution that scores 1.0,
and a rubric that fails when the work is not done."""

from __future__ import annotations

import hashlib
import json
import random
import runpy
from importlib import resources
from pathlib import Path

import pytest
from mcpgym_grading import grade_bundle
from mcpgym_server import Band, Generation, ToolCall, VariantSpec, replay

from mcpgym_yourenv import environment
from mcpgym_yourenv.env import SNAPSHOT_SHA256

FAMILY = environment.family("recount-item")
SEEDS = range(10)
DATA = Path(str(resources.files(environment.snapshot.package))) / "data"
ITEM_IDS = sorted(row["id"] for row in json.loads((DATA / "seed_rows.json").read_text())["items"])


def test_the_snapshot_rebuilds_to_the_declared_digest(tmp_path: Path) -> None:
    out = tmp_path / "snapshot.db"
    build = runpy.run_path(str(DATA / "build_snapshot.py"))
    assert build["main"](["--out", str(out)]) == SNAPSHOT_SHA256
    assert hashlib.sha256(out.read_bytes()).hexdigest() == SNAPSHOT_SHA256


def generate(band: Band, seed: int) -> VariantSpec:
    """Call the generator directly (no cache), as `Environment.variant` does."""
    db = environment.snapshot.open_copy(readonly=True)
    return FAMILY.generator(Generation(seed=seed, band=band, rng=random.Random(seed), db=db))


@pytest.mark.parametrize("band", FAMILY.bands)
def test_generation_is_deterministic_and_varies_with_the_seed(band: Band) -> None:
    assert generate(band, 3) == generate(band, 3)
    assert len({generate(band, seed).instruction for seed in SEEDS}) > 1


@pytest.mark.parametrize("band", FAMILY.bands)
def test_the_reference_solution_scores_1(band: Band) -> None:
    for seed in SEEDS:
        v = environment.variant("recount-item", band, seed)
        bundle = replay(environment, v.family, band, seed, v.reference, answer=v.answer)
        grade = grade_bundle(bundle, environment)
        assert (grade.score, grade.passed) == (1.0, True), (v.id, grade)


@pytest.mark.parametrize("band", FAMILY.bands)
def test_doing_nothing_or_the_wrong_thing_fails(band: Band) -> None:
    for seed in SEEDS:
        v = environment.variant("recount-item", band, seed)
        nothing = grade_bundle(replay(environment, v.family, band, seed, []), environment)
        assert not nothing.passed
        wrong_answer = replay(environment, v.family, band, seed, v.reference, answer="-1")
        assert not grade_bundle(wrong_answer, environment).passed
        other_id = next(i for i in ITEM_IDS if i != v.params["item_id"])
        wrong_item = [
            ToolCall(
                "set_quantity",
                {"item_id": other_id, "quantity": v.params["new_quantity"], "reason": "x"},
            )
        ]
        assert not grade_bundle(
            replay(environment, v.family, band, seed, wrong_item, answer=v.answer), environment
        ).passed


def test_hard_variants_name_the_location_and_need_the_current_quantity() -> None:
    for seed in SEEDS:
        v = environment.variant("recount-item", "hard", seed)
        lookup = v.reference[0].arguments
        assert f"stored in {lookup['location']} " in v.instruction
        delta = v.params["new_quantity"] - v.params["old_quantity"]
        assert f" {abs(delta)} unit{'' if abs(delta) == 1 else 's'} " in v.instruction
        assert (" more of " if delta > 0 else " fewer of ") in v.instruction
