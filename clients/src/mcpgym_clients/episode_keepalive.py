"""Keep an episode open while its agent runs, and tell when the server ended it anyway.

The environment server seals an episode that made no tool call for its idle TTL (600 s by
default): an abandoned episode must not hold its sandbox for ever. One model answer can
take longer than that (adversarial round 19, S19-R2: 802 s from a 1.5B model on CPU); its
next tool call then met a sealed episode, and the episode was graded with termination
``timeout``, as if the agent had stopped. The harness bounds an episode with its own hard
cap (``--timeout``), so while the driver runs an agent it sends
``POST /episodes/{id}/keepalive`` every `KEEPALIVE_SHARE` of the server's idle TTL
(`kept_alive`).

When the server says the episode is no longer open through no act of the agent or the
harness (its idle expiry, its shutdown: `ENDED_BY_SERVER`; or it no longer knows the
episode: it restarted), the agent is stopped at once and the episode is ``infra_error``,
never the model's score (`ended_by_server`). A server that does not answer a keep-alive is
left to the episode's next request to report; a server without the route (another
implementation) is simply not kept alive.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio

from mcpgym_clients.errors import InfraError, ServerRequestError

ENDED_BY_SERVER = frozenset({"timeout", "shutdown"})
"""Terminations an environment server gives an episode of its own accord: its idle expiry
(``timeout``) and its stop (``shutdown``). Met while the harness ran the agent, they are
``infra_error``."""

KEEPALIVE_SHARE = 1 / 3
"""A keep-alive is sent every this share of the server's idle TTL (200 s of 600 s): two
can be late or lost before the server's expiry could seal the episode."""

DEFAULT_IDLE_TTL = 600.0
"""The idle TTL assumed for a server that does not say its own (``episode_settings``)."""


def idle_ttl_of(meta: Mapping[str, Any]) -> float:
    """The idle TTL (seconds) of the server that opened an episode, from the answer
    ``meta`` of its ``POST /episodes`` (``episode_settings.idle_ttl``; else
    `DEFAULT_IDLE_TTL`)."""
    settings = meta.get("episode_settings")
    ttl = settings.get("idle_ttl") if isinstance(settings, Mapping) else None
    if isinstance(ttl, int | float) and not isinstance(ttl, bool) and ttl > 0:
        return float(ttl)
    return DEFAULT_IDLE_TTL


def ended_by_server(termination: str | None, idle_ttl: float) -> str:
    """The ``error`` of an episode the environment server ended while the agent ran
    (``termination`` as the server said; ``None``: it no longer knows the episode)."""
    if termination == "timeout":
        why = (
            f"sealed it by its idle expiry ({idle_ttl:g} s without a tool call) while the "
            "agent ran (the harness's keep-alives did not reach it in time)"
        )
    elif termination is None:
        why = "no longer knows the episode (it restarted?) while the agent ran"
    else:
        why = f"ended it (termination `{termination}`) while the agent ran"
    return f"the environment server {why}: the server's doing, not the model's; not scored"


@dataclass
class EpisodeWatch:
    """What `kept_alive` learnt of its episode.

    Attributes:
        ended: ``None`` while the server holds the episode open (or did not say), else the
            ``error`` of an episode the server ended (`ended_by_server`); the body of
            `kept_alive` was cancelled when it was set.
    """

    ended: str | None = None


@contextlib.asynccontextmanager
async def kept_alive(
    keep: Callable[[], Awaitable[Mapping[str, Any]]],
    idle_ttl: float,
    watch: EpisodeWatch,
    *,
    since: float | None = None,
) -> AsyncIterator[None]:
    """Send ``keep()`` (``POST /episodes/{id}/keepalive``) every ``idle_ttl *``
    `KEEPALIVE_SHARE` seconds while the body runs, counted from ``since`` (an
    `anyio.current_time` value: when the server last saw the episode active, e.g. its
    opening; default: now).

    Each answer's ``state`` says whether the episode is still open. When the server ended
    it of its own accord (`ENDED_BY_SERVER`) or answers 404 for it, the body is cancelled
    (the ``async with`` ends normally) and ``watch.ended`` says why. Once the episode
    was sealed otherwise (the agent's ``submit``, its step or log budget) or the server
    has no such route, no more keep-alives are sent. A keep-alive the server did not
    answer (`InfraError`) is not retried early: the episode's own requests report an
    outage.

    Whatever the body raises is raised as it is (not in an exception group).
    """
    failure: BaseException | None = None
    async with anyio.create_task_group() as tg:

        async def beat() -> None:
            due = anyio.current_time() if since is None else since
            while True:
                due += idle_ttl * KEEPALIVE_SHARE
                await anyio.sleep_until(due)
                try:
                    answer = await keep()
                except InfraError:
                    continue
                except ServerRequestError as exc:
                    if exc.status == 404 and exc.payload.get("kind") == "episode":
                        watch.ended = ended_by_server(None, idle_ttl)
                        tg.cancel_scope.cancel()
                    return  # else a server without the route: nothing to keep
                if answer.get("state") == "open":
                    continue
                termination = answer.get("termination")
                if termination in ENDED_BY_SERVER:
                    watch.ended = ended_by_server(str(termination), idle_ttl)
                    tg.cancel_scope.cancel()
                return

        tg.start_soon(beat)
        try:
            yield
        except BaseException as exc:  # raised after the task group, not inside a group
            failure = exc
        finally:
            tg.cancel_scope.cancel()
    if failure is None:
        return
    if watch.ended is not None and isinstance(failure, anyio.get_cancelled_exc_class()):
        return  # this watch's own cancellation (another scope's stays pending and re-raises)
    raise failure
