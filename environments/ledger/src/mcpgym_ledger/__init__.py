"""mcpgym ledger environment: the double-entry books of Harbor & Pine Wholesale.

The entry point ``mcpgym_ledger:environment`` is the `Environment`; importing this package
registers its tools, the accounting policy resource and the task families.
"""

from mcpgym_ledger import families as _families  # noqa: F401  (registers the families)
from mcpgym_ledger import tools as _tools  # noqa: F401  (registers the tools)
from mcpgym_ledger.env import environment

__all__ = ["environment"]
