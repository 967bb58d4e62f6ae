"""Page deltas: a database file described by the pages that differ from a base snapshot.

The snapshot is immutable and named by its sha256 in the lock, so an episode's final
database is fully described by the pages that differ from it. A `PageDelta` holds those
pages (1-based page numbers and their bytes) and the final file's size; `PageDelta.apply`
rebuilds the final file byte for byte from the base.

Pages are fixed-size chunks of the *base's* page size (header bytes 16-17), whatever the
final file's own page size: the delta is exact for any pair of files. A final file that
grows carries its new pages; one that shrinks records its smaller size (the pages past it
count as changed, see `PageDelta.changed_pages`).

Encoding (`PageDelta.encode_against`, stored gzipped in bundles as ``state.delta.gz``)::

    b"MCPGYMPD"           8 bytes, magic and format version 1
    page_size             u32 big-endian (the base's page size)
    size                  u64 big-endian (the final file's size in bytes)
    base_pages            u32 big-endian (the base's number of pages)
    n                     u32 big-endian (number of pages stored)
    page numbers          n x u32 big-endian, ascending, 1-based
    page bytes            concatenated; each page_size bytes except the file's last page,
                          which is cut at ``size``. A page the base also has (same length)
                          is stored XOR the base's page: mostly zero bytes, so the gzipped
                          delta of a helpdesk episode is ~6 KB instead of ~20 KB
"""

from __future__ import annotations

import hashlib
import mmap
import struct
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from mcpgym_server._errors import BundleError

MAGIC = b"MCPGYMPD"
"""First bytes of an encoded page delta (format version 1)."""

_HEADER = struct.Struct(">IQII")

_FIRST_BLOCK = 16
"""Pages compared at once first by `PageDelta.between`."""

_FANOUT = 4
"""Parts a block that differs is compared in next (`PageDelta.between`)."""


def page_size_of(data: bytes | bytearray | memoryview | mmap.mmap) -> int:
    """The page size of a SQLite database file (header bytes 16-17; 1 means 65536).

    Files shorter than a header (an empty database) count as 4096-byte pages.
    """
    if len(data) < 100:
        return 4096
    raw = int.from_bytes(data[16:18], "big")
    return 65536 if raw == 1 else raw


@dataclass(frozen=True)
class PageDelta:
    """The pages of a file that differ from a base file.

    Attributes:
        page_size: chunk size in bytes (the base's page size).
        size: size of the final file in bytes.
        pages: ``((page number, bytes), ...)``, ascending 1-based page numbers.
        base_pages: number of pages of the base (to tell new pages from truncated ones).
    """

    page_size: int
    size: int
    pages: tuple[tuple[int, bytes], ...]
    base_pages: int

    @classmethod
    def between(cls, base: bytes, final: bytes) -> PageDelta:
        """The delta that turns ``base`` into ``final``.

        The pages both files hold whole are compared in blocks of `_FIRST_BLOCK` pages, and a
        block that differs in `_FANOUT` parts, down to the page (`bytes.startswith` with a
        memoryview compares in place, where slicing both sides would copy them): an
        episode's few changed pages cost a few dozen comparisons instead of one per page of
        every block holding one. The pages past that (a cut last page, pages one file lacks)
        are compared one by one. ~0.1-0.2 ms for a helpdesk episode (1 MB, ~20 pages).
        """
        p = page_size_of(base)
        lb, lf = len(base), len(final)
        n_final = -(-lf // p)
        n_base = -(-lb // p)
        whole = min(lb, lf) // p  # pages 0..whole-1 (0-based) are whole on both sides
        mf = memoryview(final)
        same = base.startswith
        changed: list[int] = []
        todo = [(a, min(a + _FIRST_BLOCK, whole)) for a in range(0, whole, _FIRST_BLOCK)]
        todo.reverse()
        while todo:  # depth first, left part first: ``changed`` comes out ascending
            a, b = todo.pop()
            if same(mf[a * p : b * p], a * p):
                continue
            if b - a == 1:
                changed.append(a)
                continue
            step = -(-(b - a) // _FANOUT)
            todo.extend((x, min(x + step, b)) for x in reversed(range(a, b, step)))
        pages = [(i + 1, final[i * p : (i + 1) * p]) for i in changed]
        for off in range(whole * p, n_final * p, p):
            # the same page: as long on both sides (a cut last page differs) and equal
            alike = min(p, lf - off) == min(p, lb - off) and same(mf[off : off + p], off)
            if off >= lb or not alike:
                pages.append((off // p + 1, final[off : off + p]))
        return cls(page_size=p, size=lf, pages=tuple(pages), base_pages=n_base)

    @cached_property
    def changed_pages(self) -> frozenset[int]:
        """1-based numbers of the base's pages that differ in the final file: the pages
        stored plus those cut off when the file shrank (new pages past the base included)."""
        n_final = -(-self.size // self.page_size)
        cut = range(n_final + 1, self.base_pages + 1)
        return frozenset(n for n, _ in self.pages) | frozenset(cut)

    @property
    def nbytes(self) -> int:
        """Bytes of page data held."""
        return sum(len(b) for _, b in self.pages)

    def apply(self, base: bytes) -> bytes:
        """The final file: ``base`` with the stored pages written over it, cut or grown to
        `size`.

        Raises:
            BundleError: ``base`` does not have the page size the delta was made against.
        """
        if page_size_of(base) != self.page_size:
            raise BundleError(
                f"page delta made against {self.page_size}-byte pages cannot apply to a "
                f"base with {page_size_of(base)}-byte pages (another snapshot?)"
            )
        p = self.page_size
        mb = memoryview(base)
        parts: list[bytes | memoryview] = []
        pos = 0  # bytes of the final file laid out so far
        for n, chunk in self.pages:
            off = (n - 1) * p
            if off > pos:
                parts.append(mb[pos : min(off, len(base))])
                if off > len(base):
                    parts.append(bytes(off - max(pos, len(base))))
            parts.append(chunk)
            pos = off + len(chunk)
        if pos < self.size:
            parts.append(mb[pos : min(self.size, len(base))])
            if self.size > len(base):
                parts.append(bytes(self.size - max(pos, len(base))))
        return b"".join(parts)  # one copy of the file

    @property
    def encoded(self) -> bytes | None:
        """The `encode_against` output, once computed (or decoded from)."""
        return self.__dict__.get("_encoded")

    def encode_against(self, base: bytes) -> bytes:
        """The binary form (see the module docstring), pages XOR ``base``; cached per delta."""
        cached = self.__dict__.get("_encoded")
        if cached is not None:
            return cached
        numbers = struct.pack(f">{len(self.pages)}I", *(n for n, _ in self.pages))
        header = MAGIC + _HEADER.pack(self.page_size, self.size, self.base_pages, len(self.pages))
        p = self.page_size
        out = [header, numbers]
        for n, chunk in self.pages:
            off = (n - 1) * p
            old = base[off : off + len(chunk)]
            out.append(_xor(chunk, old) if len(old) == len(chunk) else chunk)
        data = b"".join(out)
        self.__dict__["_encoded"] = data
        return data

    @classmethod
    def decode(cls, data: bytes, base: bytes) -> PageDelta:
        """Parse `encode_against` output made against ``base``.

        Raises:
            BundleError: not a page delta, or truncated or inconsistent.
        """
        head = len(MAGIC) + _HEADER.size
        if data[: len(MAGIC)] != MAGIC or len(data) < head:
            raise BundleError("not an mcpgym page delta (bad magic or too short)")
        page_size, size, base_pages, n = _HEADER.unpack_from(data, len(MAGIC))
        if page_size < 512 or page_size & (page_size - 1) or len(data) < head + 4 * n:
            raise BundleError(f"page delta header is inconsistent (page size {page_size})")
        numbers = struct.unpack_from(f">{n}I", data, head)
        n_final = -(-size // page_size)
        pages: list[tuple[int, bytes]] = []
        off = head + 4 * n
        last = 0
        for number in numbers:
            if not last < number <= n_final:
                raise BundleError(f"page delta lists page {number} out of order or past the end")
            start = (number - 1) * page_size
            length = min(page_size, size - start)
            chunk = data[off : off + length]
            old = base[start : start + length]
            pages.append((number, _xor(chunk, old) if len(old) == len(chunk) else chunk))
            off += length
            last = number
        if off != len(data):
            raise BundleError(f"page delta has {len(data) - off} bytes left over or missing")
        delta = cls(page_size=page_size, size=size, pages=tuple(pages), base_pages=base_pages)
        delta.__dict__["_encoded"] = data
        return delta


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


PAGES_PER_GROUP = 64
"""Pages per group of the page-wise digest (`PageDigests`)."""

_PAGES_MAGIC = b"MCPGYMPG"


class PageDigests:
    """The page-wise digest of a database file: a two-level sha256 hash tree over its pages.

    ``pages_sha256`` of a file (``meta.final_pages_sha256`` in bundles) is::

        d_i = sha256(page i)             pages of the base's page size, 1-based; the last
                                         page cut at the file's size
        g_j = sha256(d_(64j+1) || ... || d_(64j+64))      (the last group may be shorter)
        pages_sha256 = hex sha256(b"MCPGYMPG" || u32 page_size || u64 size || g_0 || g_1 ...)

    Like the file's sha256 it names the bytes of the whole file (a different hash of them),
    but it can be recomputed from a snapshot's digests and the pages a delta changes
    (`with_delta`: the changed pages and their groups are hashed, ~1 us per KB, the rest
    reused), so checking a rebuilt final database costs what the episode changed, not what
    the file weighs.

    Args:
        page_size: chunk size in bytes. size: the file's size.
        pages: ``d_1 || d_2 || ...`` (32 bytes each). groups: ``g_0 || g_1 || ...``.
    """

    __slots__ = ("groups", "page_size", "pages", "size")

    def __init__(self, page_size: int, size: int, pages: bytes, groups: bytes) -> None:
        self.page_size = page_size
        self.size = size
        self.pages = pages
        self.groups = groups

    @classmethod
    def of(cls, data: bytes, page_size: int | None = None) -> PageDigests:
        """The digests of the file ``data`` (``page_size``: default its own)."""
        p = page_size or page_size_of(data)
        mv = memoryview(data)
        pages = b"".join(hashlib.sha256(mv[o : o + p]).digest() for o in range(0, len(data), p))
        step = 32 * PAGES_PER_GROUP
        groups = b"".join(
            hashlib.sha256(pages[o : o + step]).digest() for o in range(0, len(pages), step)
        )
        return cls(p, len(data), pages, groups)

    def hexdigest(self) -> str:
        """``pages_sha256`` of the file these digests are of."""
        return _top(self.page_size, self.size, self.groups)

    def with_delta(self, delta: PageDelta, page: Callable[[int], bytes | memoryview]) -> str:
        """``pages_sha256`` of this file (the base) with ``delta`` applied.

        Args:
            delta: a page delta against the file these digests are of.
            page: returns the bytes of page ``n`` of the *final* file (cut at its size), for
                the pages whose digest is not the base's: those the delta stores, and a last
                page cut short.

        Raises:
            BundleError: ``delta`` was made with another page size.
        """
        p = self.page_size
        if delta.page_size != p:
            raise BundleError(
                f"a page delta of {delta.page_size}-byte pages cannot use the digests of "
                f"{p}-byte pages (another snapshot?)"
            )
        n_final = -(-delta.size // p)
        n_base = len(self.pages) // 32
        own = {n for n, _ in delta.pages}
        if delta.size % p and n_final not in own:
            own.add(n_final)  # a last page cut short of the base's page
        per = PAGES_PER_GROUP
        n_groups = -(-n_final // per)
        touched = {(n - 1) // per for n in own} | {n_groups - 1}
        groups = bytearray(self.groups[: 32 * n_groups])
        groups.extend(bytes(32 * n_groups - len(groups)))
        for j in range(n_groups):
            if j not in touched and (j + 1) * per <= n_base:
                continue
            parts = []
            for n in range(j * per + 1, min((j + 1) * per, n_final) + 1):
                if n in own or n > n_base:
                    parts.append(hashlib.sha256(page(n)).digest())
                else:
                    parts.append(self.pages[32 * (n - 1) : 32 * n])
            groups[32 * j : 32 * (j + 1)] = hashlib.sha256(b"".join(parts)).digest()
        return _top(p, delta.size, bytes(groups))


def _top(page_size: int, size: int, groups: bytes) -> str:
    head = _PAGES_MAGIC + struct.pack(">IQ", page_size, size)
    return hashlib.sha256(head + groups).hexdigest()
