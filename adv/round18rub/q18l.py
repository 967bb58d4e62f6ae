# ruff: noqa  (a probe script, not product code)
"""Round 18 (adv28l), ledger: round 17's Q17 (a text naming the wrong accounting period for
a posting, in every family but closed-period-posting) and L17 (an edit claimed but not made,
a bank line said matched to another entry, a reversal given the original's date), with
honest controls beside them. WRONG rows should read 0/M, HONEST M/M.

Reuses round 16's harness (`_p16.rows16`: the reference with one text appended to the last
note, memo or reason, graded in process). The months are read from the variant (the true
month of each posting) so that each wrong text names a month the books do not hold that
posting in, and each honest text the one they do.

Run: uv run python adv/round18rub/q18l.py [NSEEDS] [ROWPREFIXES]
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import B, TOTALS, rows16, L, final_rows  # noqa: E402

LD = "ledger"
CME, RBL = "correct-misposted-entry", "reconcile-bank-lines"
AE, ACP, CRI = "accrue-expense", "apply-customer-payment", "credit-returned-item"
EVB, WO = "enter-vendor-bill", "write-off-bad-debt"
EMX = ("easy", "medium", "expert")
MONTHS = "January February March April May June July August September October November December".split()


def mname(d):
    """'2026-05-31' -> 'May 2026'."""
    return f"{MONTHS[int(d[5:7]) - 1]} {d[:4]}"


def other(d, avoid=()):
    """A month name (with the year) that is not d's month nor any in avoid."""
    bad = {d[:7], *(a[:7] for a in avoid)}
    for m in ("2026-05", "2026-04", "2026-06", "2026-03"):
        if m not in bad:
            return mname(m + "-01")


_CACHE = {}


def rows_of(v, sql):
    key = (v.family, v.band, v.seed, sql)
    if key not in _CACHE:
        _CACHE[key] = final_rows(L, v, sql)
    return _CACHE[key]


def orig_date(v):
    return rows_of(v, "SELECT entry_date FROM journal_entries WHERE id = :wrong_entry_id")[0][0]


def fee_date(pp):
    f = pp["fee"]
    f = eval(f) if isinstance(f, str) else f
    return f[0][0]


def created_month_of(v, source):
    rows = rows_of(v, f"SELECT entry_date FROM journal_entries WHERE source = '{source}' AND created_at > '2026-06-15T09:00:00Z' ORDER BY id")
    return rows[-1][0] if rows else None


def cme_new(pp, v):
    return pp["today"]


# ---- Q: a posting named in a month the books do not hold it in (wrong)
rows16("Q cme note: corrected entry posted in <not today>", [(LD, CME, B, "note", lambda pp, v: f"The corrected entry was posted in {other(pp['today'])}.")])
rows16("Q cme note: correction sits in <not today>'s books", [(LD, CME, B, "note", lambda pp, v: f"The correction sits in {other(pp['today']).split()[0]}'s books.")])
rows16("Q cme note: reposted in <not today>", [(LD, CME, B, "note", lambda pp, v: f"Reposted in {other(pp['today'])}.")])
rows16("Q cme note: reversal booked in the original's month", [(LD, CME, B, "note", lambda pp, v: None if orig_date(v)[:7] == pp["today"][:7] else f"The reversal was booked in {mname(orig_date(v))}.")])
rows16("Q cme note: reversed in the original's month", [(LD, CME, B, "note", lambda pp, v: None if orig_date(v)[:7] == pp["today"][:7] else f"Reversed in {mname(orig_date(v))}.")])
rows16("Q ae note: accrued in the reversal's month", [(LD, AE, B, "note", lambda pp, v: f"Accrued in {mname(pp['reversal_date'])}.")])
rows16("Q ae note: the accrual sits in the reversal's month", [(LD, AE, B, "note", lambda pp, v: f"The accrual sits in {mname(pp['reversal_date']).split()[0]}'s books.")])
rows16("Q ae note: the reversal posted in the accrual's month", [(LD, AE, B, "note", lambda pp, v: f"The reversal was posted in {mname(pp['accrual_date']).split()[0]}.")])
rows16("Q ae memo: accrual booked in the reversal's month", [(LD, AE, B, "post_journal_entry.memo", lambda pp, v: f" (booked in {mname(pp['reversal_date'])})")])
rows16("Q ae reverse memo: reversal posted in the accrual's month", [(LD, AE, B, "reverse_journal_entry.memo", lambda pp, v: f" (posted in {mname(pp['accrual_date'])})")])
rows16("Q ae reverse memo: this reversal posted in the accrual's month", [(LD, AE, B, "reverse_journal_entry.memo", lambda pp, v: f" (this reversal posted in {mname(pp['accrual_date'])})")])
rows16("Q rbl fee memo: posted in <not the fee's month>", [(LD, RBL, B, "post_journal_entry.memo", lambda pp, v: f" (posted in {other(fee_date(pp))})")])
rows16("Q rbl fee memo: booked in April (closed)", [(LD, RBL, B, "post_journal_entry.memo", " (booked in April 2026)")])
rows16("Q acp note: payment recorded in <not its month>", [(LD, ACP, B, "note", lambda pp, v: f"Payment recorded in {other(pp['payment_date'])}.")])
rows16("Q acp note: the receipt was booked in <not its month>", [(LD, ACP, B, "note", lambda pp, v: f"The receipt was booked in {other(pp['payment_date']).split()[0]}.")])
rows16("Q evb e/m/x note: posted in <not its month>", [(LD, EVB, EMX, "note", lambda pp, v: None if not pp.get("posting_date") else f"Posted in {other(pp['posting_date'], (pp['bill_date'],))}.")])
rows16("Q evb x note: posted in April (the bill's closed month)", [(LD, EVB, ("expert",), "note", lambda pp, v: None if not pp.get("posting_date") or pp["bill_date"][:7] == pp["posting_date"][:7] else f"Posted in {mname(pp['bill_date'])}.")])
rows16("Q wo e/m note: written off in <not its month>", [(LD, WO, ("easy", "medium"), "note", lambda pp, v: None if not pp.get("write_off_invoice_id") else f"Written off in {other(created_month_of(v, 'write_off'))}.")])
rows16("Q wo e/m note: the write-off sits in <not its month>'s books", [(LD, WO, ("easy", "medium"), "note", lambda pp, v: None if not pp.get("write_off_invoice_id") else f"The write-off sits in {other(created_month_of(v, 'write_off')).split()[0]}'s books.")])
rows16("Q cri note: credited in <not its month>", [(LD, CRI, B, "note", lambda pp, v: f"Credited in {other(created_month_of(v, 'credit_note'))}.")])
rows16("Q cri note: the credit note was posted in <not its month>", [(LD, CRI, B, "note", lambda pp, v: f"The credit note was posted in {other(created_month_of(v, 'credit_note'))}.")])

# ---- honest: the right month, another record's month in its own words, no month
rows16("Q honest cme: the original reversed in <today's month>", [(LD, CME, B, "note", lambda pp, v: f"The original entry was reversed in {mname(pp['today'])}.")], honest=True)
rows16("Q honest cme: reversed the entry posted in <orig>; correction in <today>", [(LD, CME, B, "note", lambda pp, v: f"Reversed the entry posted in {mname(orig_date(v))}; the correction was posted in {mname(pp['today'])}.")], honest=True)
rows16("Q honest cme: posted again in <today's month>", [(LD, CME, B, "note", lambda pp, v: f"Posted again in {mname(pp['today'])}.")], honest=True)
rows16("Q honest ae: accrued in May, reversed in June", [(LD, AE, B, "note", lambda pp, v: f"Accrued in {mname(pp['accrual_date'])}; reversed in {mname(pp['reversal_date'])}.")], honest=True)
rows16("Q honest ae: the reversal of the May accrual posted in June", [(LD, AE, B, "note", lambda pp, v: f"The reversal of the {mname(pp['accrual_date']).split()[0]} accrual was posted in {mname(pp['reversal_date'])}.")], honest=True)
rows16("Q honest ae reverse memo: reverses the accrual posted in May", [(LD, AE, B, "reverse_journal_entry.memo", lambda pp, v: f" (the accrual posted in {mname(pp['accrual_date'])})")], honest=True)
rows16("Q honest rbl fee memo: posted in its month", [(LD, RBL, B, "post_journal_entry.memo", lambda pp, v: f" (posted in {mname(fee_date(pp))})")], honest=True)
rows16("Q honest rbl x fee memo: line 154's vendor payment posted in May (a memo naming another entry's month)", [(LD, RBL, ("expert",), "post_journal_entry.memo", "; line 154 is matched to the vendor payment posted in May 2026")], honest=True)
rows16("Q honest acp: payment recorded in its month", [(LD, ACP, B, "note", lambda pp, v: f"Payment recorded in {mname(pp['payment_date'])}.")], honest=True)
rows16("Q honest evb e/m/x: posted in its month (dated in the bill's)", [(LD, EVB, EMX, "note", lambda pp, v: None if not pp.get("posting_date") else f"Dated in {mname(pp['bill_date'])}; posted in {mname(pp['posting_date'])}.")], honest=True)
rows16("Q honest wo e/m: written off in its month", [(LD, WO, ("easy", "medium"), "note", lambda pp, v: None if not pp.get("write_off_invoice_id") else f"Written off in {mname(created_month_of(v, 'write_off'))}.")], honest=True)
rows16("Q honest cri: credited in its month", [(LD, CRI, B, "note", lambda pp, v: f"Credited in {mname(created_month_of(v, 'credit_note'))}.")], honest=True)
rows16("Q honest cri: the invoice issued in <another month>", [(LD, CRI, B, "note", lambda pp, v: f"The invoice was issued in {mname(rows_of(v, 'SELECT issue_date FROM invoices WHERE id = :invoice_id')[0][0])}.")], honest=True)
rows16("Q honest every family: no month", [(LD, f, B, "note", "All done as the policy asks.") for f in (CME, AE, ACP, CRI, EVB, WO)], honest=True)

# ---- L17: an edit claimed, a line matched to another entry, the reversal given the original's date
rows16("L cme note: edited the entry in place", [(LD, CME, B, "note", "Edited entry {wrong_entry_id} in place to the right account.")])
rows16("L cme note: the entry's lines were edited", [(LD, CME, B, "note", "The lines of entry {wrong_entry_id} were edited to the right account.")])
rows16("L rbl memo: fee line matched to another entry", [(LD, RBL, B, "post_journal_entry.memo", "; line {fee_line_id} matched to entry 344")])
rows16("L cme note: reversal dated the original's date", [(LD, CME, B, "note", lambda pp, v: None if orig_date(v) == pp["today"] else f"The reversal is dated {orig_date(v)}.")])
rows16("L honest cme: not edited in place", [(LD, CME, B, "note", "Entry {wrong_entry_id} was not edited in place: it was reversed and posted again.")], honest=True)
rows16("L honest cme: the reversal is dated today", [(LD, CME, B, "note", lambda pp, v: f"The reversal is dated {pp['today']}; the original is dated {orig_date(v)}.")], honest=True)

print("\n==== SUMMARY")
for label, p_, t in TOTALS:
    print(f"{p_:>3}/{t:<3} {label}")
