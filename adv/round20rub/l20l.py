# ruff: noqa  (a probe script, not product code)
"""Round 20 (adv30l), ledger: round 17's L17b (a text binding a bank line to another journal
entry than the one it is matched to), with honest rows beside it. WRONG rows should read
0/M, HONEST M/M. Round 16's harness (`_p16.rows16`: the reference with one text appended to
the last memo or reason, graded in process).

Run: uv run python adv/round20rub/l20l.py [NSEEDS] [ROWPREFIXES]
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import B, TOTALS, rows16, L, final_rows  # noqa: E402

LD, RBL = "ledger", "reconcile-bank-lines"
HX = ("hard", "expert")
_C = {}


def entry_of(v, key):
    """The journal entry the reference's end state matches the line ``params[key]`` to."""
    k = (v.band, v.seed, key)
    if k not in _C:
        line = v.params.get(key)
        _C[k] = None if line is None else final_rows(L, v, f"SELECT journal_entry_id FROM bank_lines WHERE id = {line}")[0][0]
    return _C[k]


def other(v, key):
    """An entry of the books that is not the line's (another line's, else the next id)."""
    own = entry_of(v, key)
    for k in ("fee_line_id", "deposit_line_id", "vendor_line_id"):
        e = entry_of(v, k)
        if e is not None and e != own:
            return e
    return own + 7


# ---- wrong: a line bound to another entry
rows16("L17b rbl fee memo: line matched to entry 344", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: None if entry_of(v, "fee_line_id") == 344 else f"; line {p['fee_line_id']} matched to entry 344")])
rows16("L17b rbl fee memo: line matched to another entry of the task", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; line {p['fee_line_id']} matched to entry {other(v, 'fee_line_id')}")])
rows16("L17b rbl fee memo: line -> JE other", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; bank line #{p['fee_line_id']} -> JE-{other(v, 'fee_line_id')}")])
rows16("L17b rbl fee memo: entry other matched to line", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f". Entry {other(v, 'fee_line_id')} was matched to line {p['fee_line_id']}.")])
rows16("L17b rbl fee memo: line (journal entry #other)", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f" - line {p['fee_line_id']} (journal entry #{other(v, 'fee_line_id')})")])
rows16("L17b rbl h/x reason: the recorded line matched to the fee's entry", [(LD, RBL, HX, "ignore_bank_line.reason", lambda p, v: f"; line {p['deposit_line_id']} is matched to entry {entry_of(v, 'fee_line_id')}")])
rows16("L17b rbl x fee memo: the vendor line matched to the fee's entry", [(LD, RBL, ("expert",), "post_journal_entry.memo", lambda p, v: f"; line {p['vendor_line_id']} matched to entry {entry_of(v, 'fee_line_id')}")])
rows16("L17b rbl h/x reason: the ignored line matched to an entry", [(LD, RBL, HX, "ignore_bank_line.reason", lambda p, v: f"; line {p['duplicate_line_id']} matched to entry {entry_of(v, 'deposit_line_id')}")])

# ---- honest: the line's own entry, or another entry denied
rows16("L17b honest rbl fee memo: line matched to its own entry", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; line {p['fee_line_id']} matched to entry {entry_of(v, 'fee_line_id')}")], honest=True)
rows16("L17b honest rbl fee memo: JE own <- line", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f". Entry {entry_of(v, 'fee_line_id')} is matched to line {p['fee_line_id']}, not to entry {other(v, 'fee_line_id')}.")], honest=True)
rows16("L17b honest rbl h/x reason: same as line N (entry E)", [(LD, RBL, HX, "ignore_bank_line.reason", lambda p, v: f"; line {p['deposit_line_id']} (entry {entry_of(v, 'deposit_line_id')}) holds the deposit")], honest=True)
rows16("L17b honest rbl x memo: the vendor line to its payment's entry", [(LD, RBL, ("expert",), "post_journal_entry.memo", lambda p, v: f"; line {p['vendor_line_id']} matched to entry {p['vendor_entry_id']} (the payment already in the books), line {p['fee_line_id']} to entry {entry_of(v, 'fee_line_id')}")], honest=True)
rows16("L17b honest rbl: lines and entries respectively", [(LD, RBL, ("medium", "hard", "expert"), "post_journal_entry.memo", lambda p, v: f"; lines {p['fee_line_id']} and {p['deposit_line_id']} matched to entries {entry_of(v, 'fee_line_id')} and {entry_of(v, 'deposit_line_id')} respectively")], honest=True)
rows16("L17b honest rbl: another entry named apart", [(LD, RBL, B, "post_journal_entry.memo", lambda p, v: f"; line {p['fee_line_id']} matched to the fee entry; entry {other(v, 'fee_line_id')} is left alone")], honest=True)

print("\n==== SUMMARY")
for label, p_, t in TOTALS:
    print(f"{p_:>3}/{t:<3} {label}")
