"""The public surface of mcpgym_server is exactly its `__all__` (an addition is a decision)."""

from __future__ import annotations

import inspect

import mcpgym_server


def test_all_lists_every_public_name_and_nothing_else() -> None:
    public = {
        name
        for name, obj in vars(mcpgym_server).items()
        if not name.startswith("_") and not inspect.ismodule(obj)
    }
    assert set(mcpgym_server.__all__) == public
