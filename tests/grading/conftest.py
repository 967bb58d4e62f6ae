"""Fixtures for grading tests: the toy snapshot package on ``sys.path``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .toyenv import build_snapshot_package


@pytest.fixture(scope="session", autouse=True)
def toy_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Build the toy snapshot package once and make it importable for the session."""
    root = tmp_path_factory.mktemp("toy-snapshot")
    build_snapshot_package(root)
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))  # pyright: ignore[reportUnknownMemberType]
        yield
