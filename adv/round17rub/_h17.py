# ruff: noqa  (a probe script, not product code)
"""Round 17 (adv27h) helpers on round 16's harness (`round16rub/_p16.py`, imported):
`onfile(fn)` (a csa text built from the customer's ZIP, date of birth, phone and email on
file; None where the customer gave the ZIP), and `rows2(label, items)`: a row whose text is
split over two replies (TEXT1 appended to the last reply, TEXT2 sent as a second reply after
it). Asserts nothing."""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import B, TOTALS, N, ONLY, E, ToolCall, final_rows, grade, mutate, rows16, _fmt  # noqa: F401

HD = "helpdesk"
CSA = "change-shipping-address"
FILE = "SELECT zip, date_of_birth, phone, email FROM customers WHERE id = :customer_id"
MONTHS = "January February March April May June July August September October November December".split()


def onfile(fn, need_zip=True):
    """text(p, v): fn(p, zip, dob, phone, email) over the customer's row on file."""
    def text(p, v):
        zip_, dob, phone, email = final_rows(E, v, FILE)[0]
        if need_zip and zip_ == (p.get("given_zip") or ""):
            return None
        return fn(p, zip_, dob, phone, email)
    return text


def rows2(label, items, honest=False):
    """items: [(family, bands, text)] where text(p, v) -> (first, second) or None."""
    if ONLY and not any(label.startswith(o) for o in ONLY):
        return
    tp = tt = 0
    bad = []
    for fam, bands, text in items:
        for band in bands:
            for seed in range(N):
                v = E.variant(fam, band, seed)
                p = dict(v.params)
                p["_fam"] = fam
                pair = text(_fmt(p), v)
                if pair is None:
                    continue
                calls = mutate(v, fam, "reply", pair[0])
                i = max(k for k, c in enumerate(calls) if c.name == "reply_to_customer")
                calls.insert(i + 1, ToolCall("reply_to_customer", {"ticket_id": p["ticket_id"], "body": pair[1]}))
                g, _ = grade(E, v, calls)
                ok = g.passed and g.score >= 0.9999
                tt += 1
                tp += ok
                if ok != honest:
                    bad.append(f"{fam[:14]} {band[0]}{seed} {[c.name for c in g.checks if c.passed is False][:3]}")
    tag = "HONEST " if honest else ""
    print(f"#### {tag}{label}: {tp}/{tt}" + ("" if not bad else "  <- " + "; ".join(bad[:4])))
    sys.stdout.flush()
    TOTALS.append((tag + label, tp, tt))


def summary():
    print("\n==== SUMMARY")
    for label, p, t in TOTALS:
        print(f"{p:>3}/{t:<3} {label}")
