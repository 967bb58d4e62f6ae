"""Stopping a campaign cleanly on a signal: the `Stopper` and the signal watcher.

``mcpgym eval`` takes as a request to stop the same signals as ``mcpgym serve`` (issue 9
§2; adversarial round 11, S2-2/S2-3): every signal whose default action would end the
process (`stop_signals`). Before, only SIGINT and SIGTERM were: a SIGHUP (the terminal or
SSH session closed) or a SIGUSR1 ended the campaign's process at once, by the signal,
without the line saying what was kept, its local servers left to their own end. Now the
campaign stops as on Ctrl-C: the episodes stored are kept, the run is left unfinished (a
rerun of the same command resumes it, running the slots with no row), the servers stop in
order, and the process exits with ``128 + signum``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from typing import cast

import anyio
from anyio.abc import TaskStatus

from mcpgym_server import stop_signals as server_stop_signals

REPEAT_WINDOW = 1.0
"""Seconds after a stop signal during which another is taken as the same request."""


def stop_signals() -> tuple[int, ...]:
    """The signal numbers that stop a campaign cleanly, now: the servers' own
    (`mcpgym_server.stop_signals`: SIGINT, SIGTERM, SIGHUP, then every signal whose default
    action would end the process while nothing else in it handles or ignores it).

    Read when the watcher starts (`watch_signals`).

    Returns:
        Distinct signal numbers; empty on Windows (Ctrl-C arrives there as
        ``KeyboardInterrupt``).
    """
    if sys.platform == "win32":
        return ()
    return server_stop_signals()


def signal_name(signum: int) -> str:
    """``SIGHUP`` for 1; ``signal 40`` for a real-time signal without a name of its own."""
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


class Stopper:
    """Cancels the cancellable phases of a campaign when the user asks it to stop.

    Starting and stopping the local servers is never cancelled: the servers then shut
    down in order (a cancelled uvicorn leaves its lifespan task to die noisily).

    Args:
        clock: Seconds, monotonic (tests pass a fake one).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.signum: int | None = None
        self._scopes: list[anyio.CancelScope] = []
        self._clock = clock
        self._first: float | None = None

    @property
    def requested(self) -> bool:
        """Whether a stop was requested."""
        return self.signum is not None

    @property
    def reason(self) -> str:
        """Why the campaign stopped, for the rows of the slots it did not play:
        ``interrupted by SIGTERM`` (``interrupted`` before any request)."""
        return (
            "interrupted" if self.signum is None else f"interrupted by {signal_name(self.signum)}"
        )

    def stop(self, signum: int) -> None:
        """Record the stop request ``signum`` and cancel every cancellable phase."""
        self.signum = signum
        self._first = self._clock()
        for scope in self._scopes:
            scope.cancel()

    def again(self, signum: int) -> bool:
        """A stop signal after the first: whether to exit at once without cleaning up.

        ``False`` within `REPEAT_WINDOW` seconds of the first signal: one Ctrl-C or
        cancel can arrive twice (``uv run`` without a terminal forwards SIGINT on top
        of the one the process group got), which is not the user asking twice.
        """
        return self._first is None or self._clock() - self._first >= REPEAT_WINDOW

    @contextlib.contextmanager
    def cancellable(self) -> Iterator[None]:
        """A phase that a stop request cancels (at once if one came already)."""
        with anyio.CancelScope() as scope:
            if self.requested:
                scope.cancel()
            self._scopes.append(scope)
            try:
                yield
            finally:
                self._scopes.remove(scope)


async def watch_signals(
    stopper: Stopper, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
) -> None:
    """Stop the campaign on the first stop signal; exit at once on a second one.

    The stop signals are `stop_signals` as they are when the watcher starts. A second
    signal counts only if it comes `REPEAT_WINDOW` seconds or more after the first (one
    sooner is the same request, delivered twice); the process then exits with
    ``128 + signum`` without cleaning up.
    """
    taken = cast("tuple[signal.Signals, ...]", stop_signals())  # ints: real-time ones too
    with anyio.open_signal_receiver(*taken) as signals:
        task_status.started()
        async for signum in signals:
            if stopper.requested:
                if not stopper.again(signum):
                    continue
                # the user does not want to wait for the clean-up
                sys.stderr.write("interrupted again: exiting without cleaning up\n")
                sys.stderr.flush()
                os._exit(128 + signum)
            stopper.stop(signum)
