"""The ledger tools, one module per area; importing this package registers them all."""

from mcpgym_ledger.tools import books, documents, journal, money  # noqa: F401
