"""Fixtures for grading tests: the toy snapshot package on ``sys.path``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.toyenv import install

from .episodes import PACKAGE


@pytest.fixture(scope="session", autouse=True)
def toy_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Install the toy snapshot package once and make it importable for the session."""
    root = tmp_path_factory.mktemp("toy-snapshot")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))  # pyright: ignore[reportUnknownMemberType]
        install(root, PACKAGE)
        yield
