"""Checking what an agent returned before the driver ends, grades and stores the episode.

Agents are a lab's code (``--agent module:attr``): their `AgentResult` may hold anything.
`checked_result` makes it safe to pass on, so that one bad result never stops a campaign:

- not an `AgentResult`, a ``termination`` outside `Termination`, or an ``answer`` that is
  not a ``str``: the episode becomes ``model_error`` (unscored), naming what was wrong;
- a transcript or usage that JSON cannot hold (bytes, sets, objects, NaN): coerced (bytes
  decoded, sets listed, other objects by ``repr``; usage values that are not finite numbers
  dropped) and noted in the transcript (``mcpgym_harness`` message);
- an answer longer than the environment's string limit (`ANSWER_LIMIT`, the server's
  ``MAX_STRING_LENGTH``): cut to the limit, noted in the transcript; the episode stays
  scored (the answer is the model's, only its tail is lost).
"""

from __future__ import annotations

import math
from typing import Any, cast, get_args

from mcpgym_clients.protocol import AgentResult, Termination
from mcpgym_server.runtime import MAX_STRING_LENGTH

TERMINATIONS: frozenset[str] = frozenset(get_args(Termination))
"""Every valid `Termination`."""

ANSWER_LIMIT = MAX_STRING_LENGTH
"""Characters of a final answer the environment accepts (longer answers are cut)."""


MAX_DEPTH = 64
"""Nesting depth of transcript data kept; deeper data is cut."""

MAX_NODES = 200_000
"""Values (strings, numbers, containers) of transcript data kept; the rest is cut."""


def _text(value: str, notes: list[str], where: str) -> str:
    """``value`` with unpaired surrogates (not encodable as UTF-8, so not JSON) replaced."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        notes.append(f"{where}: characters that are not valid Unicode replaced")
        return value.encode("utf-8", "replace").decode("utf-8")
    return value


def _repr(value: Any) -> str:
    try:
        return repr(value)[:2000]
    except Exception:  # a lab's object whose __repr__ raises
        return f"<{type(value).__name__} object>"


def _plain(
    value: Any, notes: list[str], where: str, depth: int = 0, budget: list[int] | None = None
) -> Any:
    """``value`` as plain JSON data; each coercion is described in ``notes``. Deep,
    self-referencing or huge (shared sub-structures fanning out) data is cut."""
    budget = [MAX_NODES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        if budget[0] == -1:
            notes.append(f"{where}: more than {MAX_NODES} values: the rest cut")
        return None
    if depth > MAX_DEPTH:
        notes.append(f"{where}: nested deeper than {MAX_DEPTH} levels (or self-referencing): cut")
        return None
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) < 2**63:
            return value
        notes.append(f"{where}: an integer beyond 64 bits stored as text")
        return str(value) if value.bit_length() < 10_000 else "<huge integer>"
    if isinstance(value, str):
        return _text(value, notes, where)
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        notes.append(f"{where}: {value!r} replaced by null")
        return None
    if isinstance(value, dict):
        return {
            _text(str(k), notes, where): _plain(v, notes, f"{where}.{k}", depth + 1, budget)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_plain(v, notes, f"{where}[{i}]", depth + 1, budget) for i, v in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        notes.append(f"{where}: a {type(value).__name__} stored as a list")
        return [_plain(v, notes, where, depth + 1, budget) for v in sorted(value, key=_repr)]
    if isinstance(value, (bytes, bytearray)):
        notes.append(f"{where}: bytes decoded as UTF-8")
        return bytes(value).decode("utf-8", "replace")
    notes.append(f"{where}: a {type(value).__name__} stored as its repr")
    return _text(_repr(value), notes, where)


def _usage(value: Any, notes: list[str]) -> dict[str, float]:
    if not isinstance(value, dict):
        if value:
            notes.append(f"usage: a {type(value).__name__} dropped (give a dict)")
        return {}
    out: dict[str, float] = {}
    for key, v in value.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            ok = False
        elif isinstance(v, int):
            ok = abs(v) < 2**63
        else:
            ok = math.isfinite(v)
        if ok:
            out[str(key)] = v
        else:
            shown = _repr(v)[:40] if not isinstance(v, int) else f"{type(v).__name__}"
            notes.append(f"usage.{key}: {shown} dropped (not a finite 64-bit number)")
    return out


def checked_result(value: object, who: str) -> AgentResult:
    """A copy of the `AgentResult` ``value`` that the driver and run store can use.

    Args:
        value: what the agent's ``run`` returned. who: how to name the agent in messages.

    Returns:
        The result with a valid termination, a ``str`` or ``None`` answer of at most
        `ANSWER_LIMIT` characters and JSON-plain transcript and usage (see the module
        docstring); a ``model_error`` result when the value cannot be used, or when
        anything goes wrong while checking it (this function never raises).
    """
    try:
        return _checked(value, who)
    except Exception as exc:  # a lab's result that even the checks cannot read
        reason = f"{who} returned a result mcpgym cannot store: {type(exc).__name__}"
        return AgentResult("model_error", [], {}, error=reason)


def _checked(value: object, who: str) -> AgentResult:
    """The checks of `checked_result`."""
    if not isinstance(value, AgentResult):
        return AgentResult(
            "model_error",
            error=f"{who} returned {type(value).__name__}, not an AgentResult",
        )
    notes: list[str] = []
    transcript = value.transcript
    if not isinstance(transcript, list):
        notes.append(f"transcript: a {type(transcript).__name__} dropped (give a list)")
        transcript = []
    transcript = [
        m if isinstance(m, dict) else {"role": "unknown", "content": m} for m in transcript
    ]
    transcript = _plain(transcript, notes, "transcript")
    usage = _usage(value.usage, notes)
    error = value.error if value.error is None else str(value.error)[:4000]
    termination: Any = value.termination
    answer: Any = value.answer
    problem = None
    if not isinstance(termination, str) or termination not in TERMINATIONS:
        problem = (
            f"{who} returned termination {str(termination)[:80]!r}; "
            f"valid: {', '.join(sorted(TERMINATIONS))}"
        )
    elif answer is not None and not isinstance(answer, str):
        problem = f"{who} returned an answer of type {type(answer).__name__}; give a str or None"
    if problem is not None:
        transcript.append({"role": "user", "content": problem, "mcpgym_harness": True})
        return AgentResult(
            "model_error", transcript, usage, error=problem + (f" ({error})" if error else "")
        )
    if answer is not None:
        answer = _text(answer, notes, "answer")
    if answer is not None and len(answer) > ANSWER_LIMIT:
        notes.append(
            f"answer: {len(answer)} characters cut to the first {ANSWER_LIMIT} "
            "(the environment's limit)"
        )
        answer = answer[:ANSWER_LIMIT]
    if notes:
        transcript.append(
            {
                "role": "user",
                "content": f"mcpgym changed what {who} returned: " + "; ".join(notes[:20]),
                "mcpgym_harness": True,
            }
        )
    # `termination` was checked against TERMINATIONS above
    return AgentResult(
        cast(Termination, termination), transcript, usage, answer=answer, error=error
    )
