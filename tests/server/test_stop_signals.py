"""Which signals stop a server gracefully (`mcpgym_server._stop_signals`); the processes
themselves are stopped in test_shutdown.py."""

from __future__ import annotations

import signal

import pytest

from mcpgym_server._stop_signals import stop_signals

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="POSIX signals")


def test_every_signal_that_would_end_the_process_stops_it() -> None:
    taken = stop_signals()
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGXCPU"):
        assert getattr(signal, name) in taken, name
    if hasattr(signal, "SIGRTMIN"):
        assert signal.SIGRTMIN in taken and signal.SIGRTMAX in taken
    # the hard stop and the program's own faults keep their default; ignored ones stay so
    for name in ("SIGQUIT", "SIGABRT", "SIGSEGV", "SIGKILL", "SIGPIPE", "SIGCHLD"):
        assert getattr(signal, name) not in taken, name
    assert len(set(taken)) == len(taken)


def test_a_signal_something_else_handles_is_left_to_it() -> None:
    previous = signal.signal(signal.SIGUSR2, lambda *_: None)
    try:
        assert signal.SIGUSR2 not in stop_signals()
        signal.signal(signal.SIGUSR2, signal.SIG_IGN)
        assert signal.SIGUSR2 not in stop_signals()
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert signal.SIGUSR2 in stop_signals()
