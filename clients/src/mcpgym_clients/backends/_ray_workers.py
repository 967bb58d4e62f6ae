"""Ray's workers that cannot start: Ray's ``uv run`` setting read too early, and worker
processes that die at start (`mcpgym_clients.backends.ray`).

Ray reads ``RAY_ENABLE_UV_RUN_RUNTIME_ENV`` once, when it is first imported
(``ray._private.ray_constants``). With it on (Ray's default) and a driver started under
``uv run``, ``ray.init`` ships the working directory to the workers and runs them with
``uv run`` there: an environment synced from the project without the ``ray`` extra, where
each worker dies at ``import ray``. `import_ray` sets it off, which is too late when the
caller imported Ray first (a lab's script, a test session): `uv_run_setting_applied` makes
the Ray already imported read the environment's setting before ``ray.init``.

A worker that dies at start is not reported to the driver: Ray starts another one a
minute later, and the actor stays pending until `START_TIMEOUT_S` runs out. What the dying
worker printed goes to the raylet's stderr, ``raylet.err`` in the session's log folder of
its node; `StartFailures` reads what is added there while actors start, so that the
campaign stops at once with the worker's own error (on the driver's node only: another
node's log folder is not readable here).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

UV_RUN_SETTING = "RAY_ENABLE_UV_RUN_RUNTIME_ENV"

UV_RUN_HINT = (
    "Ray runs this driver's workers with `uv run` (the driver was started under `uv run` "
    f"and {UV_RUN_SETTING} is on), in an environment synced without this one's packages: "
    f"set {UV_RUN_SETTING}=0 before Ray is first imported, or start Ray yourself with "
    "runtime_env={'py_executable': sys.executable}"
)

_TRACEBACK = "Traceback (most recent call last):"
_ERROR_LINE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b.*$")


def _on(value: str) -> bool:
    """Ray's reading of a boolean setting (``env_bool``): ``1`` or ``true``."""
    return value.strip().lower() in ("1", "true")


def uv_run_setting_applied(ray: ModuleType, environ: Mapping[str, str] = os.environ) -> bool:
    """Make the Ray already imported read ``RAY_ENABLE_UV_RUN_RUNTIME_ENV`` as
    ``environ`` has it now (unset: off, `import_ray`'s default), for a ``ray.init`` made
    after this call.

    Returns:
        Whether Ray's constant was changed (it was on, the environment says off: Ray was
        imported before the setting was made). Nothing changes where the environment
        asks for it on, or where this Ray has no such constant.
    """
    constants = getattr(getattr(ray, "_private", None), "ray_constants", None)
    if constants is None or getattr(constants, UV_RUN_SETTING, None) is not True:
        return False
    if _on(environ.get(UV_RUN_SETTING, "0")):
        return False
    setattr(constants, UV_RUN_SETTING, False)
    return True


def runs_workers_with_uv(ray: ModuleType) -> bool:
    """Whether this driver's Ray job runs its workers with ``uv run`` (its runtime
    environment's ``py_executable``, as Ray's ``uv run`` hook sets it)."""
    with contextlib.suppress(Exception):  # not connected, or no runtime context
        executable = ray.get_runtime_context().runtime_env.get("py_executable") or ""
        return str(executable).split()[:2] == ["uv", "run"]
    return False


class StartFailures:
    """What Ray's worker processes on this node printed as they died at start, from the
    moment this object was made (``raylet.err`` of the session's log folder).

    Attributes:
        path: the file read (``None``: this driver has no local log folder to read).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._offset = 0
        if path is not None:
            with contextlib.suppress(OSError):
                self._offset = path.stat().st_size

    @classmethod
    def of(cls, ray: ModuleType) -> StartFailures:
        """For the node of this process's Ray driver (Ray's private API; a Ray without
        it, or a Ray Client driver: nothing is read)."""
        try:
            logs = ray._private.worker.global_worker.node.get_logs_dir_path()
        except Exception:  # no such private API in this Ray, or not connected
            return cls(None)
        return cls(Path(logs) / "raylet.err")

    def error(self) -> str | None:
        """The error line of the last traceback added to the file since this object was
        made (``ModuleNotFoundError: No module named 'ray'``), or ``None``."""
        if self.path is None:
            return None
        try:
            with self.path.open("rb") as f:
                f.seek(self._offset)
                text = f.read(1 << 20).decode(errors="replace")
        except OSError:
            return None
        if _TRACEBACK not in text:
            return None
        after = text.rsplit(_TRACEBACK, 1)[1].splitlines()
        lines = [line for line in after if _ERROR_LINE.match(line)]
        return lines[0].strip() if lines else None
