"""Episode containment: whatever goes wrong inside one episode stays inside it.

An episode runs an MCP client, HTTP requests, an agent and a grade request, each with
task groups and cancel scopes of its own. A failure in any of them must end that
episode (recorded as ``infra_error`` or ``model_error``), never cancel its siblings or
the campaign. anyio makes that a structural question: a task that ends with a
cancellation exception no scope of its caller asked for (a scope *leaked* from a
library, e.g. an MCP client's transport task group) makes the task group that spawned
it cancel every other task in it and exit as if nothing happened. That is how one
killed server once lost 62 of 84 episodes of a campaign without a word.

`run_isolated` therefore runs an episode body in a task of its own, inside a task group
of its own, and turns every way that task can end into a value: returned, raised an
exception, or cancelled by a scope that was not the caller's (`StrayCancellation`).
Only a real cancellation of the caller (the user stopping the campaign) and
`KeyboardInterrupt`/`SystemExit` propagate.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

import anyio
import anyio.lowlevel


class StrayCancellation(Exception):
    """An episode's task was cancelled by a cancel scope none of its callers had cancelled.

    Attributes:
        cancellation: the cancellation exception that ended the task.
    """

    def __init__(self, cancellation: BaseException) -> None:
        self.cancellation = cancellation
        super().__init__(
            "the episode's task was cancelled by a cancel scope that leaked out of a library "
            f"it used (its MCP or HTTP client): {type(cancellation).__name__}: {cancellation}"
        )


def _caller_cancelled() -> bool:
    """Whether a cancel scope enclosing the current code has been cancelled (unshielded)."""
    return anyio.current_effective_deadline() == -math.inf


async def run_isolated(body: Callable[[], Awaitable[None]]) -> BaseException | None:
    """Run ``body()`` in a task and task group of its own; say how it ended.

    Returns:
        ``None`` when it returned; the `Exception` (or exception group) it raised; a
        `StrayCancellation` when it was cancelled although no scope of the caller was.

    Raises:
        The caller's own cancellation (it propagates as anyio requires), and
        `KeyboardInterrupt` / `SystemExit` raised by the body.
    """
    outcome: list[BaseException | None] = []

    async def task() -> None:
        try:
            await body()
        except BaseException as exc:
            if isinstance(exc, (KeyboardInterrupt, SystemExit)) or _caller_cancelled():
                raise  # the caller is being cancelled: let anyio unwind it
            if isinstance(exc, anyio.get_cancelled_exc_class()):
                outcome.append(StrayCancellation(exc))
            else:
                outcome.append(exc)
            return
        outcome.append(None)

    async with anyio.create_task_group() as tg:
        tg.start_soon(task)
    if not outcome:
        # The task ended cancelled without recording why: either the caller was cancelled
        # (this checkpoint raises it) or a stray cancellation escaped the handler above.
        await anyio.lowlevel.checkpoint_if_cancelled()
        return StrayCancellation(anyio.get_cancelled_exc_class()())
    return outcome[0]
