# ruff: noqa  (a probe script, not product code)
"""Round 20 (adv30l), ledger accrue-expense: round 18's Q18a (the reversal's own memo
`(posted in <the accrual's month>)`, left by design then), with honest rows beside it. Also
cme's reversal memos (a reversal's own memo naming the original's month). WRONG rows should
read 0/M, HONEST M/M. Round 16's harness (`_p16.rows16`: the text appended to the last
memo after a blank line, graded in process).

Run: uv run python adv/round20rub/ae20l.py [NSEEDS] [ROWPREFIXES]
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import B, TOTALS, rows16, L, final_rows  # noqa: E402

LD, AE, CME = "ledger", "accrue-expense", "correct-misposted-entry"
MONTHS = "January February March April May June July August September October November December".split()


def mname(d):
    return f"{MONTHS[int(d[5:7]) - 1]} {d[:4]}"


def orig_date(v):
    return final_rows(L, v, "SELECT entry_date FROM journal_entries WHERE id = :wrong_entry_id")[0][0]


# ---- wrong: the reversal's own memo dates it in the accrual's month
rows16("Q18a ae reverse memo: (posted in <accrual month>)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"(posted in {mname(p['accrual_date'])})")])
rows16("Q18a ae reverse memo: Posted in <accrual month>.", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"Posted in {mname(p['accrual_date'])}.")])
rows16("Q18a ae reverse memo: Reversal (booked <accrual month>)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"Accrual reversal (booked in {mname(p['accrual_date'])})")])
rows16("Q18a cme reverse memo: (posted in <orig month>)", [(LD, CME, B, "reverse_journal_entry.memo", lambda p, v: None if orig_date(v)[:7] == p["today"][:7] else f"(posted in {mname(orig_date(v))})")])

# ---- honest: the reversed entry's month beside a word naming it, or the reversal's own month
rows16("Q18a honest ae reverse memo: Reverse the May accrual (posted in May)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"Reverse the {mname(p['accrual_date']).split()[0]} accrual (posted in {mname(p['accrual_date'])})")], honest=True)
rows16("Q18a honest ae reverse memo: (the accrual posted in May)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"(the accrual posted in {mname(p['accrual_date'])})")], honest=True)
rows16("Q18a honest ae reverse memo: Reverses entry (posted in May)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"Reverses the accrual entry, posted in {mname(p['accrual_date'])}")], honest=True)
rows16("Q18a honest ae reverse memo: (posted in <reversal month>)", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"(posted in {mname(p['reversal_date'])})")], honest=True)
rows16("Q18a honest ae reverse memo: original posted in May; reversal in June", [(LD, AE, B, "reverse_journal_entry.memo", lambda p, v: f"Original posted in {mname(p['accrual_date'])}; this reversal in {mname(p['reversal_date'])}")], honest=True)
rows16("Q18a honest cme reverse memo: reverses entry N (posted in <orig>)", [(LD, CME, B, "reverse_journal_entry.memo", lambda p, v: f"Reverses entry {p['wrong_entry_id']} (posted in {mname(orig_date(v))})")], honest=True)
rows16("Q18a honest ae accrual memo: (booked in May)", [(LD, AE, B, "post_journal_entry.memo", lambda p, v: f"(booked in {mname(p['accrual_date'])})")], honest=True)

print("\n==== SUMMARY")
for label, p_, t in TOTALS:
    print(f"{p_:>3}/{t:<3} {label}")
