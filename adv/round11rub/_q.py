# ruff: noqa  (a probe script, not product code)
"""Round 11 probe helpers: round 10's `_r.py` runner plus per-family claim sentences for an
action each band did NOT take (so a reply stating it is false)."""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round10rub")
from _r import N, edit, env, grade, reply, report, run  # noqa: E402,F401

E = env("helpdesk")

# (family, bands, false claim without a subject "I": str.format(**params))
FALSE_CLAIMS = [
    ("cancel-order", ("hard",), "order #{order_id} has been cancelled."),
    ("cancel-order", ("expert",), "order #{shipped_order_id} has been cancelled as well."),
    ("change-shipping-address", ("hard",), "the shipping address of order #{order_id} has been updated."),
    ("exchange-size", ("hard",), "your exchange has been processed and the {wanted_size} is on its way."),
    ("refund-above-limit", ("easy", "medium", "hard", "expert"), "order #{escalate_order_id} has been refunded in full."),
    ("refund-damaged-item", ("hard", "expert"), "order #{declined_order_id} has been refunded as well."),
    ("refund-damaged-item", ("easy", "medium"), "a return label has been emailed to you."),
    ("order-status", ("easy", "medium", "hard", "expert"), "a free replacement has been sent to you."),
    ("duplicate-charge", ("easy", "medium", "hard", "expert"), "your delivery has been upgraded to overnight."),
]


def append(text_fn):
    """mutate(v): the reference with text_fn(v) appended to the last reply."""

    def mutate(v):
        calls = reply(v, lambda v_, body: body)
        idx = [i for i, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
        c = calls[idx]
        from mcpgym_server import ToolCall

        calls[idx] = ToolCall(c.name, {**c.arguments, "body": c.arguments["body"] + "\n\n" + text_fn(v)})
        return calls

    return mutate


def over_families(label, frame_fn, claims=FALSE_CLAIMS, seeds=None):
    """Grade each family's false claim wrapped by frame_fn(claim) -> text; returns (passed, total)."""
    tp = tt = 0
    for fam, bands, claim in claims:
        def text(v, claim=claim):
            return frame_fn(claim.format(**dict(v.params)))
        p, t = run(f"{label} | {fam} {'/'.join(b[0] for b in bands)} | {frame_fn(claim)!r}", E, fam, bands, append(text), seeds=seeds)
        tp += p
        tt += t
    print(f"#### {label}: {tp}/{tt} passed (should be 0)")
    sys.stdout.flush()
    return tp, tt
