"""Direct rollouts on more than one core: `DirectEpisodes` in worker processes.

One Python process runs one rollout's CPU at a time (the GIL), and a direct rollout is CPU
from start to end (the environment's SQLite work, sealing, grading). `WorkerEpisodes` runs
each episode in one of ``workers`` processes (a `concurrent.futures.ProcessPoolExecutor`,
started with ``forkserver`` so no lock or thread of this process is inherited), each holding
its own `DirectEpisodes` on an event loop of its own (an anyio blocking portal): the same
code, so the same bundles and grades. What crosses the process boundary is the agent
(pickled once per episode) and the `EpisodeRecord` coming back.

Limits (a caller can see them): the agent must be picklable and its state is the worker's
copy (what it learns in an episode does not come back, only the record); each worker runs
one episode at a time, so ``workers`` caps the episodes in flight (a policy waiting on a
model server wants `Rollouts.direct` without workers, or more workers); the environment
is loaded in each worker by its installed name and must lock to the same digest as here
(checked on every record).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import pickle
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread

from mcpgym_clients.errors import ConfigurationError, InfraError, ServerRequestError
from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import EpisodeRecord
from mcpgym_server import Environment, load_environment

_worker: Any = None  # (DirectEpisodes, portal, portal's context manager) in a worker


def _start_worker(env_name: str, episode_timeout: float | None) -> None:
    """A worker's initializer: load the environment and start its event loop."""
    global _worker
    from mcpgym_clients.train._direct import DirectEpisodes

    episodes = DirectEpisodes(load_environment(env_name), episode_timeout=episode_timeout)
    cm = anyio.from_thread.start_blocking_portal()
    portal = cm.__enter__()
    _worker = (episodes, portal, cm)


def _run_in_worker(
    agent: Agent, task: str, band: str, seed: int, epochs: list[int]
) -> tuple[str, Any]:
    """Run episodes of one variant in this worker, one after the other (one per epoch):
    ``("ok", [record, ...])`` or ``(kind, details)`` for the errors
    `DirectEpisodes.run_episode` raises (sent as plain data: they do not all unpickle)."""
    episodes, portal, _ = _worker

    async def run() -> list[EpisodeRecord]:
        return [await episodes.run_episode(agent, task, band, seed, epoch=e) for e in epochs]

    try:
        records = portal.call(run)
    except ServerRequestError as exc:
        return "request", (exc.service, exc.status, exc.payload)
    except ConfigurationError as exc:
        return "configuration", str(exc)
    return "ok", records


class WorkerEpisodes:
    """Runs episodes of one environment as `DirectEpisodes` in ``workers`` processes.

    Has the `EpisodeDriver.run_episode` signature, so `Rollouts` runs on it unchanged
    (`Rollouts.direct` with ``workers``). Close it (`close`) to stop the workers.

    Args:
        env: the environment (it must be installed: each worker loads it by name).
        workers: how many processes (>= 1).
        episode_timeout: the hard cap per episode, seconds (``None``: none).

    Raises:
        ConfigurationError: ``workers`` < 1, or ``env`` is not the installed environment of
            its name (a worker could not load the same one).
    """

    def __init__(
        self, env: Environment, *, workers: int, episode_timeout: float | None = 600.0
    ) -> None:
        if workers < 1:
            raise ConfigurationError(f"workers must be at least 1, got {workers}")
        from mcpgym_server.lock import compute_lock

        self.env = env
        self.workers = workers
        self.lock = compute_lock(env)
        try:
            installed = load_environment(env.name)
        except Exception:
            installed = None
        if installed is None or compute_lock(installed) != self.lock:
            raise ConfigurationError(
                f"Rollouts.direct(workers={workers}) loads environment `{env.name}` by its "
                "installed name in each worker, and the installed one is not this one "
                "(not installed, or its lock differs): install it, or run without workers"
            )
        self._pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_start_worker,
            initargs=(env.name, episode_timeout),
        )

    async def run_episode(
        self, agent: Agent, task: str, band: str, seed: int, *, epoch: int = 0, live: Any = None
    ) -> EpisodeRecord:
        """Run one episode in a worker; as `DirectEpisodes.run_episode` (``live`` ignored).

        Raises:
            ServerRequestError: unknown task or band. ConfigurationError: as the driver, or
                the agent cannot be pickled to a worker.
            InfraError: a worker died or its environment locked to another digest.
        """
        (rec,) = await self.run_episodes(agent, task, band, seed, [epoch])
        return rec

    @staticmethod
    def check_agent(agent: Agent) -> None:
        """Refuse an agent that cannot go to a worker process (`Rollouts` checks a group's
        agent once with it, before sending the group's parts).

        Raises:
            ConfigurationError: ``agent`` does not pickle (a closure, an HTTP client...).
        """
        try:
            pickle.dumps(agent)
        except Exception as exc:
            raise ConfigurationError(
                f"agent `{agent.name}` cannot run in a worker process: it does not pickle "
                f"({type(exc).__name__}: {exc}); use Rollouts.direct without workers"
            ) from None

    async def run_episodes(
        self, agent: Agent, task: str, band: str, seed: int, epochs: list[int]
    ) -> list[EpisodeRecord]:
        """Run one episode of ``task@band#seed`` per epoch in ``epochs`` in one worker,
        one after the other (one round trip to the worker for them all: `Rollouts`'s
        groups are sent in ``workers`` parts).

        Returns:
            The records, in the order of ``epochs``.

        Raises:
            As `run_episode`.
        """
        self.check_agent(agent)
        future = self._pool.submit(_run_in_worker, agent, task, band, seed, list(epochs))
        try:
            kind, value = await anyio.to_thread.run_sync(future.result, abandon_on_cancel=True)
        except concurrent.futures.process.BrokenProcessPool as exc:
            raise InfraError(
                "env",
                f"a rollout worker process died: {exc} (if at the first rollout: the script "
                'that starts the workers needs the `if __name__ == "__main__":` guard, '
                "as workers start with forkserver, which imports the main module)",
            ) from None
        finally:
            future.cancel()
        if kind == "request":
            raise ServerRequestError(*value)
        if kind == "configuration":
            raise ConfigurationError(value)
        records: list[EpisodeRecord] = value
        for rec in records:
            if rec.lock is not None and rec.lock != self.lock:
                raise InfraError(
                    "env",
                    f"a rollout worker's environment locks to {rec.lock}, this one to "
                    f"{self.lock}: reinstall so both are the same",
                )
        return records

    def close(self) -> None:
        """Stop the workers (waits for the episodes they are running)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
