"""What the run store holds of a campaign's planned slots: the scored ones (skipped when a
run is resumed), why the others are unscored, whether a run is settled (`run_campaign`
finishes it), and the line a resumed campaign prints."""

from __future__ import annotations

from mcpgym_clients.runstore import RunStore

Slot = tuple[str, str, int, int]
"""One planned episode of a run: (task, band, seed, epoch)."""


def scored_slots(store: RunStore, run_id: str) -> set[Slot]:
    """The slots of a run stored with a score (the unscored ones are run again)."""
    return {
        (e["task"], e["band"], e["seed"], e["epoch"]) for e in store.slots(run_id) if e["scored"]
    }


def unscored_counts(store: RunStore, *run_ids: str | None, not_run: bool = False) -> dict[str, int]:
    """Why the stored episodes of the runs ``run_ids`` (``None``s skipped) are unscored, summed
    (as `mcpgym_clients.summary.unscored_reasons` counts them, from the light rows; retried
    on resume). ``not_run``: the rows of slots a stopped campaign never played (``attempts``
    0, stored ``infra_error``) are counted apart, as ``"not run"``."""
    counts: dict[str, int] = {}
    for run_id in run_ids:
        if run_id is None:
            continue
        for e in store.slots(run_id):
            if e["scored"]:
                continue
            if not_run and e["attempts"] == 0:
                counts["not run"] = counts.get("not run", 0) + 1
                continue
            term = e["termination"]
            reason = (
                term if term in ("infra_error", "model_error") or not e["graded"] else "grade_error"
            )
            counts[reason] = counts.get(reason, 0) + 1
    return counts


def settled(store: RunStore, run_id: str, planned: set[Slot]) -> bool:
    """Whether every planned slot of a run holds a row and none is ``infra_error``: what
    `RunStore.finish_run` needs (an episode the infrastructure lost is not an outcome)."""
    rows = {(e["task"], e["band"], e["seed"], e["epoch"]): e for e in store.slots(run_id)}
    return all(slot in rows and rows[slot]["termination"] != "infra_error" for slot in planned)


def resuming_line(
    store: RunStore,
    run_id: str,
    baseline_id: str | None,
    *,
    done: int,
    planned: int,
    base_done: int,
    base_planned: int,
) -> str:
    """``resuming run ID: N of M episodes done`` with the baseline's figures, what is retried
    (by reason), how many slots an earlier stop never played, and whether the run had
    finished: what a resumed campaign prints first."""
    retry = unscored_counts(store, run_id, baseline_id, not_run=True)
    unplayed = retry.pop("not run", 0)
    finished = store.run(run_id)["finished_at"]
    line = f"resuming run {run_id}: {done} of {planned} episodes done"
    if baseline_id is not None:
        line += f" (baseline run {baseline_id}: {base_done} of {base_planned})"
    if retry:
        line += "; retrying " + ", ".join(f"{n:,} {k}" for k, n in sorted(retry.items()))
        line += " episodes"
    if unplayed:
        line += f"; playing {unplayed:,} an earlier stop did not run"
    return line + ("" if finished is None else " (the run had finished)")
