"""Grades kept on disk (``grades_dir``), bound to the bundle they grade.

A cached grade is served instead of grading again, so a file planted or edited in
``grades_dir`` must never be taken as the grade. Each file is an envelope::

    {"format": "mcpgym-grade-cache/1", "episode_id", "bundle_sha256", "lock",
     "grade": <Grade>, "mac": <hex HMAC-SHA256>}

``bundle_sha256`` is the digest of the exact bundle bytes that were graded
(`mcpgym_server.bundles.BundleFiles.sha256`: meta.json, log.jsonl, the final state and the
signature), ``lock`` the lock of the grade, and ``mac`` an HMAC-SHA256 over canonical JSON
of everything else, keyed by the bundle key when the service has one, else by its bearer
token (secrets an agent never holds). A grade is served from disk only when the MAC
verifies, the envelope names the episode asked for, its grade names the same episode and
lock, that lock is the installed environment's (a rubric fixed since, hence a new lock,
makes every grade of the old one stale: the bundle is graded again, and refused with 409
as a lock mismatch), and the bundle in the store still has that digest; on any mismatch
(a bare grade file from before this format included) the bundle is graded again and the
file rewritten. The lock rule (`stale`) applies to the grades kept in memory as well.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from mcpgym_grading.grade import Grade
from mcpgym_server.bundles import canonical_json

CACHE_FORMAT = "mcpgym-grade-cache/1"
"""The ``format`` of a grade file."""


def _mac(key: bytes, body: dict[str, Any]) -> str:
    return hmac.new(key, canonical_json(body).encode(), hashlib.sha256).hexdigest()


def seal_grade(grade: Grade, *, bundle_sha256: str, key: bytes) -> str:
    """The grade file's text for ``grade`` of the bundle whose bytes have ``bundle_sha256``.

    Args:
        grade: the grade. bundle_sha256: `BundleFiles.sha256` of the bytes graded.
        key: the MAC key (the bundle key, else the service's bearer token), bytes.
    """
    body = {
        "format": CACHE_FORMAT,
        "episode_id": grade.episode_id,
        "bundle_sha256": bundle_sha256,
        "lock": grade.lock,
        "grade": grade.model_dump(mode="json"),
    }
    return json.dumps({**body, "mac": _mac(key, body)}, indent=2)


def open_grade(
    text: str,
    *,
    episode_id: str,
    bundle_sha256: str,
    key: bytes,
    installed_lock: Callable[[str], str],
) -> tuple[Grade | None, str]:
    """The cached grade in ``text`` if it is bound to this bundle and lock, else why not.

    Args:
        text: the grade file's content. episode_id: the episode asked for.
        bundle_sha256: the digest of the bundle now in the store. key: as `seal_grade`.
        installed_lock: the lock of the installed environment of a name (called with the
            grade's ``env`` once the file verifies); any exception it raises (an unknown
            environment) makes the grade not served.

    Returns:
        ``(grade, "")`` when it may be served, else ``(None, reason)``.
    """
    try:
        envelope = json.loads(text)
    except ValueError as exc:
        return None, f"not JSON ({exc})"
    if not isinstance(envelope, dict) or envelope.get("format") != CACHE_FORMAT:
        return None, f"not a {CACHE_FORMAT} file (a bare grade, or another format)"
    given = envelope.pop("mac", None)
    if not isinstance(given, str) or not hmac.compare_digest(given, _mac(key, envelope)):
        return None, "its MAC does not verify (edited, or written with another key)"
    if envelope.get("episode_id") != episode_id:
        return None, f"it is the grade of episode {envelope.get('episode_id')!r}"
    if envelope.get("bundle_sha256") != bundle_sha256:
        return None, "the bundle in the store is not the one it graded"
    try:
        grade = Grade.model_validate(envelope.get("grade"))
    except ValidationError as exc:
        return None, f"its grade does not parse ({exc.error_count()} errors)"
    if grade.episode_id != episode_id or grade.lock != envelope.get("lock"):
        return None, "its grade names another episode or lock"
    why = stale(grade, installed_lock)
    return (None, why) if why else (grade, "")


def stale(grade: Grade, installed_lock: Callable[[str], str]) -> str:
    """Why ``grade`` may no longer be served (``""``: it may): its lock is not the
    installed environment's (a rubric fixed since makes every grade of the old lock
    stale), or that environment is not installed. The one rule for grades kept in memory
    and on disk (`mcpgym_grading.service`).

    Args:
        grade: a grade made earlier. installed_lock: as `open_grade`.
    """
    try:
        lock = installed_lock(grade.env)
    except Exception as exc:  # the environment is not installed: grading says why
        return f"the lock of environment {grade.env!r} is unknown ({exc})"
    if lock != grade.lock:
        return f"it was graded under lock {grade.lock}, the installed lock is {lock}"
    return ""
