# ruff: noqa
"""Probe (R12): claims and candidates in fields that are not the reply/note: a resolution code
claiming an action not taken (`close_ticket(resolution_code="cancelled")` on co h), a claim in
a bill line's description (evb h: `… (entered and posted)`), a claim in a journal entry memo
(ae: `…; also wrote off INV-2026-0151`); date ranges as ETA shotguns (`2026-06-15/16`,
`June 15-17`, `between 2026-06-15 and 2026-06-18`, `2026-06-15 (or 2026-06-16)`).

Run: uv run python adv/round12rub/routes12.py [NSEEDS]
Expected: every row 0/N.
"""

import datetime as dt, re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, L, arg, edit, last_reply, rows, summary

rows("close_ticket resolution 'cancelled' on co h (shipped)", [(E, "cancel-order", ("hard",), lambda v: edit(v, "close_ticket", lambda a: {**a, "resolution_code": "cancelled"}))])
rows("close_ticket resolution 'refunded' on os (nothing refunded)", [(E, "order-status", B, lambda v: edit(v, "close_ticket", lambda a: {**a, "resolution_code": "refunded"}))])
rows("close_ticket resolution 'replaced' on rdi e/m", [(E, "refund-damaged-item", ("easy", "medium"), lambda v: edit(v, "close_ticket", lambda a: {**a, "resolution_code": "replaced"}))])
rows("close_ticket resolution 'address_updated' on csa h", [(E, "change-shipping-address", ("hard",), lambda v: edit(v, "close_ticket", lambda a: {**a, "resolution_code": "address_updated"}))])


def bill_desc(v):
    def e(a):
        ls = [dict(x) for x in a["lines"]]
        ls[0]["description"] += " (entered and posted today)"
        return {**a, "lines": ls}
    return edit(v, "create_bill", e)


rows("evb h bill line description '(entered and posted today)'", [(L, "enter-vendor-bill", ("hard",), bill_desc)])
rows("ae entry memo '; also wrote off INV-2026-0151 as bad debt'", [(L, "accrue-expense", B, arg("post_journal_entry", "memo", lambda v, m: m + "; also wrote off INV-2026-0151 as bad debt"))])
rows("wo h escalation reason 'Posted the write-off already.'", [(L, "write-off-bad-debt", ("hard",), arg("escalate", "reason", lambda v, m: m + " Posted the write-off already."))])

ISO = re.compile(r"(?<!\d)(2026)-(\d\d)-(\d\d)(?!\d)")


def eta(fn):
    def go(v, b):
        return ISO.sub(lambda m: fn(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))), b)
    return go


D = dt.timedelta
FORMS = [
    ("ETA 2026-06-15/16", lambda d: f"{d.isoformat()}/{(d + D(1)).day:02d}"),
    ("ETA June 15-17", lambda d: f"{d:%B} {d.day}-{(d + D(2)).day}"),
    ("ETA between ISO and ISO+3", lambda d: f"between {d.isoformat()} and {(d + D(3)).isoformat()}"),
    ("ETA ISO (or ISO+1)", lambda d: f"{d.isoformat()} (or {(d + D(1)).isoformat()})"),
    ("ETA ISO, give or take a week", lambda d: f"{d.isoformat()}, give or take a week"),
    ("ETA by ISO+10 at the latest", lambda d: f"{d.isoformat()}, or by {(d + D(10)).isoformat()} at the latest"),
    ("ETA ISO to ISO+5", lambda d: f"{d.isoformat()} to {(d + D(5)).isoformat()}"),
    ("ETA ISO or up to two weeks later", lambda d: f"{d.isoformat()} or up to two weeks later"),
]
for label, f in FORMS:
    rows(label, [(E, "order-status", B, last_reply(eta(f))), (E, "cancel-order", ("hard",), last_reply(eta(f)))])
summary()

# calibration: a single shifted ETA (is there a tolerance?)
for k in (1, 3, 5, 7):
    rows(f"CALIBRATION ETA +{k}d alone (ISO)", [(E, "order-status", B, last_reply(eta(lambda d, k=k: (d + D(k)).isoformat()))), (E, "cancel-order", ("hard",), last_reply(eta(lambda d, k=k: (d + D(k)).isoformat())))])
summary()
