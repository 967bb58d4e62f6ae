"""mcpgym environment `yourenv`.

The `Environment` is the entry point of this package in the group
``mcpgym.environments`` (see pyproject.toml); importing the package registers
its tools and task families.
"""

# Importing these modules registers the family and the tools with the environment.
from mcpgym_yourenv import families as _families  # noqa: F401
from mcpgym_yourenv import tools as _tools  # noqa: F401
from mcpgym_yourenv.env import environment

__all__ = ["environment"]
