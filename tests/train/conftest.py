"""Fixtures for the training integration: the clients' toy environment and its rows."""

from __future__ import annotations

import pytest

from mcpgym_clients.train import TrainingRow, training_rows
from mcpgym_server import Environment
from tests.toyenv import make_toy_env


@pytest.fixture(scope="session")
def toy_env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_toy_env(tmp_path_factory.mktemp("train-toy"), lock=True)


@pytest.fixture(scope="session")
def toy_row(toy_env: Environment) -> TrainingRow:
    return training_rows(toy_env, bands=["easy"], seeds=range(8))[0]
