"""A secret seed salt: the seed asked for is not the generator seed served, so the public
generator and the published seeds do not give an agent its variant; the harness (with the
control token) and the grading service still get what they need."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx
import pytest

from mcpgym_clients import EpisodeDriver, ReferenceAgent, serve_locally
from mcpgym_clients.measure.compare import variant_differences
from mcpgym_server import Environment
from mcpgym_server.runtime import salted_seed

pytestmark = pytest.mark.anyio

SALT = "a-secret-only-the-operator-knows"


def test_the_salted_seed_is_deterministic_secret_and_in_range() -> None:
    first = salted_seed(SALT, "set-target", "medium", 3)
    assert first == salted_seed(SALT, "set-target", "medium", 3)
    assert 0 <= first < 2**63 and first != 3
    others = {
        salted_seed("another salt", "set-target", "medium", 3),
        salted_seed(SALT, "set-target", "easy", 3),
        salted_seed(SALT, "set-target", "medium", 4),
    }
    assert first not in others and len(others) == 3
    with pytest.raises(ValueError, match="must not be empty"):
        salted_seed("", "set-target", "medium", 3)


async def test_a_salted_server_serves_the_salted_variant_and_it_grades_full_marks(
    toy_env: Environment, tmp_path: Path
) -> None:
    served = salted_seed(SALT, "set-target", "medium", 3)
    with anyio.fail_after(20):
        async with serve_locally(toy_env, tmp_path / "episodes", seed_salt=SALT) as servers:
            async with httpx.AsyncClient(
                base_url=servers.env_url, headers=servers.control_headers
            ) as http:
                opened = (
                    await http.post(
                        "/episodes", json={"task": "set-target", "band": "medium", "seed": 3}
                    )
                ).json()
                await http.post(f"/episodes/{opened['episode_id']}/end", json={})
            async with EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=toy_env,
            ) as driver:
                await driver.server_info()
                rec = await driver.run_episode(ReferenceAgent(), "set-target", "medium", 3)
    assert (opened["seed"], opened["requested_seed"]) == (served, 3)
    assert opened["variant_id"] == f"toy/set-target@medium#{served}"
    assert opened["instruction"] == toy_env.variant("set-target", "medium", served).instruction
    assert opened["instruction"] != toy_env.variant("set-target", "medium", 3).instruction
    # the reference agent works on the variant served (the seed the server answered with)
    assert rec.variant_id == f"toy/set-target@medium#{served}" and rec.seed == 3
    assert (rec.score, rec.passed) == (1.0, True), rec.grade


def test_runs_whose_seeds_served_different_variants_are_named_as_such() -> None:
    row = {"task": "t", "band": "easy", "seed": 1, "epoch": 0}
    same = variant_differences(
        [{**row, "variant_id": "e/t@easy#9"}], [{**row, "variant_id": "e/t@easy#9"}]
    )
    salted = variant_differences(
        [{**row, "variant_id": "e/t@easy#1"}], [{**row, "epoch": 1, "variant_id": "e/t@easy#77"}]
    )
    assert same == []
    assert salted == [
        "1 seed(s) served different variants (e.g. t@easy seed 1: e/t@easy#1 vs e/t@easy#77): "
        "the servers had different seed salts (--seed-salt)"
    ]
