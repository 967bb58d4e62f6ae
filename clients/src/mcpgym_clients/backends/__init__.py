"""Where a campaign's episodes run: the seam between `run_campaign` and its servers.

`run_campaign` needs an `EpisodeRunner`: something that says what it serves
(``server_info``) and runs one episode to its record (``run_episode``). The local
backend is one `EpisodeDriver` over one environment server and one grading service
(`mcpgym_clients.local`, or servers given by URL); the Ray backend
(`mcpgym_clients.backends.ray`, the ``ray`` extra) is `RayEpisodeRunner`, which
spreads episodes over environment servers running as Ray actors, each driven by its
own `EpisodeDriver`. The run store, resume, infra-error retries and exit status stay
in `run_campaign`, the same for both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # `mcpgym eval --help` imports this module: keep it light
    from mcpgym_clients.progress import LiveEpisode
    from mcpgym_clients.protocol import Agent
    from mcpgym_clients.records import EpisodeRecord, ServerInfo

BACKENDS = ("local", "ray")
"""The values of ``mcpgym eval --backend``."""


class EpisodeRunner(Protocol):
    """What `run_campaign` drives (`EpisodeDriver` and `RayEpisodeRunner` are ones).

    A runner should also have ``episode_timeout``, its hard cap per episode in seconds
    (``None``: none): it is recorded with the run, so that a run is resumed only under the
    same cap (`mcpgym_clients.resume`; a runner without it is recorded as ``"unreported"``).
    """

    async def server_info(self) -> ServerInfo:
        """The served environment (``GET /tasks``); raises `InfraError` when unreachable."""
        ...

    async def run_episode(
        self,
        agent: Agent,
        task: str,
        band: str,
        seed: int,
        *,
        epoch: int = 0,
        live: LiveEpisode | None = None,
    ) -> EpisodeRecord:
        """Run and grade one episode, keeping ``live`` current for the progress display;
        every failure of the infrastructure ends as a record with termination
        ``infra_error`` (see `EpisodeDriver.run_episode`)."""
        ...


def backend_problem(backend: str, ray_address: str | None, env_url: str | None) -> str | None:
    """What is wrong with ``--backend``/``--ray-address`` given with ``--env-url``, or ``None``."""
    if backend not in BACKENDS:
        return f"unknown backend {backend!r}; valid backends: {', '.join(BACKENDS)}"
    if backend == "ray" and env_url is not None:
        return "--backend ray starts its own servers as Ray actors: drop --env-url"
    if ray_address is not None and backend != "ray":
        return "--ray-address needs --backend ray"
    return None


__all__ = ["BACKENDS", "EpisodeRunner", "backend_problem"]
