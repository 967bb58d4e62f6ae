"""Rollouts as JSON lines for a trainer (``mcpgym export RUN --format rollouts``).

One line per episode, an `ExportedRollout` (documented field by field in docs/training.md).
The token view (``token_ids``, ``loss_mask``, ``log_probs``) is built from the per-turn
token records the ``openai-compatible`` adapter stores (`TurnTokens`): each turn adds the
prompt tokens not yet in the sequence (``loss_mask`` 0: the system prompt, the task, tool
results) and then its generated tokens (``loss_mask`` 1, with their log-probs). It is
``null`` when some turn has no token ids, or when a turn's prompt does not extend the
sequence so far (a chat template that rewrites earlier turns): never a guessed sequence.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

FORMAT = "mcpgym.rollout/1"
"""The value of every line's ``format`` field."""


class ExportedRollout(BaseModel):
    """One exported rollout (see docs/training.md for each field)."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["mcpgym.rollout/1"] = FORMAT
    run_id: str | None
    variant_id: str | None
    task: str
    band: str
    seed: int
    epoch: int
    episode_id: str | None
    lock: str | None
    termination: str
    episode_termination: str | None
    scored: bool
    reward: float | None
    passed: bool | None
    checks: dict[str, float]
    messages: list[dict[str, Any]]
    turns: list[dict[str, Any]]
    token_ids: list[int] | None
    loss_mask: list[int] | None
    log_probs: list[float | None] | None


def _clean(message: Mapping[str, Any]) -> dict[str, Any]:
    """A message without mcpgym's annotation keys (``mcpgym_*``)."""
    return {k: v for k, v in message.items() if not k.startswith("mcpgym_")}


def turn_records(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The token record of each assistant turn that has one, with its message index."""
    out = []
    for i, m in enumerate(messages):
        tokens = m.get("mcpgym_tokens") if m.get("role") == "assistant" else None
        if isinstance(tokens, Mapping):
            out.append({"message_index": i, **{k: tokens.get(k) for k in _TOKEN_KEYS}})
    return out


_TOKEN_KEYS = ("prompt_token_ids", "generation_token_ids", "generation_log_probs")


def token_view(
    turns: Sequence[Mapping[str, Any]],
) -> tuple[list[int] | None, list[int] | None, list[float | None] | None]:
    """``(token_ids, loss_mask, log_probs)`` of the whole episode (see the module docstring)."""
    if not turns:
        return None, None, None
    ids: list[int] = []
    mask: list[int] = []
    logps: list[float | None] = []
    for t in turns:
        prompt, gen = t.get("prompt_token_ids"), t.get("generation_token_ids")
        if prompt is None or gen is None or prompt[: len(ids)] != ids:
            return None, None, None
        new = prompt[len(ids) :]
        ids += new
        mask += [0] * len(new)
        logps += [None] * len(new)
        gen_logps = t.get("generation_log_probs")
        ids += gen
        mask += [1] * len(gen)
        if gen_logps is not None and len(gen_logps) == len(gen):
            logps += list(gen_logps)
        else:
            logps += [None] * len(gen)
    return ids, mask, logps


def planned_variant_ids(
    run: Mapping[str, Any], episodes: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The ``episodes`` of ``run`` (run-store rows), those that never reached a server
    (``variant_id`` null: a slot a stopped campaign did not play, an episode whose
    ``POST /episodes`` failed) given the id of the variant planned, ``ENV/TASK@BAND#SEED``.

    Only where that id is the one the server would have served: the run was served without
    a seed salt (its ``conditions`` say so, or, for a run recorded without them, each
    episode that reached a server has the unsalted id). Under a salt the served id is the
    salted generator seed's, unknown here: such rows keep ``null`` rather than name
    another variant. Rows are returned as they are otherwise (new dicts where changed).
    """
    env = run.get("env")

    def planned(e: Mapping[str, Any]) -> str:
        return f"{env}/{e['task']}@{e['band']}#{e['seed']}"

    served = [e for e in episodes if e.get("variant_id")]
    if not env or any(e["variant_id"] != planned(e) for e in served):
        return [dict(e) for e in episodes]
    server = (run.get("conditions") or {}).get("server")
    if isinstance(server, Mapping) and "seed_salt" in server:
        unsalted = server["seed_salt"] is None
    else:
        unsalted = bool(served)
    if not unsalted:
        return [dict(e) for e in episodes]
    return [dict(e) if e.get("variant_id") else {**e, "variant_id": planned(e)} for e in episodes]


def export_rollout(
    episode: Mapping[str, Any], *, lock: str | None, run_id: str | None
) -> ExportedRollout:
    """One `ExportedRollout` from an episode (a run-store row or an `EpisodeRecord` as a dict).

    Args:
        episode: needs ``task``, ``band``, ``seed``, ``termination``, ``transcript``,
            ``grade``; reads ``variant_id``, ``epoch``, ``episode_id``, ``scored``,
            ``score``, ``passed``, ``episode_termination`` when present.
        lock: the lock digest of the run. run_id: the run's id.
    """
    grade = episode.get("grade") or None
    scored = bool(episode.get("scored"))
    messages = list(episode.get("transcript") or [])
    turns = turn_records(messages)
    ids, mask, logps = token_view(turns)
    checks: dict[str, float] = {}
    if scored and isinstance(grade, Mapping):
        for c in grade.get("checks", []):
            if c.get("applicable") and c.get("passed") is not None:
                checks[str(c["name"])] = 1.0 if c["passed"] else 0.0
    score = episode.get("score")
    passed = episode.get("passed")
    return ExportedRollout(
        run_id=run_id,
        variant_id=episode.get("variant_id"),
        task=episode["task"],
        band=episode["band"],
        seed=int(episode["seed"]),
        epoch=int(episode.get("epoch") or 0),
        episode_id=episode.get("episode_id"),
        lock=(grade or {}).get("lock") or lock,
        termination=episode["termination"],
        episode_termination=episode.get("episode_termination"),
        scored=scored,
        reward=float(score) if scored and score is not None else None,
        passed=bool(passed) if scored and passed is not None else None,
        checks=checks,
        messages=[_clean(m) for m in messages],
        turns=turns,
        token_ids=ids,
        loss_mask=mask,
        log_probs=logps,
    )


def write_rollouts(lines: Iterable[ExportedRollout], path: Path | None) -> int:
    """Write JSON lines to ``path`` (``None``: standard output); return how many.

    A file is written whole or not at all: into a partial file ``.<name>.partial-...``
    beside it, renamed over ``path`` once every line is written. An export stopped half-way
    (Ctrl-C, a full disk, ``kill -9``) used to leave ``path`` cut short, a previous complete
    export already truncated, and a trainer reading it got part of the run with no sign of
    it (adversarial round 17); now ``path`` keeps what it held. The partial file a ``kill
    -9`` leaves beside it is removed by the next export to ``path`` (`sweep_partials`; a
    live export's is kept). A ``path`` that is a link, a device or a FIFO
    (``/dev/stdout``) is written in place, as before.

    Raises:
        OSError: the file cannot be written (the partial file is removed).
    """
    import os
    import sys

    from mcpgym_clients.train._partial import open_partial, sweep_partials

    special = path is not None and (path.is_symlink() or (path.exists() and not path.is_file()))
    # standard output, /dev/stdout, a FIFO, a link: written as they are; a file: beside it
    partial: Path | None = None
    n = 0
    if path is not None and not special:
        sweep_partials(path)  # what killed exports to it left
        partial, out = open_partial(path)
    else:
        out = sys.stdout if path is None else path.open("w", encoding="utf-8")
    try:
        try:
            for line in lines:
                out.write(json.dumps(line.model_dump(mode="json"), ensure_ascii=False) + "\n")
                n += 1
            if partial is not None and path is not None:
                out.flush()
                os.replace(partial, path)  # before the close: the lock held to the rename
                partial = None
        finally:
            if path is not None:
                out.close()
    except BaseException:
        if partial is not None:
            partial.unlink(missing_ok=True)
        raise
    return n


def read_rollouts(path: str | Path) -> list[ExportedRollout]:
    """Read an export back (each line validated): one `ExportedRollout` per line.

    Raises:
        OSError: the file cannot be read.
        pydantic.ValidationError: a line is not an `ExportedRollout`.
    """
    with Path(path).open(encoding="utf-8") as f:
        return [ExportedRollout.model_validate_json(line) for line in f if line.strip()]
