"""``second-record-i`` mutants: answer field ``i``'s call made once more, on another record.

A rubric that reads the note (or reply) of the task's own record never sees a second one
written on another record: an extra note on the allocated invoice stating an amount no
one paid (round 9, N1: "notes on a second record are never read"). The mutant keeps the
reference and, right after field ``i``'s write call, makes the same call again with its
first record argument (an ``*_id`` integer) on the neighbouring record (one less, or one
more where that is no id) and its text also stating `near-i`'s near misses (a wrong amount
beside each the note states). The gate reports it when it is graded passed with no check
failing and no call refused (the other record exists and took the note) where ``near-i``
(the same near misses in the field itself) fails a check: the field is read on its own
record, a text written on another record in the episode is read by no check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcpgym_clients.instrument.controls import Call

__all__ = ["second_record_call", "second_record_finding"]


def second_record_call(call: Call, key: str, extra: Sequence[str]) -> tuple[Call, str] | None:
    """The call of ``call`` (a write call whose free-text argument is ``key``) on the
    neighbouring record, its text also stating ``extra``, and that record's id as text;
    ``None`` when the call names no record (no ``*_id`` integer argument)."""
    name, args = call
    ids = [
        k
        for k, v in args.items()
        if k.endswith("_id") and isinstance(v, int) and not isinstance(v, bool)
    ]
    if not ids:
        return None
    value = int(args[ids[0]])
    other = value - 1 if value > 1 else value + 1
    text = f"{args[key]}\n\n{', '.join(extra)}." if extra else str(args[key])
    return (name, {**args, ids[0]: other, key: text}), f"{ids[0]}={other}"


def _fails(grade: Any) -> bool:
    return any(c.get("applicable") and not c.get("passed") for c in grade.get("checks", []))


def second_record_finding(
    where: str,
    label: str,
    group: str,
    values: Sequence[str],
    grade: Any,
    refused: int,
    near: Any = None,
) -> str:
    """The finding line for a ``second-record`` mutant graded ``grade`` (its JSON) with
    ``refused`` calls refused, or ``""``: reported when graded passed, no applicable check
    failing and no call refused, where the same near misses in the field itself fail a
    check (``near``: ``near-i``'s grade; a field whose own amounts no check reads is
    ``near-i``'s finding already)."""
    if refused or not grade or not grade.get("passed") or _fails(grade):
        return ""
    if not near or not _fails(near):
        return ""
    return (
        f"{where}: a note on another record is not read: field {group}'s call made again "
        f"on {values[0]} with a near miss in its text ({', '.join(values[1:3])}; `{label}`) "
        f"is graded passed at {grade.get('score'):.3f} and no check fails: read every text "
        "the episode writes (an `AnswerMatch` over all notes, or `NoCollateralChanges` "
        "without the notes' table excepted)"
    )
