"""Shared test configuration: anyio on asyncio, no network beyond loopback."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
