"""The ``wheel`` marker: tests that build and install a wheel into a fresh virtual environment."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "wheel: builds and installs a wheel in a fresh venv (deselect: -m 'not wheel')"
    )
