"""Secret seed salt: the seeds a harness asks for are not the seeds the public generator gets.

An agent with code execution and the environment's public package can regenerate the
variants of the published seeds (``--seeds 0-19``) and match its instruction against them,
which gives it the variant and so the reference solution. A server given a *seed salt* (a
secret, ``mcpgym serve --seed-salt`` / ``MCPGYM_SEED_SALT``) serves, for a requested seed
``N`` of ``task@band``, the variant of generator seed `salted_seed` ``(salt, task, band, N)``:
the first 63 bits of HMAC-SHA256 keyed by the salt. Without the salt, the requested seed
says nothing about the variant served; finding it by regenerating would take a search over
2**63 generator seeds. The mapping is deterministic, so one salt always serves the same
variants (runs on the same lock and salt compare); bundles record the generator seed and
variant id, so the grading service needs no salt (docs/security.md).

`salt_fingerprint` names a salt without revealing it: the server reports it to the harness
(``GET /tasks`` with the control token), which records it with the run so that a run is
resumed only under the salt it was started with (docs/measurement.md, "Resume").
"""

from __future__ import annotations

import hashlib
import hmac

SEED_SALT_ENV = "MCPGYM_SEED_SALT"
"""Environment variable holding the seed salt (``mcpgym serve`` and ``mcpgym eval``)."""


def salted_seed(salt: str, task: str, band: str, seed: int) -> int:
    """The generator seed served for ``task@band#seed`` under ``salt``.

    Returns:
        An integer in ``[0, 2**63)``: the first 8 bytes of HMAC-SHA256(``salt``,
        ``"task@band#seed"``), big-endian, with the top bit cleared.

    Raises:
        ValueError: ``salt`` is empty.
    """
    if not salt:
        raise ValueError("the seed salt must not be empty")
    digest = hmac.new(salt.encode(), f"{task}@{band}#{seed}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


_FINGERPRINT_LABEL = b"mcpgym seed-salt fingerprint v1"
"""What `salt_fingerprint` authenticates: no `salted_seed` message (``task@band#seed``,
which always holds ``@`` and ``#``) is this label, so a fingerprint is never a seed."""


def salt_fingerprint(salt: str | None) -> str | None:
    """A short keyed fingerprint of ``salt``: equal for equal salts, different otherwise.

    It is HMAC-SHA256 keyed by the salt over a fixed label, so it reveals nothing about the
    salt or the seeds it serves beyond what an offline guess of the salt could confirm;
    the episode rows of a run store (requested seed and variant id) already allow as much.
    Use a high-entropy salt (``secrets.token_urlsafe(32)``).

    Returns:
        ``"hmac-sha256:"`` plus 16 hex digits (64 bits); ``None`` for no salt.

    Raises:
        ValueError: ``salt`` is empty.
    """
    if salt is None:
        return None
    if not salt:
        raise ValueError("the seed salt must not be empty")
    digest = hmac.new(salt.encode(), _FINGERPRINT_LABEL, hashlib.sha256).hexdigest()
    return "hmac-sha256:" + digest[:16]
