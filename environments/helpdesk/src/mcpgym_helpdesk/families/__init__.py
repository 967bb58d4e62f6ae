"""The helpdesk task families; importing this package registers them with the environment.

One module per family (generator, rubric, registration); shared helpers live in `_common`.
"""

from mcpgym_helpdesk.families import (  # noqa: F401  (each module registers its family)
    cancel_order,
    change_shipping_address,
    duplicate_charge,
    exchange_size,
    order_status,
    refund_above_limit,
    refund_damaged_item,
)

__all__ = [
    "cancel_order",
    "change_shipping_address",
    "duplicate_charge",
    "exchange_size",
    "order_status",
    "refund_above_limit",
    "refund_damaged_item",
]
