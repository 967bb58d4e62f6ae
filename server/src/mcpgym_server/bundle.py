"""Episode bundles: the immutable record a sealed episode leaves in the episode store.

On disk, one directory per episode inside the store directory::

    <store>/<episode_id>/meta.json     EpisodeMeta as JSON
    <store>/<episode_id>/log.jsonl     one LogEntry per line, in call order
    <store>/<episode_id>/final.db.gz   the sandbox database at sealing (a gzipped SQLite file:
                                       ``gunzip -k final.db.gz && sqlite3 final.db``)
    <store>/<episode_id>/signature     HMAC-SHA256 of the bundle (when the server has a key)

Signing: an environment server given a *bundle key* (a secret shared with the grading
service) writes ``signature``: hex HMAC-SHA256 (RFC 2104, `hmac` stdlib) keyed by the bundle
key over canonical JSON of `signed_payload`: ``{"v": 2, "episode_id", "env", "env_version",
"lock", "final_sha256", "meta": <meta.json as JSON>, "log_sha256": <sha256 of log.jsonl>}``.
The episode id, environment and lock are named at the top so that what is signed is
*this bundle for this episode*: ``final_sha256`` pins the final database. A grading service
with the same key refuses a bundle whose signature is missing or does not verify
(`EpisodeStore.verify_signature`), so a bundle edited after sealing (say, an ``--unlocked``
one re-labelled as locked) is never graded; and it verifies against the episode id it was
*asked* to grade, so a passing bundle copied over a failing episode's folder is refused
(reason ``mismatch``) instead of graded as that episode.

A bundle is written into a temporary sibling directory and renamed into place,
so readers see either nothing or the whole bundle. The database is gzipped
(level 1, about 3.5x smaller for helpdesk, ~12 ms) because every episode keeps
a whole copy; ``meta.final_sha256`` is the digest of the uncompressed bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import os
import re
import shutil
import sqlite3
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from mcpgym_server.errors import BundleError, BundleSignatureError, UnknownEpisodeError

_EPISODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")

FINAL_DB = "final.db.gz"
"""File name of the final database inside a bundle directory."""

SIGNATURE = "signature"
"""File name of the bundle's HMAC-SHA256 signature (hex) inside a bundle directory."""


SIGNATURE_VERSION = 2
"""Version of the signed payload (1: meta and log only, before bundles bound their episode)."""


def signed_payload(meta: EpisodeMeta, log_text: bytes, *, episode_id: str) -> dict[str, Any]:
    """What a bundle signature covers (see the module docstring).

    Args:
        meta: the bundle's metadata. log_text: log.jsonl's bytes.
        episode_id: the episode the bundle is *for*: the sealing episode when signing, the
            episode asked for (the folder's name) when verifying.
    """
    return {
        "v": SIGNATURE_VERSION,
        "episode_id": episode_id,
        "env": meta.env,
        "env_version": meta.env_version,
        "lock": meta.lock,
        "final_sha256": meta.final_sha256,
        "meta": meta.model_dump(mode="json"),
        "log_sha256": hashlib.sha256(log_text).hexdigest(),
    }


def bundle_signature(
    key: str, meta: EpisodeMeta, log_text: bytes, *, episode_id: str | None = None
) -> str:
    """Hex HMAC-SHA256 (RFC 2104) keyed by ``key`` (UTF-8) over canonical JSON of
    `signed_payload` (``log_text``: log.jsonl's bytes; ``episode_id``: default
    ``meta.episode_id``)."""
    payload = signed_payload(meta, log_text, episode_id=episode_id or meta.episode_id)
    return hmac.new(key.encode(), canonical_json(payload).encode(), hashlib.sha256).hexdigest()


StepStatus = Literal["ok", "tool_error", "invalid_arguments", "unknown_tool", "internal_error"]
"""Outcome of one tool call: ``internal_error`` is an environment fault, never the agent's."""

TerminationReason = Literal[
    "submitted", "ended", "timeout", "session_closed", "eof", "shutdown", "max_steps"
]
"""Why an episode was sealed."""


class LogEntry(BaseModel):
    """One tool call in the tool-call log (written by the framework, never by tools).

    Attributes:
        step: 1-based call index. tool: tool name. arguments: raw arguments as received.
        status: see `StepStatus`. result: the JSON result when ``status == "ok"``.
        error: the message shown to the agent (for internal errors: the generic text).
        internal_detail: exception type and message for internal errors (never shown to the agent).
        clock: virtual time at the call (ISO 8601). duration_ms: wall time spent (volatile).
    """

    model_config = ConfigDict(extra="forbid")
    step: int
    tool: str
    arguments: Any
    status: StepStatus
    result: Any = None
    error: str | None = None
    internal_detail: str | None = None
    clock: str
    duration_ms: float = 0.0


class EpisodeMeta(BaseModel):
    """Metadata of a sealed episode.

    Attributes:
        episode_id, env, env_version, task (family), band, seed, variant_id: identity.
        lock: the environment lock digest the episode ran on; unlocked: served with ``--unlocked``.
        opened_at, sealed_at: wall-clock ISO timestamps (informational, volatile).
        termination: why it was sealed. answer: the text passed to ``submit``, if any.
        steps: number of tool calls. internal_errors: how many of them were internal errors.
        final_sha256: sha256 of the (uncompressed) final database.
        clock_end: virtual time at sealing.
    """

    model_config = ConfigDict(extra="forbid")
    episode_id: str
    env: str
    env_version: str
    task: str
    band: str
    seed: int
    variant_id: str
    lock: str
    unlocked: bool = False
    opened_at: str
    sealed_at: str
    termination: TerminationReason
    answer: str | None = None
    steps: int
    internal_errors: int
    final_sha256: str
    clock_end: str


@dataclass(frozen=True)
class EpisodeBundle:
    """A sealed episode: metadata, tool-call log and final database bytes."""

    meta: EpisodeMeta
    log: tuple[LogEntry, ...]
    final_db: bytes

    def open_final_db(self) -> sqlite3.Connection:
        """A private in-memory copy of the final database (rows as `sqlite3.Row`)."""
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        db.deserialize(self.final_db)
        db.row_factory = sqlite3.Row
        return db


def serialize_db(db: sqlite3.Connection) -> bytes:
    """The bytes of a SQLite database file holding ``db``'s content.

    Uses ``Connection.serialize``; the result is deterministic for a given
    sequence of statements, which makes final-state digests comparable.
    """
    return db.serialize()


class EpisodeStore:
    """A directory of sealed episode bundles.

    Args:
        root: the store directory.
        create: create ``root`` if missing (the environment server does); readers
            such as the grading service pass ``False`` so a mistyped path fails.
        sign_key: the bundle key: `write` signs every bundle with it (see the module
            docstring); ``None`` writes unsigned bundles.

    Raises:
        BundleError: ``create`` is false and ``root`` is not a directory.
    """

    def __init__(
        self, root: str | os.PathLike[str], *, create: bool = True, sign_key: str | None = None
    ) -> None:
        self.root = Path(root)
        self.sign_key = sign_key or None
        if create:
            self.root.mkdir(parents=True, exist_ok=True)
        elif not self.root.is_dir():
            raise BundleError(
                f"episode store {self.root} does not exist; pass the directory the "
                "environment server writes bundles to (its --store)"
            )

    def path(self, episode_id: str) -> Path:
        """Directory of one bundle (it may not exist).

        Raises:
            UnknownEpisodeError: ``episode_id`` is not of the episode-id form
                (``[A-Za-z0-9_-]``, at most 64 characters), so no bundle can have it.
        """
        if not _EPISODE_ID.fullmatch(episode_id):
            raise UnknownEpisodeError(episode_id)
        return self.root / episode_id

    def exists(self, episode_id: str) -> bool:
        """Whether a sealed bundle for ``episode_id`` is in the store."""
        try:
            return (self.path(episode_id) / "meta.json").is_file()
        except UnknownEpisodeError:
            return False

    def write(self, bundle: EpisodeBundle) -> Path:
        """Write a bundle atomically; return its directory.

        Raises:
            BundleError: a bundle with this episode id already exists.
        """
        dest = self.path(bundle.meta.episode_id)
        if dest.exists():
            raise BundleError(f"bundle {bundle.meta.episode_id} already exists in {self.root}")
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{bundle.meta.episode_id}-", dir=self.root))
        try:
            (tmp / FINAL_DB).write_bytes(gzip.compress(bundle.final_db, 1, mtime=0))
            log_text = "".join(entry.model_dump_json() + "\n" for entry in bundle.log).encode()
            (tmp / "log.jsonl").write_bytes(log_text)
            if self.sign_key is not None:
                signature = bundle_signature(self.sign_key, bundle.meta, log_text)
                (tmp / SIGNATURE).write_text(signature + "\n", encoding="utf-8")
            (tmp / "meta.json").write_text(bundle.meta.model_dump_json(indent=2), encoding="utf-8")
            os.replace(tmp, dest)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return dest

    def read_meta(self, episode_id: str) -> EpisodeMeta:
        """Only the metadata of a sealed bundle (no database is decompressed).

        Raises:
            UnknownEpisodeError: no bundle with that id. BundleError: meta.json is malformed.
        """
        d = self.path(episode_id)
        try:
            text = (d / "meta.json").read_text(encoding="utf-8")
        except FileNotFoundError:
            raise UnknownEpisodeError(episode_id) from None
        try:
            return EpisodeMeta.model_validate_json(text)
        except ValueError as exc:
            raise BundleError(f"bundle {episode_id} in {self.root} is malformed: {exc}") from exc

    def read(self, episode_id: str) -> EpisodeBundle:
        """Read a sealed bundle.

        Raises:
            UnknownEpisodeError: no bundle with that id.
            BundleError: the bundle is incomplete or does not parse.
        """
        d = self.path(episode_id)
        if not (d / "meta.json").is_file():
            raise UnknownEpisodeError(episode_id)
        try:
            meta = EpisodeMeta.model_validate_json((d / "meta.json").read_text(encoding="utf-8"))
            log = tuple(
                LogEntry.model_validate_json(line)
                for line in (d / "log.jsonl").read_text(encoding="utf-8").splitlines()
                if line.strip()
            )
            final_db = gzip.decompress((d / FINAL_DB).read_bytes())
        except (OSError, ValueError, EOFError, zlib.error) as exc:
            raise BundleError(f"bundle {episode_id} in {self.root} is malformed: {exc}") from exc
        if hashlib.sha256(final_db).hexdigest() != meta.final_sha256:
            raise BundleError(
                f"bundle {episode_id}: {FINAL_DB} does not match final_sha256 in meta"
            )
        return EpisodeBundle(meta=meta, log=log, final_db=final_db)

    def verify_signature(self, episode_id: str, key: str) -> None:
        """Check that the bundle in ``episode_id``'s folder was signed with the bundle
        ``key`` for that episode.

        Raises:
            UnknownEpisodeError: no bundle with that id. BundleSignatureError: it was sealed
                for another episode (reason ``mismatch``: a bundle folder copied or moved),
                it is unsigned, or its signature does not verify (meta.json, log.jsonl or the
                final database changed since it was sealed, or another key signed it).
            BundleError: it is malformed.
        """
        d = self.path(episode_id)
        meta = self.read_meta(episode_id)
        check_bundle_episode(meta, episode_id, where=str(d))
        try:
            given = (d / SIGNATURE).read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            raise BundleSignatureError(
                f"bundle {episode_id} is unsigned: the environment server that wrote it had "
                "no bundle key (give both servers the same --bundle-key / MCPGYM_BUNDLE_KEY)",
                "unsigned",
            ) from None
        try:
            log_text = (d / "log.jsonl").read_bytes()
        except OSError as exc:
            raise BundleError(f"bundle {episode_id} in {self.root} is malformed: {exc}") from exc
        expected = bundle_signature(key, meta, log_text, episode_id=episode_id)
        if not hmac.compare_digest(given, expected):
            raise BundleSignatureError(
                f"bundle {episode_id}: its signature does not verify for episode {episode_id}: "
                "meta.json or log.jsonl was changed after sealing, the bundle was sealed for "
                "another episode, or another bundle key signed it",
                "invalid",
            )


def check_bundle_episode(meta: EpisodeMeta, episode_id: str, *, where: str = "") -> None:
    """Refuse a bundle whose metadata names another episode than the one asked for.

    A passing bundle folder copied over a failing episode's folder keeps its own
    ``meta.episode_id``; grading it as the folder's episode would score the wrong attempt.

    Raises:
        BundleSignatureError: ``meta.episode_id != episode_id`` (reason ``mismatch``).
    """
    if meta.episode_id != episode_id:
        place = f" ({where})" if where else ""
        raise BundleSignatureError(
            f"the bundle stored for episode {episode_id}{place} was sealed for episode "
            f"{meta.episode_id}: a bundle folder was copied or moved; it is not graded as "
            f"{episode_id}. Grade {meta.episode_id} by its own id, or rerun {episode_id}",
            "mismatch",
        )


class MemoryEpisodeStore(EpisodeStore):
    """An episode store that keeps bundles in memory (replays, tests, trainers).

    Same interface as `EpisodeStore`; nothing touches the disk.
    """

    def __init__(self) -> None:  # noqa: D107 - no directory
        self.root = Path("<memory>")
        self._bundles: dict[str, EpisodeBundle] = {}

    def exists(self, episode_id: str) -> bool:
        """Whether a bundle for ``episode_id`` is held."""
        return episode_id in self._bundles

    def write(self, bundle: EpisodeBundle) -> Path:
        """Keep a bundle. Raises `BundleError` if one with that id is already held."""
        if bundle.meta.episode_id in self._bundles:
            raise BundleError(f"bundle {bundle.meta.episode_id} already exists in memory")
        self._bundles[bundle.meta.episode_id] = bundle
        return self.root / bundle.meta.episode_id

    def read_meta(self, episode_id: str) -> EpisodeMeta:
        """The metadata of the bundle of ``episode_id`` (see `read`)."""
        return self.read(episode_id).meta

    def read(self, episode_id: str) -> EpisodeBundle:
        """The bundle of ``episode_id``. Raises `UnknownEpisodeError` if none is held."""
        try:
            return self._bundles[episode_id]
        except KeyError:
            raise UnknownEpisodeError(episode_id) from None


_SCALARS = frozenset({str, int, float, bool, type(None)})


def to_jsonable(value: Any) -> Any:
    """Convert a tool result to plain JSON types (pydantic models, Rows, tuples, sets).

    Exact built-in types are dispatched first: this runs on every tool call.

    Raises:
        TypeError: the value contains something JSON cannot represent.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {
            (k if type(k) is str else str(k)): (v if type(v) in _SCALARS else to_jsonable(v))
            for k, v in value.items()
        }
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else to_jsonable(v) for v in value]
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, sqlite3.Row):
        return {k: to_jsonable(value[k]) for k in value.keys()}  # noqa: SIM118
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"tool result of type {type(value).__name__} is not JSON-serialisable")


def canonical_json(value: Any) -> str:
    """Sorted-key, compact JSON used for digests."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
