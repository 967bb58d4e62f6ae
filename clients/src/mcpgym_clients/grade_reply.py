"""The grading service's answer to ``POST /grades``, checked before anything is stored.

A grade decides whether an episode counts and what it scores, so its shape is checked at
the client boundary (`checked_grade`): the ``episode_id`` asked for, a ``status`` of
``graded`` or ``error``, and for ``graded`` a finite ``score`` in [0, 1] and a boolean
``passed``. An answer that fails (a grade without a score, a score of ``"NaN"`` or 7.5,
another episode's grade) is a fault of the grading service: `InfraError`, so that episode
is ``infra_error`` (unscored, retried) with a reason quoting the body; it never aborts the
campaign nor is stored as a score. Fields beyond these are kept as sent.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, ValidationError

from mcpgym_clients.errors import InfraError

QUOTED = 300
"""Characters of a refused grade's body quoted in the episode's ``error``."""


class GradeReply(BaseModel):
    """The fields of a grade the harness relies on (others are allowed and kept)."""

    model_config = ConfigDict(extra="allow", allow_inf_nan=False)
    episode_id: str
    status: Literal["graded", "error"]
    score: StrictFloat | None = Field(default=None, ge=0, le=1)
    passed: StrictBool


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"`{'.'.join(str(p) for p in e['loc']) or 'body'}`: {e['msg']}" for e in exc.errors()
    )


def quoted(body: Any) -> str:
    """``body`` as JSON, cut to `QUOTED` characters (``...`` marks a cut)."""
    text = body if isinstance(body, str) else json.dumps(body, default=str)
    return text if len(text) <= QUOTED else text[:QUOTED] + "..."


def checked_grade(body: dict[str, Any], episode_id: str) -> dict[str, Any]:
    """``body`` (the JSON object ``POST /grades`` answered) if it is a well-formed grade of
    ``episode_id`` (see the module).

    Raises:
        InfraError: it is not; the message names what is wrong and quotes the body.
    """

    def refused(why: str) -> InfraError:
        return InfraError(
            "grading",
            f"POST /grades answered an invalid grade for episode {episode_id} ({why}): "
            f"{quoted(body)}",
        )

    if body.get("status") == "graded" and body.get("score") is None:
        raise refused("`score`: missing, a graded grade needs a score in [0, 1]")
    try:
        reply = GradeReply.model_validate(body)
    except ValidationError as exc:
        raise refused(_problems(exc)) from None
    if reply.episode_id != episode_id:
        raise refused(f"it grades episode {reply.episode_id!r}, not the one asked for")
    return body
