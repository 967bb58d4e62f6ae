"""The dependency direction server <- grading <- clients holds (checked in fresh interpreters)."""

from __future__ import annotations

import subprocess
import sys

import pytest

FORBIDDEN = {
    "mcpgym_server": ["mcpgym_grading", "mcpgym_clients", "mcpgym_helpdesk", "mcpgym_ledger"],
    "mcpgym_grading": ["mcpgym_clients", "mcpgym_helpdesk", "mcpgym_ledger"],
}

SUBMODULES = {
    "mcpgym_server": [
        "mcpgym_server",
        "mcpgym_server.runtime",
        "mcpgym_server._http",
        "mcpgym_server._stdio",
        "mcpgym_server._serving",
        "mcpgym_server.lock",
        "mcpgym_server.bundles",
    ],
    "mcpgym_grading": ["mcpgym_grading", "mcpgym_grading.engine", "mcpgym_grading.service"],
}


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_nothing_downstream(package: str) -> None:
    code = (
        "import importlib, sys\n"
        f"for m in {SUBMODULES[package]!r}: importlib.import_module(m)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN[package]!r}]\n"
        "print(','.join(sorted(bad)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{package} imported {out.stdout.strip()}"
