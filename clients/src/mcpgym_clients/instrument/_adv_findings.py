"""Condition 7's findings over the graded adversarial mutants (`shortcut_failures`; moved
out of `mcpgym_clients.instrument.adversarial`, which re-exports it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcpgym_clients.instrument._adversary import Adversary
from mcpgym_clients.instrument.fact import dates_finding, fact_finding
from mcpgym_clients.instrument.flip import framed_finding
from mcpgym_clients.instrument.records import second_record_finding
from mcpgym_clients.instrument.stranger import stranger_finding
from mcpgym_clients.instrument.swap import swap_finding
from mcpgym_grading import AnswerMatch
from mcpgym_server import Environment


def _results(job: Any) -> dict[str, dict[str, Any]]:
    grade = job.record.grade if job.record is not None else None
    return {c["name"]: c for c in (grade or {}).get("checks", []) if c.get("applicable")}


def _refused_calls(job: Any) -> int:
    transcript = job.record.transcript if job.record is not None else []
    return sum(1 for m in transcript if m.get("mcpgym_is_error"))


def _graded(job: Any) -> bool:
    rec = job.record
    return rec is not None and rec.grade is not None and rec.grade.get("status") == "graded"


def _amounts_unread(adv: Adversary, job: Any, answer_checks: dict[str, str]) -> str:
    """The finding, or ``""``, for an ``amounts-i`` / ``near-i`` mutant (a plain one) graded
    passed with no money answer check failing on it: field ``i`` states amounts that no
    check reads (every text the agent states amounts in needs a money check that reads it,
    docs/instrument.md), whether or not any check reads the field otherwise."""
    if adv.role not in ("amounts", "near") or "@" in adv.label:
        return ""
    grade = job.record.grade
    if not grade.get("passed"):
        return ""
    if any(answer_checks.get(n) == "money" and not c["passed"] for n, c in _results(job).items()):
        return ""
    what = "a near miss of its amounts" if adv.role == "near" else "every candidate amount"
    shown = ", ".join(adv.values[:6]) + (", ..." if len(adv.values) > 6 else "")
    return (
        f"field {adv.group} states amounts no check reads: the field also stating {what} "
        f"({shown}; `{adv.label}`) is graded passed at {grade.get('score'):.3f}; give the "
        'text a money check that reads it (an `AnswerMatch` with `normalize="money"`, '
        '`mode="states"` and the amounts it may state `allowed`)'
    )


def shortcut_failures(env: Environment, jobs: Sequence[Any]) -> tuple[list[str], int]:
    """Condition 7's findings over the finished adversarial jobs (``job.adversary`` set).

    - a shotgun passes: an answer check reads field ``i`` (it fails when the field says
      nothing) and ``stuff-i`` / ``amounts-i`` is graded passed, where ``blank-i`` is not or
      ``stuff-i`` scores 1.0 (listing every candidate is a shortcut to the pass or the points);
    - a near miss passes: a money answer check that reads field ``i`` passes ``near-i`` (the
      right amount beside one cent more, or double);
    - a shotgun of alternatives passes: a check that fails on ``omit-i:K`` (it reads the
      categorical value ``K``) passes ``choices-i:K`` (every alternative named beside it);
    - a look-alike evades: a check that fails on a plain mutant passes on the same values in
      a look-alike form (a form whose extra calls the environment refused is left out);
    - a write undone later passes: an ``undo-T`` mutant is graded passed;
    - amounts no check reads: ``amounts-i`` or ``near-i`` (every field gets both) is graded
      passed and no money answer check fails on it (`_amounts_unread`).
    - the decision is not read: ``flip-i-from-B`` (another band's text, another outcome) is
      graded passed where ``blank-i`` fails a check (the field is read).
    - a framed claim evades: a check that fails on ``claim-A-i`` passes ``claim-A-i~F`` (the
      same claim in a frame, `flip.framed_finding`).
    - a shotgun of dates passes: ``dates-i`` (the field's dates beside the variant's other
      dates and their neighbours) is graded passed with no check failing
      (`fact.dates_finding`).
    - a swap passes: ``swap-i-N`` (two values of one kind exchanged) is graded passed with
      no check failing (`swap.swap_finding`).
    - another party's values a tool result showed pass: ``stranger-i`` is graded passed
      (`stranger.stranger_finding`).
    - a note on another record is not read: ``second-record-i`` is graded passed with no
      check failing and no call refused, where ``near-i`` fails a check
      (`records.second_record_finding`).

    Returns:
        One line per finding, and how many adversarial episodes were compared.
    """
    rubrics = {name: fam.rubric for name, fam in env.families.items()}
    by_variant: dict[tuple[str, str, int], dict[str, Any]] = {}
    for job in jobs:
        if getattr(job, "adversary", None) is not None and _graded(job):
            by_variant.setdefault((job.task, job.band, job.seed), {})[job.adversary.label] = job
    lines: list[str] = []
    for (task, band, seed), found in sorted(by_variant.items()):
        where = f"{task}@{band}#{seed}"
        answer_checks = {
            c.name: c.normalize
            for c in getattr(rubrics[task], "checks", ())
            if isinstance(c, AnswerMatch)
        }
        for label, job in sorted(found.items()):
            adv: Adversary = job.adversary
            before = len(lines)
            if adv.role in ("stuff", "amounts") and "@" not in label:
                blank = found.get(f"blank-{adv.group}")
                if blank is None:
                    continue
                kind = "money" if adv.role == "amounts" else "token"
                reading = sorted(
                    n
                    for n, c in _results(blank).items()
                    if answer_checks.get(n) == kind and not c["passed"]
                )
                grade = job.record.grade
                full = grade.get("score") == 1.0
                if (
                    reading
                    and grade.get("passed")
                    and (not blank.record.grade.get("passed") or full)
                ):
                    what = "candidate amounts" if adv.role == "amounts" else "candidate values"
                    names = ", ".join(f"`{n}`" for n in reading)
                    lines.append(
                        f"{where}: a shotgun passes: field {adv.group} listing every one of the "
                        f"{len(adv.values)} {what} (`{label}`) is graded passed at "
                        f"{grade.get('score'):.3f}; check(s) {names} "
                        "read it: name the other candidates as `forbidden` values"
                    )
            elif adv.role == "flip":
                blank = found.get(f"blank-{adv.group}")
                grade = job.record.grade
                if blank is None or not grade.get("passed"):
                    continue
                reading = sorted(n for n, c in _results(blank).items() if not c["passed"])
                if reading:
                    lines.append(
                        f"{where}: the decision is not read: field {adv.group} with the text "
                        f"band {adv.values[0]} writes there (another outcome, `{label}`) is "
                        f"graded passed at {grade.get('score'):.3f}, though check(s) "
                        f"{', '.join(f'`{n}`' for n in reading)} read the field: add a "
                        "`DecisionMatch` (the outcome this band did not take is not claimed)"
                    )
            elif adv.role == "swap":
                line = swap_finding(where, label, adv.group, adv.values, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "stranger" and "@" not in label:
                line = stranger_finding(where, label, adv.group, adv.values, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "fact":
                line = fact_finding(where, label, adv.group, adv.values, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "dates":
                line = dates_finding(where, label, adv.group, adv.values, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "frame":
                plain = found.get(adv.base)
                plain_grade = plain.record.grade if plain is not None else None
                line = framed_finding(where, label, plain_grade, job.record.grade)
                lines += [line] if line else []
            elif adv.role == "second":
                grade, refused = job.record.grade, _refused_calls(job)
                near = found.get(f"near-{adv.group}")
                near = near.record.grade if near is not None else None
                line = second_record_finding(
                    where, label, adv.group, adv.values, grade, refused, near
                )
                lines += [line] if line else []
            elif adv.role == "undo":
                grade = job.record.grade
                if grade.get("passed"):
                    lines.append(
                        f"{where}: a write undone later passes: `{label}` (the reference plus "
                        f"a write of {', '.join(adv.values)} the task does not call for, then "
                        f"the same call setting it back) is graded passed at "
                        f"{grade.get('score'):.3f}: no required check sees it; compare the "
                        "app's audit trail with the reference's (`NoCollateralChanges` "
                        "`same_rows`) or refuse the call in the tool-call log (`ToolNotCalled`)"
                    )
            elif adv.role == "near":
                blank = found.get(f"blank-{adv.group}")
                if blank is None:
                    continue
                mine = _results(job)
                fooled = sorted(
                    n
                    for n, c in _results(blank).items()
                    if answer_checks.get(n) == "money"
                    and not c["passed"]
                    and mine.get(n, {}).get("passed")
                )
                if fooled:
                    lines.append(
                        f"{where}: check(s) {', '.join(f'`{n}`' for n in fooled)} read an "
                        f"amount in field {adv.group} and pass when it also states a near miss "
                        f"({', '.join(adv.values)}; `{label}`): the right amount beside another "
                        'is not stated; use `mode="states"` (with `allowed` amounts)'
                    )
            elif adv.role == "choices" and "@" not in label:
                omit = found.get("omit-" + adv.group)
                if omit is None:
                    continue
                mine = _results(job)
                fooled = sorted(
                    n
                    for n, c in _results(omit).items()
                    if not c["passed"] and mine.get(n, {}).get("passed")
                )
                if fooled:
                    value = adv.group.split(":", 1)[1]
                    lines.append(
                        f"{where}: check(s) {', '.join(f'`{n}`' for n in fooled)} read "
                        f"`{value}` in field {adv.group.split(':', 1)[0]} (they fail without "
                        f"it) and pass when the field also names every alternative "
                        f"({', '.join(adv.values)}; `{label}`): a shotgun of alternatives "
                        "passes; name the alternatives as forbidden values"
                    )
            elif adv.base:
                plain = found.get(adv.base)
                if plain is None or _refused_calls(job) > _refused_calls(plain):
                    continue
                mine = _results(job)
                # a leak writes raw values (cents as integers, ids): to a money check they are
                # bare numbers, whose reading is not meant to survive a form (``141, 26647``
                # vs ``141,26647``); amounts' look-alikes are the ``amounts`` mutants' forms
                raw = adv.base.startswith(("leak", "guard", "stranger"))
                evaded = sorted(
                    n
                    for n, c in _results(plain).items()
                    if not c["passed"]
                    and mine.get(n, {}).get("passed")
                    and not (raw and answer_checks.get(n) == "money")
                )
                if evaded:
                    lines.append(
                        f"{where}: check(s) {', '.join(f'`{n}`' for n in evaded)} fail on "
                        f"`{adv.base}` but pass on the same values in the {adv.role} form "
                        f"(`{label}`): read the text through mcpgym_grading's normaliser "
                        "(an AnswerMatch with `forbidden` / `forbidden_sql`)"
                    )
            # amounts or a near miss that passed and no finding above names a check of
            unread = _amounts_unread(adv, job, answer_checks)
            if unread and len(lines) == before:
                lines.append(f"{where}: {unread}")
    return lines, sum(len(v) for v in by_variant.values())
