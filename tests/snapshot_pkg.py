"""Test helper: write a SQLite snapshot into a throw-away importable package.

`Snapshot` reads package data through importlib.resources, as it does for a shipped
environment, so test environments put their snapshot in a real package on ``sys.path``.
"""

from __future__ import annotations

import hashlib
import importlib
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path


def install_snapshot_package(
    tmp: Path, package: str, build: Callable[[sqlite3.Connection], None], resource: str = "kv.db"
) -> str:
    """Create ``tmp/<package>/data/<resource>`` with ``build(db)``; return its sha256.

    The package becomes importable (``tmp`` is put on ``sys.path``; a stale import is dropped).
    """
    pkg = tmp / package
    (pkg / "data").mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    path = pkg / "data" / resource
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    build(db)
    db.commit()
    db.execute("VACUUM")
    db.close()
    if str(tmp) not in sys.path:
        sys.path.insert(0, str(tmp))
    importlib.invalidate_caches()
    sys.modules.pop(package, None)
    return hashlib.sha256(path.read_bytes()).hexdigest()
