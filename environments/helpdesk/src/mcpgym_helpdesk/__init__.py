"""mcpgym helpdesk environment: the customer-support back office of Ridgeline Outfitters.

The entry point ``mcpgym_helpdesk:environment`` is the `Environment`; importing this package
registers its tools and the policy resource.
"""

from mcpgym_helpdesk import families as _families  # noqa: F401
from mcpgym_helpdesk import tools as _tools  # noqa: F401  (registers the tools)
from mcpgym_helpdesk.env import environment

__all__ = ["environment"]
