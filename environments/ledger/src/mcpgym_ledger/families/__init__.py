"""The ledger task families; importing this package registers them with the environment.

One module per family (generator, rubric, registration); shared pieces live in `_common`.
"""

from mcpgym_ledger.families import (  # noqa: F401  (each module registers its family)
    accrue_expense,
    apply_customer_payment,
    closed_period_posting,
    correct_misposted_entry,
    credit_returned_item,
    enter_vendor_bill,
    reconcile_bank_lines,
    write_off_bad_debt,
)

__all__ = [
    "accrue_expense",
    "apply_customer_payment",
    "closed_period_posting",
    "correct_misposted_entry",
    "credit_returned_item",
    "enter_vendor_bill",
    "reconcile_bank_lines",
    "write_off_bad_debt",
]
