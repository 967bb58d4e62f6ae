"""Probe (issue 12): Ray imported by the caller before mcpgym's Ray backend, under `uv run`.

Ray reads RAY_ENABLE_UV_RUN_RUNTIME_ENV once, at its first import; mcpgym's `import_ray`
sets it to 0 (setdefault), too late when the caller imported Ray first. Run as
`uv run --no-sync python adv/round19sys/p1_uvrun19.py` (a driver under `uv run`): prints how
long `ray_backend` took to start one actor or fail, and its error. Asserts nothing.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.pop("RAY_ENABLE_UV_RUN_RUNTIME_ENV", None)
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
import anyio  # noqa: E402
import ray  # noqa: E402  # the caller's import, before mcpgym's

from mcpgym_clients.backends.ray import ray_backend  # noqa: E402
from mcpgym_server import load_environment  # noqa: E402


async def main() -> None:
    """Start one actor with `ray_backend`; print how long it took or its error."""
    setting = ray._private.ray_constants.RAY_ENABLE_UV_RUN_RUNTIME_ENV
    print("ray", ray.__version__, "uv-run setting", setting)
    t0 = time.monotonic()
    try:
        async with ray_backend(
            load_environment("helpdesk"), tempfile.mkdtemp(), actors=1, num_cpus=2
        ) as runner:
            print(f"started in {time.monotonic() - t0:.1f} s: {runner.urls}")
    except Exception as exc:
        print(f"failed after {time.monotonic() - t0:.1f} s: {type(exc).__name__}: {exc}")
    job = ray.get_runtime_context().runtime_env if ray.is_initialized() else "-"
    print("job runtime_env:", job)


anyio.run(main)
sys.exit(0)
