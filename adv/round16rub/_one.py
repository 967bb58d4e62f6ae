# ruff: noqa  (a probe script, not product code)
"""Grade the reference of ENV FAMILY BAND SEED with TEXT appended to the last reply
(helpdesk) or the last note (ledger); `{n}` in TEXT is the record not acted on.
Run: uv run python adv/round15rub/_one.py ENV FAMILY BAND SEED 'TEXT' ['TEXT2'...]"""
import sys
ARGS = sys.argv[1:]
sys.argv[1:] = ["1"]
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import E, L, grade, last_reply, last_note

KEY = {"cancel-order": "order_id", "refund-above-limit": "escalate_order_id", "refund-damaged-item": "declined_order_id",
       "write-off-bad-debt": "escalate_number", "enter-vendor-bill": "vendor_ref"}
env, fam, band, seed = ARGS[:4]
e = E if env == "helpdesk" else L
v = e.variant(fam, band, int(seed))
p = dict(v.params)
for text in ARGS[4:]:
    t = text.format(n=p.get(KEY.get(fam, ""), ""), **p)
    mut = last_reply if env == "helpdesk" else last_note
    calls = mut(lambda v_, b: b + "\n\n" + t)(v)
    g, _ = grade(e, v, calls)
    print(f"{'PASS' if g.passed else 'fail'} {g.score:.3f} {[c.name for c in g.checks if c.passed is False]} :: {t!r}")
