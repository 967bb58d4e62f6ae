"""What a stopped campaign (`mcpgym_clients.campaign`) stores and says for the slots it did
not play: why it stopped (`stop_reason`), the record of an episode it stopped after its agent ended
it (`ended_record`), the ``incomplete:`` line (`incomplete_line`) and the bound on the rows a
stop stores (`SIGNAL_ROWS_MAX`). The rows themselves: `mcpgym_clients.breaker.store_not_run`.
"""

from __future__ import annotations

import anyio

from mcpgym_clients.errors import (
    ClientError,
    RunStoreMovedError,
    StoppingEpisodeError,
    message,
)
from mcpgym_clients.plan import CampaignNotConfirmed
from mcpgym_clients.progress import LiveEpisode
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.stopping import Stopper


def incomplete_line(
    reasons: dict[str, int], total: int, run_id: str, *, not_started: int = 0, confirm: bool = False
) -> str:
    """``incomplete: N of TOTAL planned episodes are unscored (infra_error N...); run the
    same command again to resume run RUN and retry them``: ``reasons`` counts the unscored
    planned episodes by reason (`unscored_reasons`, ``missing``: no row), ``total`` the
    planned episodes of the run and its baseline. ``not_started``: of the ``missing``, those
    a stop left without a row (above `SIGNAL_ROWS_MAX`), said apart. ``confirm``: the
    campaign stopped for want of a confirmation, which the same command without ``--yes``
    asks for again: the advice names ``--yes``."""
    why = ", ".join(f"{k} {n:,}" for k, n in sorted(reasons.items()))
    n = sum(reasons.values())
    line = f"incomplete: {n:,} of {total:,} planned episodes are unscored ({why})"
    if not_started:
        line += (
            f"; {not_started:,} never started have no row (a stop stores rows for at most "
            f"{SIGNAL_ROWS_MAX:,} slots it did not play, else only for the episodes started)"
        )
    again = "run the same command with --yes" if confirm else "run the same command again"
    return f"{line}; {again} to resume run {run_id} and retry them"


SIGNAL_ROWS_MAX = 10_000
"""Slots not played above which a stop (any: a stop signal, an error, a breaker, a campaign
not confirmed) stores rows only for the episodes started (in flight when it came), and says
how many never started have no row: a Ctrl-C stops at once, and a campaign of a million
slots not confirmed does not store a million rows (427 MB, which a rerun and ``mcpgym
show`` then read: stop 25, F3). Measured (stop 25): 200,000 rows cost 1 s of CPU, 4-6 s of
wall time at load 25 on 2 cores (``tests/clients/test_ctrl_c_subprocess.py`` allows 5 s
from the signal to the exit); 10,000, about 50 ms."""


def first_client_error(exc: BaseException) -> BaseException | None:
    """The first `ClientError` in ``exc`` (itself, or depth first through exception groups),
    ``None`` where there is none."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = first_client_error(inner)
            if found is not None:
                return found
        return None
    return exc if isinstance(exc, ClientError) else None


FAILED = "the campaign failed: "
"""How the rows of the slots a campaign did not play name a failure that is not a stop
(a bug, the run store failing): stored on a best-effort basis."""


def stop_reason(exc: BaseException, stopper: Stopper | None) -> str | None:
    """Why the campaign stopped on ``exc``, for the rows of the slots it did not play:
    a configuration error or refused request (its message), a cancellation (a stop signal:
    `Stopper.reason`), another error (`FAILED` and its message); ``None`` for a
    ``KeyboardInterrupt`` or ``SystemExit`` (no time to store anything) and for the run
    store's file moved or removed (`RunStoreMovedError`: it refuses every write, and no
    rerun of the same command resumes the run at that path)."""
    found = first_client_error(exc)
    if isinstance(found, RunStoreMovedError):
        return None
    if isinstance(found, CampaignNotConfirmed):
        return "not confirmed after its measured start; the same command with --yes runs it"
    if found is not None:
        return message(found)
    if isinstance(exc, anyio.get_cancelled_exc_class()):
        return stopper.reason if stopper is not None else "interrupted"
    if isinstance(exc, Exception):
        return FAILED + message(exc)
    return None


def ended_record(exc: BaseException, live: LiveEpisode) -> EpisodeRecord | None:
    """The record of an episode that ``exc`` stopped after its agent had ended it as a
    ``model_error``, to store as it ended (its own error, transcript, usage) rather than as
    not run (stop 25, F5): the episode that tripped the model API's 4xx breaker
    (`StoppingEpisodeError.record`), or one in flight past its agent (ending it on the
    server, grading it: a ``model_error`` is unscored whatever its grade) when the campaign
    was cancelled. ``None`` for any other."""
    if isinstance(exc, StoppingEpisodeError):
        rec = exc.record
        return rec if isinstance(rec, EpisodeRecord) else None
    rec = live.record
    if (
        isinstance(exc, anyio.get_cancelled_exc_class())
        and rec is not None
        and live.phase == "grading"
        and rec.termination == "model_error"
    ):
        return rec
    return None
