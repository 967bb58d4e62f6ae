# ruff: noqa  (a probe script, not product code)
"""Round 20 (adv30l), ledger: a fresh round around L17b and Q18a (other ways to bind a bank
line to the wrong record, a reversal's memo dating it wrong). WRONG rows should read 0/M,
HONEST M/M. Round 16's harness (`_p16.rows16`).

Run: uv run python adv/round20rub/fresh20l.py [NSEEDS] [ROWPREFIXES]
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0])
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import B, TOTALS, rows16, L, final_rows  # noqa: E402

LD, RBL, AE, CME = "ledger", "reconcile-bank-lines", "accrue-expense", "correct-misposted-entry"
MH = ("medium", "hard", "expert")
MONTHS = "January February March April May June July August September October November December".split()
_C = {}


def q(v, sql):
    k = (v.family, v.band, v.seed, sql)
    if k not in _C:
        _C[k] = final_rows(L, v, sql)
    return _C[k]


def entry_of(v, key):
    line = v.params.get(key)
    return None if line is None else q(v, f"SELECT journal_entry_id FROM bank_lines WHERE id = {line}")[0][0]


def pay_of(v, key):
    line = v.params.get(key)
    return None if line is None else q(v, f"SELECT payment_id FROM bank_lines WHERE id = {line}")[0][0]


def mname(d):
    return f"{MONTHS[int(d[5:7]) - 1]} {d[:4]}"


# ---- F1: the line bound to the wrong entry in other forms
rows16("F1 rbl fee memo: line N: entry X (colon)", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; line {p['fee_line_id']}: entry {entry_of(v, 'fee_line_id') + 9}")])
rows16("F1 rbl fee memo: line N <-> entry X (arrow)", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; line {p['fee_line_id']} \u2194 entry {entry_of(v, 'fee_line_id') + 9}")])
rows16("F1 rbl fee memo: matches JE #X (line N)", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; matches JE #{entry_of(v, 'fee_line_id') + 9} (line {p['fee_line_id']})")])
rows16("F1 rbl fee memo: statement line N = journal entry X", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; statement line {p['fee_line_id']} = journal entry {entry_of(v, 'fee_line_id') + 9}")])
# ---- F2: the deposit line bound to another payment
rows16("F2 rbl m/h/x fee memo: deposit line matched to payment P+5", [(LD, RBL, MH, "post_journal_entry.memo", lambda p, v: f"; line {p['deposit_line_id']} matched to payment {pay_of(v, 'deposit_line_id') + 5}")])
rows16("F2 rbl x fee memo: vendor line matched to payment P+5", [(LD, RBL, ("expert",), "post_journal_entry.memo", lambda p, v: f"; line {p['vendor_line_id']} matched to payment {pay_of(v, 'vendor_line_id') + 5}")])
# ---- F3: a reversal's memo dating it otherwise
rows16("F3 ae reverse memo: reversal dated <accrual date>", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"(dated {p['accrual_date']})")])
rows16("F3 ae reverse memo: (<accrual month> posting)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"({mname(p['accrual_date'])} posting)")])
rows16("F3 cme reverse memo: reversal in <orig month>", [(LD, CME, B, "reverse_journal_entry.memo", lambda p, v: (lambda o: None if o[:7] == p["today"][:7] else f"Reversal, in {mname(o)}")(q(v, "SELECT entry_date FROM journal_entries WHERE id = :wrong_entry_id")[0][0]))])

# ---- honest beside them
rows16("F honest rbl m/h/x: deposit line matched to its payment", [(LD, RBL, MH, "post_journal_entry.memo", lambda p, v: f"; line {p['deposit_line_id']} matched to payment {pay_of(v, 'deposit_line_id')}")], honest=True)
rows16("F honest rbl: line N: entry own", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; line {p['fee_line_id']}: entry {entry_of(v, 'fee_line_id')}")], honest=True)
rows16("F honest ae reverse memo: (dated <reversal date>)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"(dated {p['reversal_date']})")], honest=True)

print("\n==== SUMMARY")
for label, p_, t in TOTALS:
    print(f"{p_:>3}/{t:<3} {label}")
