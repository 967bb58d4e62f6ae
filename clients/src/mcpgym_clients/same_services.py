"""Whether the servers a campaign talks to are still the ones it started with.

A server restarted or replaced mid-campaign may serve or grade on, but otherwise: an
environment server with another seed salt, lock or episode settings (other variants under
the same ids: adversarial round 14, S1-8), a grading service without the bundle key (grades
no longer checked alike: round 15, S5-9). The episode driver asks these after each
``POST /episodes`` and each grade; a reason stops the campaign (`ConfigurationError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpgym_clients.records import ServerInfo


def served_otherwise(info: ServerInfo | None, meta: Mapping[str, Any], env_url: str) -> str | None:
    """Why the episode ``meta`` (``POST /episodes``'s answer) was not served under the lock
    and episode settings ``info`` (what `server_info` read when the campaign started; ``None``:
    not read, nothing compared) says, or ``None``.

    A server restarted mid-campaign with another seed salt (other variants under the same
    ids), another environment version (lock), TTL or log caps would otherwise fill one run
    with episodes of two measurements (adversarial round 14, S1-8: after a restart with a
    seed salt, 15 of 28 rows of a finished run were other variants). Settings are compared
    only when both answers carry them (an older server's do not); without them, a served
    seed other than the requested one under a run started without a salt is the same change.
    """
    if info is None:
        return None
    what = None
    if meta.get("lock") is not None and meta["lock"] != info.lock:
        what = f"its lock is now {str(meta['lock'])[:12]} (was {info.lock[:12]})"
    elif (now := meta.get("episode_settings")) is not None and (
        info.episode_settings is not None and now != info.episode_settings
    ):
        keys = sorted(
            k for k in {*now, *info.episode_settings} if now.get(k) != info.episode_settings.get(k)
        )
        what = (
            "its episode settings changed ("
            + ", ".join(f"{k}: {info.episode_settings.get(k)!r} -> {now.get(k)!r}" for k in keys)
            + ")"
        )
    elif (
        info.episode_settings is not None
        and info.episode_settings.get("seed_salt") is None
        and "requested_seed" in meta
        and meta.get("seed") != meta["requested_seed"]
    ):
        what = "it now serves salted seeds (the run started without a seed salt)"
    if what is None:
        return None
    return (
        f"stopping: the environment server at {env_url} is not the one this "
        f"campaign started with: {what}. It was restarted or replaced mid-campaign; "
        "episodes served now would not be comparable with the run's. Run the same "
        "command again: a server with the run's settings resumes it, another starts "
        "a new run"
    )


def graded_otherwise(started: str | None, signature: object, grading_url: str) -> str | None:
    """Why a grade saying ``signature`` was not graded as this campaign's grades are
    (``started``: the ``signature`` its first grade said), or ``None``.

    A grading service restarted mid-campaign without the bundle key (or with one where it
    had none) grades on, but its grades no longer say ``signature: verified``: a finished
    run held 10 verified and 18 unchecked grades, rc 0 (adversarial round 15, S5-9). A grade
    without the field (an older service) is not compared.
    """
    if signature is None or started is None or signature == started:
        return None
    return (
        f"stopping: the grading service at {grading_url} is not the one this "
        f"campaign started with: its grades said signature {started!r}, "
        f"now {signature!r} (restarted with another bundle key setting?). Grades of one "
        "run must be checked alike: give it the bundle key the run was graded with "
        "(--bundle-key / MCPGYM_BUNDLE_KEY, the same as the environment server's) and "
        "run the same command again"
    )
