"""mcpgym environment `yourenv`.

The entry point ``mcpgym_yourenv:environment`` (group ``mcpgym.environments``) is the
`Environment`; importing this package registers its tools and task families.
"""

from mcpgym_yourenv import families as _families  # noqa: F401  (registers the family)
from mcpgym_yourenv import tools as _tools  # noqa: F401  (registers the tools)
from mcpgym_yourenv.env import environment

__all__ = ["environment"]
