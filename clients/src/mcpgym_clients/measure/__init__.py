"""Measuring runs: metrics of one run, the paired comparison of two, failure mining.

- `run_metrics`: mean score, pass rate, pass@k and pass^k with bootstrap intervals,
  overall and per band, family and family@band, the null baseline beside.
- `compare_runs`: run B against run A on the same lock, paired by variant and epoch
  (score delta with a paired bootstrap interval, McNemar's test on pass flips: exact,
  or clustered by variant (Durkalski et al. 2003) with several epochs).
- `failure_targets` and `ceiling_variants`: the failed variants grouped by failed checks
  (the next training targets), and fresh variants where a family is at the ceiling.

The statistics themselves (with their sources) are in `mcpgym_clients.measure.stats`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from mcpgym_clients.errors import IncomparableRunsError

if TYPE_CHECKING:
    from mcpgym_clients.measure.compare import compare_runs
    from mcpgym_clients.measure.metrics import run_metrics

__all__ = ["IncomparableRunsError", "compare_runs", "run_metrics"]

_EXPORTS = {
    "compare_runs": "mcpgym_clients.measure.compare",
    "run_metrics": "mcpgym_clients.measure.metrics",
}


def __getattr__(name: str) -> Any:
    """`compare_runs` and `run_metrics` on first use (PEP 562): they import the run store,
    which the light modules of this package (`render`, `usage`, `stats`) do not need.

    Raises:
        AttributeError: not a name of this package.
    """
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mcpgym_clients.measure' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
