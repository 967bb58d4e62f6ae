"""Fixtures for the instrument's tests: toy environments in private packages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcpgym_server import Environment
from tests.toyenv import install, toyvault

ToyFactory = Callable[..., Environment]


@pytest.fixture
def toy(tmp_path: Path) -> ToyFactory:
    """``toy(**options)``: the toy environment; every call in a test shares one package
    (so a changed environment meets the lock file the first one wrote)."""
    package, sha = install(tmp_path)

    def factory(**options: Any) -> Environment:
        return toyvault(package, sha, **options)

    return factory
