"""A `Rollouts` session on its own event-loop thread, for synchronous callers (TRL).

TRL calls environment methods from its training thread, synchronously; mcpgym's driver
is async. `SyncRollouts` runs an anyio event loop in a background thread (a blocking
portal), opens the `Rollouts` session there, and forwards each call to it.
"""

from __future__ import annotations

import atexit
import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import anyio.from_thread

from mcpgym_clients.protocol import ToolOutcome
from mcpgym_clients.train._steered import SteeredEpisode
from mcpgym_clients.train.results import Rollout
from mcpgym_clients.train.rollout import Rollouts
from mcpgym_clients.train.rows import TrainingRow
from mcpgym_server import Environment


class SyncRollouts:
    """Steered episodes for synchronous code (see the module docstring).

    Args:
        env: the environment served in process (when ``servers`` is ``None``).
        servers: ``(env_url, grading_url, grading_token[, control_token])`` of running
            servers instead.
        concurrency: most episodes open at once.
        episode_timeout: the driver's hard cap per episode, seconds.
    """

    def __init__(
        self,
        env: Environment,
        *,
        servers: tuple[str, ...] | None = None,
        concurrency: int = 64,
        episode_timeout: float | None = 600.0,
    ) -> None:
        self._stack = contextlib.ExitStack()
        # Never closed by the caller (an error after this, a script without close()), the
        # portal would be stopped at interpreter teardown, once its thread no longer runs:
        # the process would hang. Stop it at exit instead, while the thread still runs.
        atexit.register(self._stack.close)
        self._stack.callback(atexit.unregister, self._stack.close)
        self.portal = self._stack.enter_context(anyio.from_thread.start_blocking_portal())
        if servers is None:
            session = Rollouts.in_process(
                env, concurrency=concurrency, episode_timeout=episode_timeout
            )
        else:
            session = Rollouts.over_http(
                *servers, concurrency=concurrency, episode_timeout=episode_timeout
            )
        self._open: set[SteeredEpisode] = set()
        try:
            self.rollouts: Rollouts = self._stack.enter_context(
                self.portal.wrap_async_context_manager(session)
            )
        except BaseException:
            self._stack.close()
            raise

    def open(self, row: TrainingRow) -> SteeredEpisode:
        """Open an episode of ``row`` and return it once it is open (or failed to)."""
        episode = SteeredEpisode(row)
        self.portal.start_task_soon(episode.run, self.rollouts)
        self.portal.call(episode.wait_started)
        self._open.add(episode)
        return episode

    def call(self, episode: SteeredEpisode, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        """`SteeredEpisode.call` from this thread."""
        return self.portal.call(episode.call, name, arguments)

    def finish(self, episodes: Sequence[SteeredEpisode]) -> list[Rollout | None]:
        """Finish several episodes concurrently; their rollouts, in order."""

        async def all_of() -> list[Rollout | None]:
            out: list[Rollout | None] = [None] * len(episodes)

            async def one(i: int) -> None:
                out[i] = await episodes[i].finish()

            async with anyio.create_task_group() as tg:
                for i in range(len(episodes)):
                    tg.start_soon(one, i)
            return out

        try:
            return self.portal.call(all_of)
        finally:
            self._open.difference_update(episodes)

    def close(self) -> None:
        """End the episodes still open, then stop the servers and the event-loop thread."""
        try:
            if self._open:
                self.finish(list(self._open))
        finally:
            self._stack.close()
