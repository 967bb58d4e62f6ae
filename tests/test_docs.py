"""The front page and the docs link only to files that exist, and README stays a front page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:|#", t)]


@pytest.mark.parametrize(
    "page", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name
)
def test_every_relative_link_points_at_an_existing_file(page: Path) -> None:
    missing = [
        target
        for target in _relative_links(page)
        if not (page.parent / target.split("#", 1)[0]).exists()
    ]
    assert missing == [], f"{page.name} links to missing files: {missing}"


def test_readme_is_a_front_page_of_at_most_200_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move reference material to docs/"


def test_every_docs_page_is_in_the_site_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert {p for p in pages if p not in nav} == set()
