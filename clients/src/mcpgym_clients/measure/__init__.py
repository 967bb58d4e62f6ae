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

from mcpgym_clients.errors import IncomparableRunsError
from mcpgym_clients.measure.compare import compare_runs
from mcpgym_clients.measure.metrics import run_metrics

__all__ = ["IncomparableRunsError", "compare_runs", "run_metrics"]
