"""Errors raised by mcpgym grading.

The tree (rooted in the server's `MCPGymError`)::

    MCPGymError
    └── GradingError                  a bundle cannot be graded at all (raised, no grade)
        ├── LockMismatchError         the bundle ran on another lock than the installed one
        ├── BundleMismatchError       the bundle names another environment or variant
        └── CheckEvaluationError      (internal) one check cannot be evaluated

A check that cannot be evaluated (SQL error, missing param, unknown table or tool,
a reference solution that fails) is not raised: it makes the grade's status
``"error"`` and names the check (`CheckEvaluationError` carries it inside the engine).
"""

from __future__ import annotations

from mcpgym_server import MCPGymError


class GradingError(MCPGymError):
    """A bundle cannot be graded against the given environment."""


class LockMismatchError(GradingError):
    """The bundle's lock differs from the lock of the installed environment.

    The instrument changed since the episode ran (environment version, snapshot,
    tool schemas, generator or rubric); grading it now would not measure the same thing.

    Attributes:
        episode_id: the bundle's episode. bundle_lock: the lock recorded in the bundle.
        installed_lock: `compute_lock` of the installed environment.
    """

    def __init__(self, episode_id: str, bundle_lock: str, installed_lock: str) -> None:
        self.episode_id = episode_id
        self.bundle_lock = bundle_lock
        self.installed_lock = installed_lock
        super().__init__(
            f"episode {episode_id} ran on lock {bundle_lock}, but the installed environment "
            f"has lock {installed_lock}: the instrument changed (environment version, snapshot, "
            "tools, generator or rubric). Grade it with the environment version it ran on."
        )


class BundleMismatchError(GradingError):
    """The bundle belongs to another environment, or its variant id does not regenerate."""


class CheckEvaluationError(GradingError):
    """A check cannot be evaluated; the engine records it as the check's ``error``.

    Not raised out of `grade_bundle`: the grade's status becomes ``"error"``.
    """
