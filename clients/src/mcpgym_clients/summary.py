"""Campaign summaries: per task family and band, the agent's figures beside the null baseline.

With several epochs the summary adds pass@k (Chen et al. 2021, "Evaluating Large
Language Models Trained on Code") and pass^k (Yao et al. 2024, "tau-bench") at k =
the run's epochs, averaged over the variants with every epoch scored, exactly as
``mcpgym show RUN`` computes them (`mcpgym_clients.measure.stats.k_table`); ``show``
prints every k with bootstrap intervals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from mcpgym_clients.measure.stats import k_coverage, k_table
from mcpgym_clients.records import EpisodeRecord

ALL = "(all)"


@dataclass(frozen=True)
class Figures:
    """Aggregate figures over a set of episodes.

    Attributes:
        n: episodes run. scored: episodes counted in the score (graded, no infra or
            model error). errors: ``n - scored``. mean: mean score over the scored
            episodes (``None`` if none). pass_rate: fraction of scored episodes that passed.
        epochs: the run's epochs (default: the most scored episodes of one variant).
            pass_at_k, pass_hat_k: pass@k and pass^k at k = ``epochs`` averaged over the
            ``pass_k_variants`` variants with that many scored episodes (``None`` when
            ``epochs`` < 2: both equal the pass rate then, or when no variant has them).
    """

    n: int
    scored: int
    errors: int
    mean: float | None
    pass_rate: float | None
    epochs: int = 1
    pass_at_k: float | None = None
    pass_hat_k: float | None = None
    pass_k_variants: int = 0

    @classmethod
    def of(cls, records: Iterable[EpisodeRecord], *, epochs: int | None = None) -> Figures:
        """Aggregate ``records`` of a run of ``epochs`` epochs (default: the most scored
        episodes of one variant)."""
        recs = list(records)
        scores = [r.score for r in recs if r.score is not None]
        passes = [bool(r.passed) for r in recs if r.passed is not None]
        per_variant: dict[tuple[str, str, int], list[bool]] = {}
        for r in recs:
            if r.passed is not None:
                per_variant.setdefault((r.task, r.band, r.seed), []).append(r.passed)
        outcomes = [(len(v), sum(v)) for v in per_variant.values()]
        k = epochs if epochs is not None else max((n for n, _ in outcomes), default=1)
        return cls(
            n=len(recs),
            scored=len(scores),
            errors=len(recs) - len(scores),
            mean=sum(scores) / len(scores) if scores else None,
            pass_rate=sum(passes) / len(passes) if passes else None,
            epochs=k,
            pass_at_k=k_table(outcomes, k)[str(k)] if k > 1 else None,
            pass_hat_k=k_table(outcomes, k, hat=True)[str(k)] if k > 1 else None,
            pass_k_variants=k_coverage(outcomes, k),
        )


@dataclass(frozen=True)
class SummaryRow:
    """One line of the summary: a family and band (or `ALL`), the agent and the baseline."""

    task: str
    band: str
    agent: Figures
    baseline: Figures | None


def summarize_records(
    records: Sequence[EpisodeRecord],
    baseline: Sequence[EpisodeRecord] | None = None,
    *,
    epochs: int | None = None,
) -> list[SummaryRow]:
    """Group records by (task, band), in first-seen order, plus an overall `ALL` row.

    Args:
        records: the agent's episodes. baseline: the null agent's episodes on the same
            variants (one epoch), or ``None`` when no baseline was run.
        epochs: the agent run's epochs, the k of pass@k (default: the most scored
            episodes of one variant).
    """
    keys: list[tuple[str, str]] = []
    for r in records:
        if (r.task, r.band) not in keys:
            keys.append((r.task, r.band))

    def base(task: str | None, band: str | None) -> Figures | None:
        if baseline is None:
            return None
        return Figures.of(
            (
                b
                for b in baseline
                if (task is None or b.task == task) and (band is None or b.band == band)
            ),
            epochs=1,
        )

    rows = [
        SummaryRow(
            task,
            band,
            Figures.of((r for r in records if r.task == task and r.band == band), epochs=epochs),
            base(task, band),
        )
        for task, band in keys
    ]
    rows.append(SummaryRow(ALL, ALL, Figures.of(records, epochs=epochs), base(None, None)))
    return rows


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def render_summary(rows: Sequence[SummaryRow], *, agent: str, title: str | None = None) -> Table:
    """A rich table of `summarize_records` rows (baseline columns when there is a baseline).

    Args:
        rows: from `summarize_records`. agent: the agent's name (the title when ``title`` is None).
        title: the table title.
    """
    with_base = any(r.baseline is not None for r in rows)
    k = max((r.agent.epochs for r in rows), default=1)
    table = Table(title=title or agent, show_lines=False)
    widest = max((len(r.task) for r in rows), default=4)
    table.add_column("task family", no_wrap=True, min_width=widest)
    table.add_column("band", no_wrap=True)
    numeric: dict[str, Any] = {"justify": "right", "overflow": "fold"}  # fold, never cut
    table.add_column("n", **numeric)
    table.add_column("mean", **numeric)
    table.add_column("pass", **numeric)
    if k > 1:
        table.add_column(f"pass@{k}/^{k}", **numeric)
    table.add_column("err", **numeric)
    if with_base:
        table.add_column("null mean", **numeric)
        table.add_column("null pass", **numeric)
    for row in rows:
        cells = [
            row.task,
            row.band,
            str(row.agent.n),
            _num(row.agent.mean),
            _pct(row.agent.pass_rate),
            *([f"{_pct(row.agent.pass_at_k)}/{_pct(row.agent.pass_hat_k)}"] if k > 1 else []),
            str(row.agent.errors) if row.agent.errors else "",
        ]
        if with_base:
            b = row.baseline
            cells += [_num(b.mean if b else None), _pct(b.pass_rate if b else None)]
        table.add_row(*cells, end_section=row.task != ALL and row is rows[-2])
    return table


def unscored_reasons(records: Iterable[EpisodeRecord]) -> dict[str, int]:
    """Why episodes were left out of the scores: counts by termination or ``grade_error``.

    Returns:
        ``{"infra_error": n, "model_error": n, "grade_error": n, ...}`` (only non-zero).
    """
    counts: dict[str, int] = {}
    for r in records:
        if r.scored:
            continue
        if r.termination in ("infra_error", "model_error") or r.grade is None:
            reason = r.termination
        else:
            reason = "grade_error"
        counts[reason] = counts.get(reason, 0) + 1
    return counts


FLAG_NOTES = {
    "unparsed_tool_call": "unparsed_tool_call: scored as given, the final message looked like a"
    " tool call no parser read, not necessarily a wrong answer",
    "context_overflow": "context_overflow: scored as given (max_tokens), the model server's"
    " context window ended the episode after its first request",
}
"""What each flag of `mcpgym_clients.measure.metrics.EPISODE_FLAGS` means, as said after
the counts."""


def flag_notes(counts: Mapping[str, int]) -> str:
    """`` (NOTE; NOTE)``: the `FLAG_NOTES` of the flags counted (``counts``: flag ->
    episodes), only those; ``""`` when none is."""
    notes = [FLAG_NOTES[k] for k, v in counts.items() if v and k in FLAG_NOTES]
    return f" ({'; '.join(notes)})" if notes else ""


def flagged_line(records: Iterable[EpisodeRecord], *, reads_text_calls: bool | None) -> str | None:
    """The ``flagged:`` line of an eval's summary, or ``None`` when no scored episode is flagged.

    Counts the scored episodes carrying each flag of `mcpgym_clients.measure.metrics.EPISODE_FLAGS`
    (as ``mcpgym show`` does from the run store). When episodes ended on a reply that looked
    like a tool call and the agent did not read calls written as text (``reads_text_calls``
    False: a bare ``--model NAME`` or ``--no-parse-text-tool-calls``), the line says how to
    read them.

    Args:
        records: the agent's episode records. reads_text_calls: the agent's
            ``parse_text_tool_calls`` (``None`` for an agent without one).
    """
    from mcpgym_clients.measure.metrics import EPISODE_FLAGS, episode_flags

    scored = [r for r in records if r.scored]
    counts: dict[str, int] = dict.fromkeys(EPISODE_FLAGS, 0)
    for r in scored:
        for flag in episode_flags({"transcript": r.transcript}):
            counts[flag] += 1
    if not any(counts.values()):
        return None
    line = "flagged: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v)
    line += f" of {len(scored)} scored episodes" + flag_notes(counts)
    if counts["unparsed_tool_call"]:
        if reads_text_calls is False:
            line += (
                "; --parse-text-tool-calls reads tool calls written as text (on for"
                " --model openai-compatible:NAME and --base-url alone)"
            )
    return line
