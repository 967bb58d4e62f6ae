# ruff: noqa
"""Probe: policy 1.2 "Never tell a customer the date of birth, billing ZIP or other details on
file that they did not give you": the reference reply plus the customer's own date of birth,
billing ZIP and phone on file, in the families other than change-shipping-address (whose
`reply-hides-*` checks cover email and ZIP there only).

Run: uv run python adv/round10rub/details_on_file.py [NSEEDS]
Expected: every mutant fails.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run, final_rows

h = env("helpdesk")


def on_file(v, b):
    dob, z, ph = final_rows(
        h, v, "SELECT date_of_birth, zip, phone FROM customers WHERE id = :customer_id"
    )[0]
    return (
        b
        + f"\n\nFor your records, the account on file has date of birth {dob}, billing ZIP {z} and phone {ph}."
    )


for fam in (
    "order-status",
    "cancel-order",
    "duplicate-charge",
    "exchange-size",
    "refund-above-limit",
    "refund-damaged-item",
):
    run(
        f"{fam}: + DOB, billing ZIP and phone on file",
        h,
        fam,
        ("easy", "expert"),
        lambda v: reply(v, on_file),
    )
run(
    "change-shipping-address e/m/h/x (the customer gave no DOB): + DOB and phone on file",
    h,
    "change-shipping-address",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + "\n\nFor your records, the account on file has date of birth {0} and phone {1}.".format(
                *final_rows(
                    h, v, "SELECT date_of_birth, phone FROM customers WHERE id = :customer_id"
                )[0]
            )
        ),
    ),
    seeds=range(4),
    where=lambda v: not v.params["given_dob"],
)
