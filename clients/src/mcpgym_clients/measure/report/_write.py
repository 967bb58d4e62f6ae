"""Gather a run (and optionally a second one) from the run store and write the HTML report."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from mcpgym_clients.measure.report._render import render_report
from mcpgym_clients.runstore import RunStore


def default_report_path(store: RunStore, run_id: str, vs: str | None = None) -> Path:
    """Where a report goes unless told: ``reports/<RUN>[-vs-<RUN_B>].html`` next to the
    run store's file (``runs/reports/`` for an in-memory store)."""
    base = store.path.parent if store.path is not None else Path("runs")
    name = run_id if vs is None else f"{run_id}-vs-{vs}"
    return base / "reports" / f"{name}.html"


def write_report(
    store: RunStore,
    run_id: str,
    *,
    vs: str | None = None,
    out: str | Path | None = None,
    force: bool = False,
    resamples: int = 2000,
    seed: int = 0,
) -> Path:
    """Write the HTML report of ``run_id`` (compared with run ``vs`` if given) and return its path.

    Args:
        store: the run store holding the runs. run_id: the run reported (the new run, B
            in a comparison).
        vs: the run to compare against (the baseline, A): deltas are ``run_id`` − ``vs``,
            so a better new run shows a positive delta.
        out: the file to write (default `default_report_path`); parent folders are created
            and an existing file is replaced (atomically).
        force: compare runs on different locks anyway (the report says so).
        resamples, seed: bootstrap resamples and seed for the confidence intervals.

    Raises:
        ConfigurationError: an unknown run id. IncomparableRunsError: ``vs`` is on another lock
            and ``force`` is false. OSError: the file cannot be written.
    """
    from mcpgym_clients.measure.compare import compare_runs
    from mcpgym_clients.measure.metrics import run_metrics

    metrics = run_metrics(store, run_id, resamples=resamples, seed=seed)
    baseline = metrics.get("baseline")
    baseline_episodes = store.episodes(baseline["run"]["id"]) if baseline else []
    comparison = run_b = None
    episodes_b = []
    if vs is not None:
        comparison = compare_runs(store, vs, run_id, force=force, resamples=resamples, seed=seed)
        run_b = store.run(vs)
        episodes_b = store.episodes(vs)
    html = render_report(
        metrics,
        store.episodes(run_id),
        baseline_episodes=baseline_episodes,
        comparison=comparison,
        episodes_b=episodes_b,
        run_b=run_b,
    )
    path = Path(out) if out is not None else default_report_path(store, run_id, vs)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a report is for sharing
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(html)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
