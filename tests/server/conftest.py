from __future__ import annotations

from pathlib import Path

import pytest

from mcpgym_server import Environment
from tests.toyenv import make_toy_env


@pytest.fixture(scope="session")
def toy_env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_toy_env(tmp_path_factory.mktemp("toy"))


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    return tmp_path / "episodes"
