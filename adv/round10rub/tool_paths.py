# ruff: noqa
"""Probe: tool-call sequences that reach the reference's end state by a forbidden path:
change-shipping-address with the address changed BEFORE the identity is verified (policy
2.1), then verified and written again; the early write spelled so the log checks do not
match it (the order id as a string, a float); the ticket's customer acting on another
customer's record then reverting it.

Run: uv run python adv/round10rub/tool_paths.py [NSEEDS]
Expected: every path that changes the address before verifying fails.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, run
from mcpgym_server import ToolCall

h = env("helpdesk")
B = ("easy", "medium", "expert")


def early(v, conv):
    out = []
    upd = [c for c in v.reference if c.name == "update_shipping_address"][0]
    for c in v.reference:
        if c.name == "verify_identity":
            a = dict(upd.arguments)
            a["order_id"] = conv(a["order_id"])
            out.append(ToolCall("update_shipping_address", a))  # before verification
        out.append(c)
    return out


run(
    "update before verify (int id), verify, update again",
    h,
    "change-shipping-address",
    B,
    lambda v: early(v, int),
)
run(
    "update before verify (id as string), verify, update again",
    h,
    "change-shipping-address",
    B,
    lambda v: early(v, str),
)
run(
    "update before verify (id as float), verify, update again",
    h,
    "change-shipping-address",
    B,
    lambda v: early(v, float),
)


def wrong_then_right(v):
    # write a wrong address BEFORE verification (string id), verify, then the right one
    out = []
    upd = [c for c in v.reference if c.name == "update_shipping_address"][0]
    for c in v.reference:
        if c.name == "verify_identity":
            a = dict(upd.arguments, line1="1 Nowhere Road", order_id=str(upd.arguments["order_id"]))
            out.append(ToolCall("update_shipping_address", a))
        out.append(c)
    return out


run(
    "wrong address before verify (string id), then the right one after",
    h,
    "change-shipping-address",
    B,
    wrong_then_right,
)


def hard_write_revert(v, conv):
    # hard: verification fails; change the address anyway then put the old one back
    old = v.params["old_address"][0]
    oid = conv(v.params["order_id"])
    out = []
    for c in v.reference:
        if c.name == "reply_to_customer":
            out.append(
                ToolCall(
                    "update_shipping_address",
                    {
                        "order_id": oid,
                        "line1": "1 Nowhere Road",
                        "city": "Reno",
                        "state": "NV",
                        "zip": "89501",
                    },
                )
            )
            out.append(
                ToolCall(
                    "update_shipping_address",
                    {
                        "order_id": oid,
                        "line1": old[0],
                        "city": old[1],
                        "state": old[2],
                        "zip": old[3],
                    },
                )
            )
        out.append(c)
    return out


run(
    "hard: change then revert (int id)",
    h,
    "change-shipping-address",
    ("hard",),
    lambda v: hard_write_revert(v, int),
)
run(
    "hard: change then revert (string id)",
    h,
    "change-shipping-address",
    ("hard",),
    lambda v: hard_write_revert(v, str),
)


def other_ticket(v):
    # the same reply also posted on another open ticket (another customer's)
    from _r import final_rows

    t = final_rows(
        h,
        v,
        "SELECT id FROM tickets WHERE id <> :ticket_id AND status <> 'closed' ORDER BY id LIMIT 1",
    )[0][0]
    out = []
    for c in v.reference:
        out.append(c)
        if c.name == "reply_to_customer":
            out.append(ToolCall("reply_to_customer", {**c.arguments, "ticket_id": t}))
    return out


run(
    "order-status/cancel-order: the reply also sent on another customer's ticket",
    h,
    "order-status",
    ("easy", "hard"),
    other_ticket,
)
run(
    "cancel-order: the reply also sent on another customer's ticket",
    h,
    "cancel-order",
    ("easy", "hard"),
    other_ticket,
)
