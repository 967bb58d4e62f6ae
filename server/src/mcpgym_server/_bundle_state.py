"""`EpisodeBundle`: a sealed episode in memory, its final state whole or as a page delta.

See `mcpgym_server._bundle` for the on-disk format (format 2 stores the page delta).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from mcpgym_server._delta import PageDelta
from mcpgym_server._errors import BundleError

if TYPE_CHECKING:
    from mcpgym_server._bundle import EpisodeMeta, LogEntry
    from mcpgym_server._snapshot import Snapshot

STATE_DELTA = "state.delta.gz"
"""File name of the final database's page delta inside a format-2 bundle directory."""

BUNDLE_FORMAT = 2
"""The bundle format `EpisodeStore.write` produces for bundles holding a page delta."""


class EpisodeBundle:
    """A sealed episode: metadata, tool-call log and the final state.

    The final state is held as the whole database (``final_db``), as a page delta against
    the snapshot (``delta``, bundle format 2), or both; a delta bundle rebuilds the whole
    database on first use and checks it against ``meta.final_sha256``.

    Args:
        meta: the metadata. log: the tool-call log.
        final_db: the final database's bytes, if held.
        delta: the final database as a `PageDelta` against the snapshot ``meta.base_sha256``.

    Raises:
        ValueError: neither ``final_db`` nor ``delta`` is given.
    """

    __slots__ = ("_delta", "_delta_data", "_final", "log", "meta")

    def __init__(
        self,
        meta: EpisodeMeta,
        log: tuple[LogEntry, ...],
        final_db: bytes | None = None,
        *,
        delta: PageDelta | None = None,
        delta_data: bytes | None = None,
    ) -> None:
        if final_db is None and delta is None and delta_data is None:
            raise ValueError("an EpisodeBundle needs its final_db bytes or a page delta")
        self.meta = meta
        self.log = log
        self._final = final_db
        self._delta = delta
        self._delta_data = delta_data

    def __repr__(self) -> str:
        return f"EpisodeBundle({self.meta.episode_id}, steps={self.meta.steps})"

    @property
    def delta(self) -> PageDelta | None:
        """The page delta against the snapshot ``meta.base_sha256``, when the bundle holds
        one decoded (a bundle read from disk decodes it in `final_state`)."""
        return self._delta

    def delta_data(self, snapshot: Snapshot | None = None) -> bytes | None:
        """The encoded page delta (what ``state.delta.gz`` holds), if the bundle has one.

        A delta not yet encoded is encoded against ``snapshot`` (``None``: the snapshot
        ``meta.base_sha256`` loaded in this process).

        Raises:
            BundleError: it must be encoded and no snapshot is at hand.
        """
        if self._delta_data is not None:
            return self._delta_data
        if self._delta is None:
            return None
        encoded = self._delta.encoded
        if encoded is not None:
            return encoded
        if snapshot is None:
            from mcpgym_server._snapshot import loaded_snapshot

            snapshot = loaded_snapshot(self.meta.base_sha256 or "")
            if snapshot is None:
                raise BundleError(
                    f"bundle {self.meta.episode_id}: its page delta is against snapshot "
                    f"{(self.meta.base_sha256 or '?')[:12]}, which is not loaded in this process"
                )
        return self._delta.encode_against(snapshot.data)

    @property
    def holds_final(self) -> bool:
        """Whether the final database's bytes are held (sealed in this process, read from a
        format-1 bundle, or already rebuilt)."""
        return self._final is not None

    def delta_against(self, snapshot: Snapshot) -> PageDelta | None:
        """The page delta against ``snapshot``, decoded (no final database is rebuilt), or
        ``None`` when the bundle holds no delta or holds it against another snapshot.

        Raises:
            BundleError: the stored delta does not decode.
        """
        if not self.has_delta or self.meta.base_sha256 != snapshot.sha256:
            return None
        if self._delta is None:
            assert self._delta_data is not None
            self._delta = PageDelta.decode(self._delta_data, snapshot.data)
        return self._delta

    @property
    def has_delta(self) -> bool:
        """Whether the final state is held as a page delta (bundle format 2)."""
        return self._delta is not None or self._delta_data is not None

    @property
    def final_db(self) -> bytes:
        """The final database's bytes (a delta bundle is rebuilt from a snapshot loaded in
        this process; see `final_state`).

        Raises:
            BundleError: the snapshot is not loaded here, or the rebuilt file differs from
                ``meta.final_sha256``.
        """
        if self._final is None:
            from mcpgym_server._snapshot import loaded_snapshot

            sha = self.meta.base_sha256 or ""
            snapshot = loaded_snapshot(sha)
            if snapshot is None:
                raise BundleError(
                    f"bundle {self.meta.episode_id} stores its final database as a page delta "
                    f"against snapshot {sha[:12]}, which is not loaded in this process; load "
                    f"environment `{self.meta.env}` first (mcpgym_server.load_environment)"
                )
            return self.final_state(snapshot)[0]
        return self._final

    def final_state(self, snapshot: Snapshot) -> tuple[bytes, PageDelta]:
        """The final database and its page delta against ``snapshot``.

        A delta bundle is rebuilt from ``snapshot`` (checked against ``meta.final_sha256``);
        a whole-database bundle has its delta computed (about 0.2 ms per MB).

        Raises:
            BundleError: the delta was made against another snapshot, or the rebuilt
                database's sha256 is not ``meta.final_sha256``.
        """
        meta = self.meta
        if self.has_delta and meta.base_sha256 == snapshot.sha256:
            if self._delta is None:
                assert self._delta_data is not None
                self._delta = PageDelta.decode(self._delta_data, snapshot.data)
            if self._final is None:
                final = self._delta.apply(snapshot.data)
                if hashlib.sha256(final).hexdigest() != meta.final_sha256:
                    raise BundleError(
                        f"bundle {meta.episode_id}: the final database rebuilt from snapshot "
                        f"{snapshot.sha256[:12]} and {STATE_DELTA} does not match final_sha256 "
                        f"{meta.final_sha256[:12]} in meta (format {meta.bundle_format}); the "
                        "bundle or the snapshot is damaged"
                    )
                self._final = final
            return self._final, self._delta
        if self._final is None:
            raise BundleError(
                f"bundle {meta.episode_id} is a page delta against snapshot "
                f"{(meta.base_sha256 or '?')[:12]}, but the environment's snapshot is "
                f"{snapshot.sha256[:12]}: grade it with the environment it ran on"
            )
        return self._final, PageDelta.between(snapshot.data, self._final)

    def open_final_db(self) -> sqlite3.Connection:
        """A private in-memory copy of the final database (rows as `sqlite3.Row`)."""
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        db.deserialize(self.final_db)
        db.row_factory = sqlite3.Row
        return db


_FINAL_SHA256: OrderedDict[tuple[str, str], str] = OrderedDict()
_FINAL_SHA256_LOCK = threading.Lock()
_FINAL_SHA256_MAX = 4096


def _final_sha256(final: bytes, base_sha256: str, delta_sha256: str) -> str:
    """sha256 of the final database, remembered by the delta it is made of: the snapshot and
    the encoded delta determine the file byte for byte, so episodes that end in the same
    state (a group of rollouts of one variant often does) hash the file once."""
    key = (base_sha256, delta_sha256)
    with _FINAL_SHA256_LOCK:
        found = _FINAL_SHA256.get(key)
        if found is not None:
            _FINAL_SHA256.move_to_end(key)
            return found
    digest = hashlib.sha256(final).hexdigest()
    with _FINAL_SHA256_LOCK:
        _FINAL_SHA256[key] = digest
        while len(_FINAL_SHA256) > _FINAL_SHA256_MAX:
            _FINAL_SHA256.popitem(last=False)
    return digest


def forget_final_sha256() -> None:
    """Forget the remembered ``final_sha256`` values (benchmarks that time the hash)."""
    with _FINAL_SHA256_LOCK:
        _FINAL_SHA256.clear()


def delta_meta(
    final: bytes, delta: PageDelta, snapshot: Snapshot, *, digests: bool = True
) -> dict[str, Any]:
    """The format-2 fields of `EpisodeMeta` for a final database and its delta against
    ``snapshot``: ``final_sha256``, ``final_size``, ``base_sha256``, ``delta_sha256``
    (of `PageDelta.encode_against`), ``final_pages_sha256`` (`PageDigests`: the final
    database's page-wise digest, derived from the snapshot's and the changed pages),
    ``bundle_format``. ``digests=False`` leaves the three digests of the final state empty
    (``""``; see ``EpisodeManager(hash_final=False)``)."""
    out = {
        "bundle_format": BUNDLE_FORMAT,
        "final_sha256": "",
        "final_size": len(final),
        "base_sha256": snapshot.sha256,
        "delta_sha256": "",
        "final_pages_sha256": "",
    }
    if digests:
        p = delta.page_size
        delta_sha256 = hashlib.sha256(delta.encode_against(snapshot.data)).hexdigest()
        out["final_sha256"] = _final_sha256(final, snapshot.sha256, delta_sha256)
        out["delta_sha256"] = delta_sha256
        out["final_pages_sha256"] = snapshot.page_digests.with_delta(
            delta, lambda n: final[(n - 1) * p : n * p]
        )
    return out
