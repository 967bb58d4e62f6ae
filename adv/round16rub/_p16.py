# ruff: noqa  (a probe script, not product code)
"""Round 16 (adv26r) probe harness: a row appends TEXT (str.format over the variant's params
plus `n`: the record not acted on, `own`: the record acted on, `inv1`: the invoice after the
variant's own, `INV` its own number) to the last reply, the last note, or a tool's reason, of
ENV FAMILY BAND SEED's reference; grades in process; prints `#### [HONEST ]label: passed/total`
and, per failing honest / passing wrong episode, the checks. Asserts nothing.

Use: `rows16(label, [(env, family, bands, where, text)], honest=False)`; NSEEDS = argv[1]."""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import E, L, ToolCall, final_rows, grade  # noqa: E402,F401

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
ONLY = sys.argv[2].split(",") if len(sys.argv) > 2 else None
B = ("easy", "medium", "hard", "expert")
NOT_KEY = {"cancel-order": "order_id", "refund-above-limit": "escalate_order_id",
           "refund-damaged-item": "declined_order_id", "write-off-bad-debt": "escalate_number",
           "enter-vendor-bill": "vendor_ref"}
OWN_KEY = {"refund-above-limit": "refund_order_id", "refund-damaged-item": "order_id",
           "cancel-order": "order_id", "duplicate-charge": "order_id"}
TOTALS = []


def _fmt(p):
    d = dict(p)
    d["n"] = d.get(NOT_KEY.get(d.get("_fam"), ""), "")
    d["own"] = d.get(OWN_KEY.get(d.get("_fam"), ""), "")
    inv = d.get("invoice_id")
    if isinstance(inv, int):
        d["INV"] = f"INV-2026-{inv:04d}"
        d["inv1"] = f"INV-2026-{inv + 1:04d}"
    return d


def mutate(v, fam, where, text):
    p = dict(v.params)
    p["_fam"] = fam
    try:
        t = text(_fmt(p), v) if callable(text) else text.format(**_fmt(p))
    except (KeyError, IndexError, ValueError):
        return None
    if t is None:
        return None
    calls = list(v.reference)
    if where == "reply":
        tool, key = "reply_to_customer", "body"
    elif where == "note":
        tool, key = "add_note", "body"
    else:
        tool, key = where.split(".")
    idx = [i for i, c in enumerate(calls) if c.name == tool and key in c.arguments]
    if not idx:
        return None
    c = calls[idx[-1]]
    calls[idx[-1]] = ToolCall(c.name, {**c.arguments, key: c.arguments[key] + "\n\n" + t})
    return calls


def rows16(label, items, honest=False, seeds=None):
    if ONLY and not any(label.startswith(o) for o in ONLY):
        return
    tp = tt = 0
    bad = []
    for env, fam, bands, where, text in items:
        e = E if env == "helpdesk" else L
        for band in bands:
            for seed in seeds or range(N):
                v = e.variant(fam, band, seed)
                calls = mutate(v, fam, where, text)
                if calls is None:
                    continue
                g, _ = grade(e, v, calls)
                ok = g.passed and g.score >= 0.9999
                tt += 1
                tp += ok
                if ok != honest:
                    bad.append(f"{fam[:14]} {band[0]}{seed} {[c.name for c in g.checks if c.passed is False][:3]}")
    tag = "HONEST " if honest else ""
    print(f"#### {tag}{label}: {tp}/{tt}" + ("" if not bad else "  <- " + "; ".join(bad[:4])))
    sys.stdout.flush()
    TOTALS.append((tag + label, tp, tt))
