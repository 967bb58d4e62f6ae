"""Episode bundles: the immutable record a sealed episode leaves in the episode store.

On disk, one directory per episode inside the store directory::

    <store>/<episode_id>/meta.json        EpisodeMeta as JSON
    <store>/<episode_id>/log.jsonl        one LogEntry per line, in call order
    <store>/<episode_id>/state.delta.gz   the final database as a page delta against the
                                          snapshot (`mcpgym_server._delta`), gzipped
    <store>/<episode_id>/signature        HMAC-SHA256 of the bundle (when the server has a key)

Bundle format 2 (``meta.bundle_format``, written since the page delta) stores only the
pages that differ from the locked snapshot, plus the final database's size
(``meta.final_size``) and sha256 (``meta.final_sha256``); ``meta.base_sha256`` names the
snapshot and ``meta.delta_sha256`` pins the (uncompressed) delta. A reader rebuilds the
final database from the snapshot it already holds and checks it byte for byte against
``final_sha256`` (`EpisodeBundle.final_state`): a mismatch raises `BundleError`, never a
silent grade. ``meta.final_pages_sha256`` (bundles sealed since page-wise digests) is a
second digest of the same file, a hash tree over its pages (`_delta.PageDigests`): the
grader opens the final state in place on the snapshot and checks it against this one, at
the cost of the changed pages. A helpdesk bundle is ~5-15 KB instead of ~300 KB
(docs/scaling.md).
Format 1 bundles (no ``bundle_format`` in meta.json) hold the whole database gzipped in
``final.db.gz`` (``gunzip -k final.db.gz && sqlite3 final.db``); they are still read.
To look at a format-2 final database: ``mcpgym_server.EpisodeStore(DIR).read(ID)`` in a
process that has loaded the environment, then ``.open_final_db()``.

Signing: an environment server given a *bundle key* (a secret shared with the grading
service) writes ``signature``: hex HMAC-SHA256 (RFC 2104, `hmac` stdlib) keyed by the bundle
key over canonical JSON of `signed_payload`: ``{"v": 2, "episode_id", "env", "env_version",
"lock", "final_sha256", "meta": <meta.json as JSON>, "log_sha256": <sha256 of log.jsonl>}``.
The episode id, environment and lock are named at the top so that what is signed is
*this bundle for this episode*: ``final_sha256`` (and, in format 2, ``meta.delta_sha256``)
pin the final database. A grading service with the same key refuses a bundle whose
signature is missing or does not verify (`EpisodeStore.verify_signature`), so a bundle
edited after sealing (say, an ``--unlocked`` one re-labelled as locked) is never graded;
and it verifies against the episode id it was *asked* to grade, so a passing bundle copied
over a failing episode's folder is refused (reason ``mismatch``) instead of graded as that
episode.

A bundle is written into a temporary sibling directory and renamed into place,
so readers see either nothing or the whole bundle.

A writer killed while sealing (``kill -9``) leaves its ``.tmp-*`` directory behind;
`EpisodeStore.sweep_debris`, run when an episode manager starts on the store, removes
those whose writer is gone (it holds a lock on its directory while writing: no clock
decides).
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import os
import re
import shutil
import sqlite3
import zlib
from pathlib import Path
from typing import Any

from mcpgym_server._bundle_files import BundleFiles, read_bundle_files
from mcpgym_server._bundle_meta import (
    CappedValue,
    EpisodeMeta,
    LogEntry,
    StepStatus,
    TerminationReason,
    canonical_json,
    to_jsonable,
)
from mcpgym_server._bundle_state import BUNDLE_FORMAT, STATE_DELTA, EpisodeBundle, delta_meta
from mcpgym_server._debris import DEBRIS_MAX_AGE_S, sweep_debris, writer_dir
from mcpgym_server._errors import BundleError, BundleSignatureError, UnknownEpisodeError

__all__ = [  # the bundle API; EpisodeBundle and delta_meta live in bundle_state
    "BUNDLE_FORMAT",
    "CappedValue",
    "DELTA_GZIP_LEVEL",
    "FINAL_DB",
    "SIGNATURE",
    "STATE_DELTA",
    "EpisodeBundle",
    "EpisodeMeta",
    "EpisodeStore",
    "LogEntry",
    "MemoryEpisodeStore",
    "StepStatus",
    "TerminationReason",
    "bundle_signature",
    "canonical_json",
    "delta_meta",
    "serialize_db",
    "to_jsonable",
]

_EPISODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")

FINAL_DB = "final.db.gz"
"""File name of the whole final database inside a format-1 bundle directory."""

DELTA_GZIP_LEVEL = 1
"""gzip level of ``state.delta.gz`` (a helpdesk delta: ~76 KB of pages, ~6 KB gzipped)."""

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
        "meta": _signed_meta(meta),
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


def _v1_signature(key: str, meta: EpisodeMeta, log_text: bytes) -> str:
    """The signature of a format-1 bundle sealed before `SIGNATURE_VERSION` 2."""
    body = canonical_json(
        {"meta": _signed_meta(meta), "log_sha256": hashlib.sha256(log_text).hexdigest()}
    )
    return hmac.new(key.encode(), body.encode(), hashlib.sha256).hexdigest()


_FORMAT_2_FIELDS = (
    "bundle_format",
    "base_sha256",
    "final_size",
    "delta_sha256",
    "final_pages_sha256",
)


def _signed_meta(meta: EpisodeMeta) -> dict[str, Any]:
    """meta.json as signed: a format-1 meta without the format-2 fields, so bundles signed
    before page deltas still verify."""
    data = meta.model_dump(mode="json")
    if meta.bundle_format == 1:
        for key in _FORMAT_2_FIELDS:
            data.pop(key, None)
    return data


def serialize_db(db: sqlite3.Connection) -> bytes:
    """The bytes of a SQLite database file holding ``db``'s content.

    Uses ``Connection.serialize``; the result is deterministic for a given
    sequence of statements, which makes final-state digests comparable.
    """
    return db.serialize()


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


def _write_new(path: str, data: bytes) -> None:
    """Create ``path`` (it must not exist) holding ``data``."""
    fd = os.open(path, _NEW_FILE, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


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

        Every file's bytes are built first, then written with plain `os` calls into a
        temporary sibling directory (named after the episode and this writer, see
        `mcpgym_server._debris`) that is renamed into place: no store lookup before it,
        since the rename itself refuses a bundle already there.

        Raises:
            BundleError: a bundle with this episode id already exists.
        """
        eid = bundle.meta.episode_id
        dest = self.path(eid)
        if bundle.has_delta and bundle.meta.bundle_format == BUNDLE_FORMAT:
            raw = bundle.delta_data()
            assert raw is not None
            state_name, state = STATE_DELTA, gzip.compress(raw, DELTA_GZIP_LEVEL, mtime=0)
        else:
            state_name, state = FINAL_DB, gzip.compress(bundle.final_db, 1, mtime=0)
        log_text = "".join(entry.model_dump_json() + "\n" for entry in bundle.log).encode()
        files = [(state_name, state), ("log.jsonl", log_text)]
        if self.sign_key is not None:
            signature = bundle_signature(self.sign_key, bundle.meta, log_text)
            files.append((SIGNATURE, (signature + "\n").encode()))
        files.append(("meta.json", bundle.meta.model_dump_json(indent=2).encode()))
        tmp, lock = writer_dir(str(self.root), eid)  # locked: no sweep removes it
        try:
            for name, data in files:
                _write_new(os.path.join(tmp, name), data)
            try:
                os.replace(tmp, dest)
            except OSError as exc:  # a bundle is there (a directory with files in it)
                if os.path.lexists(dest):
                    raise BundleError(f"bundle {eid} already exists in {self.root}") from exc
                raise
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        finally:
            if lock is not None:
                os.close(lock)
        return dest

    def sweep_debris(self, max_age_s: float = DEBRIS_MAX_AGE_S) -> list[str]:
        """Remove the temporary directories of sealings that never finished.

        Those of live writers are kept, so servers may share a store; see
        `mcpgym_server._debris` for how a dead writer is told apart.

        Returns:
            The names removed (an unreadable store directory: none).
        """
        return sweep_debris(self.root, max_age_s)

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
        """Read a sealed bundle (each file once; see `read_verified` to also check it).

        Raises:
            UnknownEpisodeError: no bundle with that id.
            BundleError: the bundle is incomplete or does not parse.
        """
        return self._parse(episode_id, self.files(episode_id))

    def read_verified(self, episode_id: str, key: str | None) -> tuple[EpisodeBundle, str]:
        """Read a sealed bundle for grading: each file once, verified and parsed from those
        same bytes (`mcpgym_server._bundle_files`), and refused if it was sealed for
        another episode.

        Args:
            episode_id: the episode asked for (the folder's name).
            key: the bundle key: the signature must verify with it (see
                `verify_signature`); ``None`` checks no signature.

        Returns:
            The bundle and the hex sha256 of the bytes it was read from
            (`BundleFiles.sha256`).

        Raises:
            UnknownEpisodeError, BundleSignatureError, BundleError: as `read` and
                `verify_signature`.
        """
        files = self.files(episode_id)
        meta = self._meta(episode_id, files)
        check_bundle_episode(meta, episode_id, where=str(self.path(episode_id)))
        if key is not None:
            self._verify(episode_id, files, meta, key)
        return self._parse(episode_id, files, meta), files.sha256()

    def verify_signature(self, episode_id: str, key: str) -> None:
        """Check that the bundle in ``episode_id``'s folder was signed with the bundle
        ``key`` for that episode. To grade, use `read_verified`, which grades the very
        bytes it verified.

        Raises:
            UnknownEpisodeError: no bundle with that id. BundleSignatureError: it was sealed
                for another episode (reason ``mismatch``: a bundle folder copied or moved),
                it is unsigned, or its signature does not verify (meta.json, log.jsonl or the
                final database changed since it was sealed, or another key signed it).
            BundleError: it is malformed.
        """
        files = self.files(episode_id)
        meta = self._meta(episode_id, files)
        check_bundle_episode(meta, episode_id, where=str(self.path(episode_id)))
        self._verify(episode_id, files, meta, key)

    def files(self, episode_id: str) -> BundleFiles:
        """The raw bytes of a sealed bundle's files, each read once (nothing is parsed or
        verified; `BundleFiles.sha256` names them).

        Raises:
            UnknownEpisodeError: no bundle with that id. BundleError: a file is unreadable,
                or missing (meta.json included, when the folder holds other files).
        """
        try:
            return read_bundle_files(self.path(episode_id))
        except FileNotFoundError as exc:
            folder = self.path(episode_id)
            if Path(exc.filename or "").name == "meta.json":
                if folder.is_dir() and any(folder.iterdir()):  # sealing renames a whole folder
                    raise BundleError(
                        f"bundle {episode_id} in {self.root} is incomplete: meta.json is missing"
                    ) from None
                raise UnknownEpisodeError(episode_id) from None
            raise BundleError(f"bundle {episode_id} in {self.root} is malformed: {exc}") from exc
        except OSError as exc:
            raise BundleError(f"bundle {episode_id} in {self.root} is malformed: {exc}") from exc

    def _meta(self, episode_id: str, files: BundleFiles) -> EpisodeMeta:
        try:
            return EpisodeMeta.model_validate_json(files.meta.decode("utf-8"))
        except ValueError as exc:  # UnicodeDecodeError and ValidationError included
            raise BundleError(
                f"bundle {episode_id} in {self.root} is malformed: meta.json does not parse "
                f"(cut short or edited): {exc}"
            ) from exc

    def _log(self, episode_id: str, files: BundleFiles) -> tuple[LogEntry, ...]:
        try:
            lines = files.log.decode("utf-8").split("\n")
        except ValueError as exc:
            raise BundleError(
                f"bundle {episode_id} in {self.root} is malformed: log.jsonl is not UTF-8: {exc}"
            ) from exc
        log: list[LogEntry] = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                log.append(LogEntry.model_validate_json(line))
            except ValueError as exc:
                raise BundleError(
                    f"bundle {episode_id} in {self.root} is malformed: log.jsonl line {number} "
                    f"does not parse (cut short or edited): {exc}"
                ) from exc
        return tuple(log)

    def _parse(
        self, episode_id: str, files: BundleFiles, meta: EpisodeMeta | None = None
    ) -> EpisodeBundle:
        meta = meta or self._meta(episode_id, files)
        expected = {BUNDLE_FORMAT: STATE_DELTA, 1: FINAL_DB}.get(meta.bundle_format)
        if expected is None:
            raise BundleError(
                f"bundle {episode_id} in {self.root} has bundle format "
                f"{meta.bundle_format}; this mcpgym reads formats 1 and {BUNDLE_FORMAT} "
                "(upgrade mcpgym to read it)"
            )
        log = self._log(episode_id, files)
        try:
            if files.state_name != expected or files.state is None:
                raise BundleError(
                    f"bundle {episode_id} in {self.root} is malformed: {expected} is missing"
                )
            raw = gzip.decompress(files.state)
        except (OSError, ValueError, EOFError, zlib.error) as exc:  # BadGzipFile: OSError
            raise BundleError(f"bundle {episode_id} in {self.root} is malformed: {exc}") from exc
        if meta.bundle_format == 1:
            if hashlib.sha256(raw).hexdigest() != meta.final_sha256:
                raise BundleError(
                    f"bundle {episode_id}: {FINAL_DB} does not match final_sha256 in meta"
                )
            return EpisodeBundle(meta=meta, log=log, final_db=raw)
        if hashlib.sha256(raw).hexdigest() != meta.delta_sha256:
            raise BundleError(
                f"bundle {episode_id}: {STATE_DELTA} does not match delta_sha256 in meta"
            )
        return EpisodeBundle(meta=meta, log=log, delta_data=raw)

    def _verify(self, episode_id: str, files: BundleFiles, meta: EpisodeMeta, key: str) -> None:
        if files.signature is None:
            raise BundleSignatureError(
                f"bundle {episode_id} is unsigned: the environment server that wrote it had "
                "no bundle key (give both servers the same --bundle-key / MCPGYM_BUNDLE_KEY)",
                "unsigned",
            )
        given = files.signature.decode("utf-8", errors="replace").strip()
        expected = bundle_signature(key, meta, files.log, episode_id=episode_id)
        if meta.bundle_format == 1 and not hmac.compare_digest(given, expected):
            # sealed before signatures named their episode: the v1 payload (meta and log);
            # `check_bundle_episode` already refused a folder holding another episode
            expected = _v1_signature(key, meta, files.log)
        if not hmac.compare_digest(given.encode(), expected.encode()):
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

    def sweep_debris(self, max_age_s: float = DEBRIS_MAX_AGE_S) -> list[str]:
        """Nothing to sweep in memory: returns ``[]``."""
        return []

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

    def take(self, episode_id: str) -> EpisodeBundle:
        """Remove and return the bundle of ``episode_id`` (a trainer that graded it keeps no
        copy). Raises `UnknownEpisodeError` if none is held."""
        try:
            return self._bundles.pop(episode_id)
        except KeyError:
            raise UnknownEpisodeError(episode_id) from None

    def files(self, episode_id: str) -> BundleFiles:
        """Bundles in memory have no files: raises `BundleError`."""
        raise BundleError(f"bundle {episode_id} is held in memory; it has no files")

    def read_verified(self, episode_id: str, key: str | None) -> tuple[EpisodeBundle, str]:
        """The bundle of ``episode_id`` and a digest of its content (meta, log, final
        state); bundles in memory are never signed, so a ``key`` raises
        `BundleSignatureError` (``unsigned``)."""
        bundle = self.read(episode_id)
        check_bundle_episode(bundle.meta, episode_id, where="memory")
        if key is not None:
            raise BundleSignatureError(f"bundle {episode_id} (in memory) is unsigned", "unsigned")
        log = "".join(entry.model_dump_json() + "\n" for entry in bundle.log)
        content = canonical_json({"meta": bundle.meta.model_dump(mode="json"), "log": log})
        return bundle, hashlib.sha256(content.encode()).hexdigest()
