"""The helpdesk task families; importing this package registers them with the environment.

One module per family (generator, rubric, registration). The shared pieces, one module per
concern: `_store` (clock, policy figures, volatile columns), `_queries` (snapshot queries and
the SQL conditions of an unambiguous scenario), `_wording` (how customers write), `_scenario`
(the ticket builder, reference calls), `_checks` (end-state checks: resolution, collateral,
money) and `_replies` (checks on the agent's replies).
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
