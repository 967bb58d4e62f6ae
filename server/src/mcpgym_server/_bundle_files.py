"""A bundle's files read once into memory: what is verified is what is graded.

Reading ``meta.json`` to verify the signature and again to grade lets a writer who can
swap files between the two reads have unverified bytes graded under a ``verified``
signature. So a reader takes every file of a bundle exactly once (`read_bundle_files`),
verifies and parses those bytes, and never goes back to the disk
(`mcpgym_server._bundle.EpisodeStore.read_verified`). Files swapped while they are being
read give an inconsistent set, which the digests refuse (the signature pins meta.json and
log.jsonl, meta.json pins the final state's digest): refused, never graded.

`BundleFiles.sha256` names those exact bytes; the grading service binds cached grades to
it (`mcpgym_grading.service`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

META = "meta.json"
LOG = "log.jsonl"
SIGNATURE = "signature"
STATE_DELTA = "state.delta.gz"
FINAL_DB = "final.db.gz"


@dataclass(frozen=True)
class BundleFiles:
    """The bytes of one bundle's files, each read once.

    Attributes:
        meta: meta.json. log: log.jsonl. signature: the signature file (``None``: unsigned).
        state_name: `STATE_DELTA` or `FINAL_DB` (``None``: neither file is there).
        state: that file's (gzipped) bytes.
    """

    meta: bytes
    log: bytes
    signature: bytes | None
    state_name: str | None
    state: bytes | None

    def sha256(self) -> str:
        """Hex sha256 over every file, each named and length-prefixed (order fixed)."""
        h = hashlib.sha256(b"mcpgym-bundle-files/1\n")
        for name, data in (
            (META, self.meta),
            (LOG, self.log),
            (self.state_name or "-", self.state),
            (SIGNATURE, self.signature),
        ):
            h.update(f"{name}\n{-1 if data is None else len(data)}\n".encode())
            h.update(data or b"")
        return h.hexdigest()


def _maybe(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def read_bundle_files(folder: Path) -> BundleFiles:
    """Read a bundle folder's files once each: meta.json, log.jsonl, the state, signature.

    Raises:
        FileNotFoundError: no meta.json (no sealed bundle there).
        OSError: a file cannot be read (a missing log.jsonl included).
    """
    meta = (folder / META).read_bytes()
    log = (folder / LOG).read_bytes()
    state_name: str | None = STATE_DELTA
    state = _maybe(folder / STATE_DELTA)
    if state is None:
        state_name, state = FINAL_DB, _maybe(folder / FINAL_DB)
        if state is None:
            state_name = None
    return BundleFiles(meta, log, _maybe(folder / SIGNATURE), state_name, state)
