"""`PageDelta.between` finds the same pages as comparing every page one by one."""

from __future__ import annotations

import random

from mcpgym_server._delta import page_size_of
from mcpgym_server.bundles import PageDelta


def _page_by_page(base: bytes, final: bytes) -> PageDelta:
    """The oracle: every page of ``final`` compared with the base's, one at a time."""
    p = page_size_of(base)
    lb, lf = len(base), len(final)
    pages = []
    for off in range(0, -(-lf // p) * p, p):
        same = min(p, lf - off) == min(p, lb - off) and base[off : off + p] == final[off : off + p]
        if off >= lb or not same:
            pages.append((off // p + 1, final[off : off + p]))
    return PageDelta(page_size=p, size=lf, pages=tuple(pages), base_pages=-(-lb // p))


def _base(rng: random.Random, pages: int, page_size: int) -> bytes:
    header = bytearray(rng.randbytes(100))
    header[16:18] = (1 if page_size == 65536 else page_size).to_bytes(2, "big")
    return bytes(header) + rng.randbytes(pages * page_size - 100 + rng.choice((0, 0, 17)))


def test_between_finds_every_changed_page_as_the_page_by_page_comparison() -> None:
    rng = random.Random(12)
    for trial in range(300):
        page_size = rng.choice((512, 1024, 4096))
        base = _base(rng, rng.randint(1, 300), page_size)
        final = bytearray(base)
        n_pages = -(-len(base) // page_size)
        for _ in range(rng.choice((0, 1, 2, 5, 20, 80))):  # pages changed, by a byte or more
            at = rng.randrange(n_pages) * page_size + rng.randrange(page_size)
            if at < len(final):
                final[at] ^= rng.randint(1, 255)
        shape = rng.choice(("same", "grown", "cut", "cut-mid-page", "grown-mid-page"))
        if shape == "grown":
            final += rng.randbytes(page_size * rng.randint(1, 40))
        elif shape == "cut":
            final = final[: page_size * rng.randint(0, n_pages)]
        elif shape == "cut-mid-page":
            final = final[: rng.randrange(len(final) + 1)]
        elif shape == "grown-mid-page":
            final += rng.randbytes(rng.randint(1, 3 * page_size))
        got = PageDelta.between(base, bytes(final))
        assert got == _page_by_page(base, bytes(final)), (trial, shape)
        assert got.apply(base) == bytes(final)


def test_between_of_equal_files_is_empty_and_of_unrelated_files_is_every_page() -> None:
    rng = random.Random(3)
    base = _base(rng, 100, 4096)
    assert PageDelta.between(base, base).pages == ()
    other = bytearray(rng.randbytes(len(base)))
    other[16:18] = base[16:18]
    got = PageDelta.between(base, bytes(other))
    assert [n for n, _ in got.pages] == list(range(1, -(-len(base) // 4096) + 1))
    assert got == _page_by_page(base, bytes(other))
