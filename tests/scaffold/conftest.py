"""The ``wheel`` marker: tests that build and install a wheel into a fresh virtual environment."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "wheel: builds and installs a wheel in a fresh venv (deselect: -m 'not wheel')"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here starts real tools (node and npm, `mcpgym new`, wheel builds): `slow`,
    deselected by the default `uv run pytest`; `.ci/run` runs them with `-m slow`."""
    here = __file__.rsplit("/", 1)[0]
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.slow)
