"""Fixtures for the instrument's tests: toy environments in private packages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcpgym_server import Environment

from .toyenv import build_snapshot, make_env, new_package

ToyFactory = Callable[..., Environment]


@pytest.fixture
def toy(tmp_path: Path) -> ToyFactory:
    """``toy(**options)``: the toy environment; every call in a test shares one package
    (so a changed environment meets the lock file the first one wrote)."""
    package = new_package()
    sha = build_snapshot(tmp_path, package)

    def factory(**options: Any) -> Environment:
        return make_env(tmp_path, package, sha, **options)

    return factory
