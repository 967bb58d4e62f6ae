"""Probe: the secrets of a ``--backend ray`` campaign in Ray's files and mcpgym's outputs.

Usage: ``uv run python adv/round18sys/p3_raytokens18.py`` (the ``ray`` extra installed).

Runs a small campaign in process through `ray_backend` (helpdesk, reference agent, 4 variants,
2 actors, a local Ray started here), reads the campaign's random control token, grading token
and bundle key from its launcher, then after ``ray.shutdown`` searches for each (and its first
16 characters) in every file under Ray's session directory (logs, events, sockets' files), the
episode store (bundles), the run store (db and WAL) and ``servers.log``; and kills one
environment actor with the reference episodes in flight so that the error paths write too.
Prints where each secret was found (file, count), else ``nowhere``. Asserts nothing.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import anyio

W = Path("/tmp/r18/raytokens")


async def campaign() -> tuple[dict[str, str], Path]:
    """Run it; return the secrets and Ray's session directory."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from mcpgym_clients.agents import ReferenceAgent
    from mcpgym_clients.backends.ray import import_ray, ray_backend
    from mcpgym_clients.campaign import run_campaign
    from mcpgym_clients.runstore import RunStore
    from mcpgym_clients.selection import VariantKey
    from mcpgym_clients.server_logs import server_logs
    from mcpgym_server import load_environment

    ray = import_ray()
    env = load_environment("helpdesk")
    variants = [VariantKey(t, "easy", s) for t in ("cancel-order", "order-status") for s in (0, 1)]
    with server_logs(W / "servers.log"), RunStore(W / "runs.db") as store:
        async with ray_backend(env, W / "episodes", actors=2, num_cpus=2) as runner:
            launcher = runner._launcher
            secrets = {
                "control token": launcher.control_token,
                "grading token": launcher.grading_token,
                "bundle key": launcher.bundle_key,
            }
            session = Path(ray._private.worker._global_node.get_session_dir_path())
            result = await run_campaign(runner, ReferenceAgent(), variants, store, concurrency=2)
            print("campaign:", result.incomplete() or "complete", len(result.records), "rows")
            ray.kill(runner.actors[0])  # the error paths: a probe, a replacement
            result = await run_campaign(
                runner, ReferenceAgent(), variants, store, concurrency=4, resume=False
            )
            print("after an actor kill:", result.incomplete() or "complete", runner.replacements)
    return secrets, session


def search(secrets: dict[str, str], roots: list[Path]) -> None:
    """Print where each secret (whole, or its first 16 characters) appears."""
    for name, value in secrets.items():
        hits: dict[str, int] = {}
        for root in roots:
            files = [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file()]
            for f in files:
                try:
                    data = f.read_bytes()
                except OSError:
                    continue
                n = data.count(value.encode()) + data.count(value[:16].encode())
                if n:
                    hits[str(f)] = n
        print(f"{name}: {hits or 'nowhere'}")


def main() -> None:
    """Campaign, then search."""
    shutil.rmtree(W, ignore_errors=True)
    W.mkdir(parents=True)
    secrets, session = anyio.run(campaign)
    print("session directory:", session)
    search(secrets, [session, W])


if __name__ == "__main__":
    sys.exit(main())
