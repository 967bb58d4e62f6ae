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
from typing import Any, get_args

from mcpgym_clients.protocol import AgentResult, Termination
from mcpgym_server.tools import MAX_STRING_LENGTH

TERMINATIONS: frozenset[str] = frozenset(get_args(Termination))
"""Every valid `Termination`."""

ANSWER_LIMIT = MAX_STRING_LENGTH
"""Characters of a final answer the environment accepts (longer answers are cut)."""


def _plain(value: Any, notes: list[str], where: str) -> Any:
    """``value`` as plain JSON data; each coercion is described in ``notes``."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        notes.append(f"{where}: {value!r} replaced by null")
        return None
    if isinstance(value, dict):
        return {str(k): _plain(v, notes, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, notes, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        notes.append(f"{where}: a {type(value).__name__} stored as a list")
        return [_plain(v, notes, where) for v in sorted(value, key=repr)]
    if isinstance(value, (bytes, bytearray)):
        notes.append(f"{where}: bytes decoded as UTF-8")
        return bytes(value).decode("utf-8", "replace")
    notes.append(f"{where}: a {type(value).__name__} stored as its repr")
    return repr(value)[:2000]


def _usage(value: Any, notes: list[str]) -> dict[str, float]:
    if not isinstance(value, dict):
        if value:
            notes.append(f"usage: a {type(value).__name__} dropped (give a dict)")
        return {}
    out: dict[str, float] = {}
    for key, v in value.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            out[str(key)] = v
        else:
            notes.append(f"usage.{key}: {str(v)[:40]!r} dropped (not a finite number)")
    return out


def checked_result(value: object, who: str) -> AgentResult:
    """A copy of the `AgentResult` ``value`` that the driver and run store can use.

    Args:
        value: what the agent's ``run`` returned. who: how to name the agent in messages.

    Returns:
        The result with a valid termination, a ``str`` or ``None`` answer of at most
        `ANSWER_LIMIT` characters and JSON-plain transcript and usage (see the module
        docstring); a ``model_error`` result when the value cannot be used.
    """
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
    return AgentResult(termination, transcript, usage, answer=answer, error=error)
