"""Which signals stop a server process gracefully (its open episodes sealed ``shutdown``).

A signal whose default action ends the process, left to that default, ends it at once and
every open episode is lost (adversarial round 11: S2-2 SIGHUP, S2-3 SIGUSR1, SIGUSR2,
SIGALRM: 0 of 55 bundles). So `mcpgym serve` (HTTP and stdio) and the grading service
take every such signal as a request to stop: they stop as on SIGTERM, seal, then raise the
signal again with its default action, so the process still ends with that signal's status
(what whoever sent it expects).

Taken (where the platform has them):

- always: SIGINT, SIGTERM, SIGHUP (the terminal or SSH session closed), SIGBREAK (Windows);
- while their handler is still the default (nothing else in the process took them):
  SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO/SIGPOLL, SIGPWR, SIGSTKFLT, SIGXCPU
  (the CPU-time soft limit: the hard limit's SIGKILL follows) and the real-time signals
  SIGRTMIN..SIGRTMAX.

Left to their default, on purpose:

- SIGQUIT (Ctrl-backslash): the terminal's "quit now, dump core" key, the way out when a
  graceful stop itself hangs (as ``kill -9``; a second Ctrl-C already skips waiting for
  requests);
- SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGSYS, SIGTRAP: a fault of the program itself,
  raised by the failing instruction or call: the process cannot go on to seal anything;
- SIGPIPE, SIGXFSZ: Python ignores them (the write fails with an error instead);
- SIGKILL, SIGSTOP: cannot be caught; SIGCHLD, SIGCONT, SIGURG, SIGWINCH and the stop
  signals SIGTSTP/SIGTTIN/SIGTTOU do not end the process.
"""

from __future__ import annotations

import signal

ALWAYS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK")
"""Signals a server always takes as a stop (Python gives SIGINT its own handler)."""

WHILE_DEFAULT = (
    "SIGUSR1",
    "SIGUSR2",
    "SIGALRM",
    "SIGVTALRM",
    "SIGPROF",
    "SIGIO",
    "SIGPOLL",
    "SIGPWR",
    "SIGSTKFLT",
    "SIGXCPU",
)
"""Signals whose default action ends the process, taken as a stop while still default."""


def _named(names: tuple[str, ...]) -> list[int]:
    return [int(getattr(signal, name)) for name in names if hasattr(signal, name)]


def _realtime() -> list[int]:
    low, high = getattr(signal, "SIGRTMIN", None), getattr(signal, "SIGRTMAX", None)
    return [] if low is None or high is None else list(range(int(low), int(high) + 1))


def stop_signals() -> tuple[int, ...]:
    """The signal numbers a server process takes as a graceful stop, now (see the module).

    Read when the server installs its handlers: a signal another part of the process
    already handles (or ignores) is left to it, except the `ALWAYS` ones.

    Returns:
        Distinct signal numbers, `ALWAYS` first, in ascending order after them.
    """
    taken = dict.fromkeys(_named(ALWAYS))
    for signum in sorted(set(_named(WHILE_DEFAULT) + _realtime())):
        try:
            default = signal.getsignal(signum) == signal.SIG_DFL
        except (OSError, ValueError):  # not a signal this platform lets a process handle
            continue
        if default:
            taken.setdefault(signum)
    return tuple(taken)
