# ruff: noqa  (a probe script, not product code)
"""Round 20 (helper f2l30), ledger: F2 (a bank line bound to another payment than its
``bank_lines.payment_id``) in more forms, with honest rows beside it. WRONG rows should read
0/M, HONEST M/M. Round 16's harness (`_p16.rows16`); `fresh20l.py` holds the first F2 rows.

Run: uv run python adv/round20rub/f2l.py [NSEEDS] [ROWPREFIXES]
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0])
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import B, TOTALS, rows16, L, final_rows  # noqa: E402

LD, RBL = "ledger", "reconcile-bank-lines"
MH = ("medium", "hard", "expert")
_C = {}


def pay_of(v, key):
    k = (v.band, v.seed, key)
    if k not in _C:
        line = v.params.get(key)
        _C[k] = None if line is None else final_rows(L, v, f"SELECT payment_id FROM bank_lines WHERE id = {line}")[0][0]
    return _C[k]


# ---- wrong
rows16("F2b rbl m/h/x: Payment P+5 was matched to line N", [(LD, RBL, MH, "post_journal_entry.memo", lambda p, v: f". Payment {pay_of(v, 'deposit_line_id') + 5} was matched to line {p['deposit_line_id']}.")])
rows16("F2b rbl m/h/x: bank line #N -> customer payment #P+5", [(LD, RBL, MH, "post_journal_entry.memo", lambda p, v: f"; bank line #{p['deposit_line_id']} -> customer payment #{pay_of(v, 'deposit_line_id') + 5}")])
rows16("F2b rbl x: vendor line matched to the deposit's payment", [(LD, RBL, ("expert",), "post_journal_entry.memo", lambda p, v: f"; line {p['vendor_line_id']} matched to payment {pay_of(v, 'deposit_line_id')}")])
rows16("F2b rbl fee line matched to a payment", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; line {p['fee_line_id']} matched to payment {p['payment_id']}")])

# ---- honest
rows16("F2 honest rbl m/h/x: Payment P matched to line N, not to payment P+5", [(LD, RBL, MH, "post_journal_entry.memo", lambda p, v: f". Payment {pay_of(v, 'deposit_line_id')} is matched to line {p['deposit_line_id']}, not to payment {pay_of(v, 'deposit_line_id') + 5}.")], honest=True)
rows16("F2 honest rbl x: lines and payments respectively", [(LD, RBL, ("expert",), "post_journal_entry.memo", lambda p, v: f"; lines {p['deposit_line_id']} and {p['vendor_line_id']} matched to payments {pay_of(v, 'deposit_line_id')} and {pay_of(v, 'vendor_line_id')} respectively")], honest=True)
rows16("F2 honest rbl x: vendor line to its payment", [(LD, RBL, ("expert",), "post_journal_entry.memo", lambda p, v: f"; line {p['vendor_line_id']} matched to payment {pay_of(v, 'vendor_line_id')}")], honest=True)
rows16("F2 honest rbl m/h/x: line N (entry E, payment P)", [(LD, RBL, MH, "post_journal_entry.memo", lambda p, v: f"; line {p['deposit_line_id']} matched to the customer payment; payment {pay_of(v, 'deposit_line_id') + 5} is another customer's")], honest=True)

print("\n==== SUMMARY")
for label, p_, t in TOTALS:
    print(f"{p_:>3}/{t:<3} {label}")
