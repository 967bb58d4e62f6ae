"""One stop request delivered twice (``uv run`` without a terminal forwards SIGINT on top of
the process group's) stops the campaign cleanly; a second request later exits at once."""

from __future__ import annotations

import os
import signal
import sys

import anyio
import pytest

from mcpgym_clients import stopping

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


class HardExit(Exception):
    """What the patched ``os._exit`` raises instead of ending the test process."""


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class WatchedStopper(stopping.Stopper):
    """A stopper that says when the watcher has handled a signal."""

    def __init__(self, clock: Clock) -> None:
        super().__init__(clock=clock)
        self.handled = anyio.Event()

    def stop(self, signum: int) -> None:
        super().stop(signum)
        self.handled.set()

    def again(self, signum: int) -> bool:
        decision = super().again(signum)
        self.handled.set()
        return decision


@pytest.fixture
def hard_exit(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    codes: list[int] = []

    def fake_exit(code: int) -> None:
        codes.append(code)
        raise HardExit(code)

    monkeypatch.setattr(stopping.os, "_exit", fake_exit)
    return codes


async def _signal(stopper: WatchedStopper) -> None:
    stopper.handled = anyio.Event()
    os.kill(os.getpid(), signal.SIGINT)
    await stopper.handled.wait()


@pytest.mark.anyio
async def test_a_second_signal_within_a_second_is_the_same_request(
    hard_exit: list[int],
) -> None:
    clock = Clock()
    stopper = WatchedStopper(clock)
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(stopping.watch_signals, stopper)
            await _signal(stopper)
            assert stopper.signum == signal.SIGINT
            clock.now += stopping.REPEAT_WINDOW / 2
            await _signal(stopper)  # e.g. uv run forwarding the same Ctrl-C
            tg.cancel_scope.cancel()
    assert hard_exit == []
    assert stopper.requested


@pytest.mark.anyio
async def test_a_second_signal_later_exits_at_once(hard_exit: list[int]) -> None:
    clock = Clock()
    stopper = WatchedStopper(clock)
    with anyio.fail_after(10), pytest.raises(ExceptionGroup) as raised:
        async with anyio.create_task_group() as tg:
            await tg.start(stopping.watch_signals, stopper)
            await _signal(stopper)
            clock.now += stopping.REPEAT_WINDOW + 0.5
            await _signal(stopper)
    assert raised.group_contains(HardExit)
    assert hard_exit == [128 + signal.SIGINT]
