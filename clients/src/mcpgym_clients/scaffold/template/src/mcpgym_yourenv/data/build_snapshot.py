"""Build the snapshot (data/snapshot.db) from schema.sql and seed_rows.json, deterministically.

Usage::

    python src/mcpgym_yourenv/data/build_snapshot.py
    python src/mcpgym_yourenv/data/build_snapshot.py --out PATH

The database is built in memory and serialised, so the same schema, rows and SQLite
library always give the same bytes. The script writes the file, sets ``SNAPSHOT_SHA256``
in ``env.py`` to its sha256 (not with ``--out`` or ``--no-update``) and prints the
sha256. Afterwards run ``mcpgym lock`` with the environment's name: the snapshot
is part of the lock.

Only the standard library is used, so the script runs with any Python 3.11+.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sqlite3
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV_PY = HERE.parent / "env.py"
DIGEST_LINE = re.compile(r'^SNAPSHOT_SHA256 = "[0-9a-f]*"$', re.MULTILINE)


def build(schema_sql: str, seed_rows: dict[str, list[dict[str, object]]]) -> bytes:
    """The snapshot bytes: ``schema_sql`` executed, then every seed row inserted in order.

    Args:
        schema_sql: CREATE statements.
        seed_rows: ``{table: [row, ...]}``, each row a ``{column: value}`` dict.

    Returns:
        The serialised SQLite database (bytes).

    Raises:
        sqlite3.Error: a statement or row does not fit the schema.
    """
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(schema_sql)
        for table, rows in seed_rows.items():
            for row in rows:
                cols = ", ".join(row)
                marks = ", ".join("?" for _ in row)
                db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(row.values()))
        db.commit()
        db.execute("VACUUM")
        return db.serialize()
    finally:
        db.close()


def main(argv: list[str] | None = None) -> str:
    """Build, write and report the snapshot; return its sha256 (hex)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="where to write (default: here)")
    parser.add_argument("--no-update", action="store_true", help="leave env.py as it is")
    args = parser.parse_args(argv)
    data = build(
        (HERE / "schema.sql").read_text(encoding="utf-8"),
        json.loads((HERE / "seed_rows.json").read_text(encoding="utf-8")),
    )
    out: Path = args.out or HERE / "snapshot.db"
    out.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    if args.out is None and not args.no_update:
        source = ENV_PY.read_text(encoding="utf-8")
        updated, found = DIGEST_LINE.subn(f'SNAPSHOT_SHA256 = "{digest}"', source)
        if found != 1:
            raise SystemExit(f'{ENV_PY}: no line `SNAPSHOT_SHA256 = "..."` to update')
        ENV_PY.write_text(updated, encoding="utf-8")
    print(f"{out}: {len(data)} bytes, sha256 {digest}")
    return digest


if __name__ == "__main__":
    main()
