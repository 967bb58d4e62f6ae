"""Watching Ray's GCS (its control store) under a campaign of ``--backend ray``.

When the GCS process dies (``kill -9``, its node lost) and does not come back, Ray's core
worker in the driver ends the whole process once it has been unreachable for
``gcs_rpc_server_reconnect_timeout_s`` (60 s by default): ``Failed to connect to GCS within
60 seconds ... The program will terminate``, exit status 1, and the campaign said nothing
of the episodes it did not play (adversarial round 18, F10). The episodes themselves do not
need the GCS (the driver talks HTTP and MCP to the actors), but no actor can be replaced or
stopped through Ray without it, and Ray will end the process.

So `watch_gcs` probes the GCS every `PROBE_EVERY_S` seconds; once `FAILED_PROBES` probes in
a row have failed and it has not answered for `lost_after` since the first of them was sent
(a quarter of Ray's reconnect timeout: 15 s by default, a GCS restarted by Ray's fault
tolerance is back well within it) it calls ``lost`` with the reason, and the runner
(`RayEpisodeRunner.cluster_lost`) cancels the episodes in flight with `ClusterLostError`:
the campaign stops as it stops on any error (its slots not played stored unscored naming
the stop, the ``incomplete:`` line, `EXIT_INCOMPLETE`), with time left to stop the actors
and Ray before Ray would end the process.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from types import ModuleType

import anyio

from mcpgym_clients.errors import ClientError, InfraError

PROBE_EVERY_S = 2.0
"""Seconds between two probes of the GCS."""

PROBE_TIMEOUT_S = 5.0
"""Seconds one probe waits for the GCS (a loaded machine answers well within it)."""

FAILED_PROBES = 2
"""Probes in a row that must fail before the GCS is given up (`watch_gcs`)."""

RAY_RECONNECT_S = 60.0
"""Ray's default ``gcs_rpc_server_reconnect_timeout_s``: how long its core worker waits
for a lost GCS before it ends the process."""

EXIT_INCOMPLETE = 3
"""`mcpgym_clients.campaign.EXIT_INCOMPLETE` (not imported: the campaign imports backends)."""


class ClusterLostError(InfraError):
    """Ray's GCS stopped answering under a campaign: the campaign stops (exit status
    `EXIT_INCOMPLETE`, the run resumable), before Ray ends the process."""

    exit_code = EXIT_INCOMPLETE

    def __init__(self, message: str) -> None:
        ClientError.__init__(self, message)  # the message says it is Ray's: no prefix
        self.service, self.unanswered = "ray", True


def ray_reconnect_s(environ: Mapping[str, str] = os.environ) -> float:
    """Ray's ``gcs_rpc_server_reconnect_timeout_s`` as this process's Ray reads it
    (``RAY_gcs_rpc_server_reconnect_timeout_s``, else `RAY_RECONNECT_S`), seconds."""
    try:
        return float(environ.get("RAY_gcs_rpc_server_reconnect_timeout_s", RAY_RECONNECT_S))
    except ValueError:
        return RAY_RECONNECT_S


def lost_after(ray_wait: float) -> float:
    """Seconds of GCS silence after which `watch_gcs` gives it up, for Ray's reconnect
    timeout ``ray_wait``: a quarter of it, at least 2 s (15 s for Ray's default 60),
    leaving three quarters of Ray's wait to stop the campaign, the actors and Ray."""
    return max(ray_wait / 4, 2.0)


def gcs_probe(ray: ModuleType) -> Callable[[], bool] | None:
    """A blocking probe of the GCS this process is connected to (``True``: it answered
    within `PROBE_TIMEOUT_S`), or ``None`` where this Ray has no GCS client to ask (then
    nothing is watched). It reads a key of Ray's internal store through the driver's GCS
    client (Ray's private API, as Ray offers no public one that takes a timeout)."""
    try:
        client = ray._private.worker.global_worker.gcs_client
        get = client.internal_kv_get
    except Exception:  # no such private API in this Ray, or not a worker (Ray Client)
        return None

    def probe() -> bool:
        try:
            get(b"mcpgym-gcs-probe", None, timeout=PROBE_TIMEOUT_S)
        except Exception:  # RpcError (unavailable, timed out), or the client gone
            return False
        return True

    return probe


async def watch_gcs(
    probe: Callable[[], bool],
    lost: Callable[[str], None],
    *,
    after: float,
    ray_wait: float = RAY_RECONNECT_S,
    every: float = PROBE_EVERY_S,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Probe the GCS every ``every`` seconds (in a thread of its own, never queued behind
    the campaign's); once at least `FAILED_PROBES` probes in a row have failed and the
    GCS has not answered for ``after`` seconds since the first of them was sent, call
    ``lost`` with the reason once and return. Runs until cancelled otherwise.
    ``ray_wait``: Ray's reconnect timeout, named in the reason.

    Silence is counted from the first unanswered probe, not from the last answer: time
    this watch did not run (a loaded machine, a stalled event loop) is no silence of the
    GCS, and one slow answer is no lost GCS (adversarial round 19, R19-2).
    """
    limiter = anyio.CapacityLimiter(1)
    failed, since = 0, 0.0
    while True:
        sent = clock()
        ok = await anyio.to_thread.run_sync(probe, abandon_on_cancel=True, limiter=limiter)
        now = clock()
        if ok:
            failed = 0
        else:
            failed, since = failed + 1, since if failed else sent
            if failed >= FAILED_PROBES and now - since >= after:
                lost(
                    f"Ray's GCS (the cluster's control store) has not answered for "
                    f"{now - since:.0f} s: its process died or its node is unreachable, and "
                    f"Ray ends this process once it has been gone {ray_wait:.0f} s, so the "
                    "campaign stops here (on a cluster, bring its head node back before "
                    "resuming)"
                )
                return
        await anyio.sleep(every)
