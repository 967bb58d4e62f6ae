"""The helpdesk tools, one module per area; importing this package registers them all."""

from mcpgym_helpdesk.tools import (  # noqa: F401
    catalog,
    customers,
    fulfilment,
    orders,
    policy,
    refunds,
    tickets,
)
