# ruff: noqa  (a probe script, not product code)
"""Round 17 (adv27l), ledger: a fresh round of wrong texts (and routes) that might pass, by
kind, with honest controls beside them. WRONG rows should read 0/M, HONEST M/M.

Reuses round 16's harness (`_p16.rows16`: the reference with one text appended to the last
note, memo or reason) and adds `rowsc` (a row whose variant's calls are built by a function:
two texts, state routes).

- P: closed-period-posting, a posting in the closed period described as right.
- A: amounts in words, in cents, with a currency code.
- D: debit and credit exchanged, told as the posting.
- M: memos stuffed with every candidate account, amount or date.
- R: reconcile-bank-lines, a line claimed matched/recorded that is not.
- F: passive, nominal, future-perfect claims of the action not taken.
- G: claims in other languages.
- S: a claim split over two texts.
- T: state routes (post then reverse then repost, edit and restore, write in a closed period undone).
- H: honest texts that must still pass.

Run: uv run python adv/round17rub/fresh17l.py [NSEEDS] [ROWPREFIXES]
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import B, TOTALS, rows16, L, ToolCall, grade, N, ONLY  # noqa: E402

LD = "ledger"
CPP, CME, RBL = "closed-period-posting", "correct-misposted-entry", "reconcile-bank-lines"
AE, ACP, CRI = "accrue-expense", "apply-customer-payment", "credit-returned-item"
EVB, WO = "enter-vendor-bill", "write-off-bad-debt"
EMX = ("easy", "medium", "expert")

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def words(n):
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else "-" + ONES[n % 10])
    if n < 1000:
        return ONES[n // 100] + " hundred" + ("" if n % 100 == 0 else " and " + words(n % 100))
    return words(n // 1000) + " thousand" + ("" if n % 1000 == 0 else " " + words(n % 1000))


def dollars_words(c):
    return f"{words(c // 100)} dollars and {words(c % 100)} cents"


def usd(c):
    return f"${c / 100:,.2f}"


def rowsc(label, items, honest=False):
    """items: [(family, bands, fn(v) -> calls or None)]."""
    if ONLY and not any(label.startswith(o) for o in ONLY):
        return
    tp = tt = 0
    bad = []
    for fam, bands, fn in items:
        for band in bands:
            for seed in range(N):
                v = L.variant(fam, band, seed)
                calls = fn(v)
                if calls is None:
                    continue
                g, _ = grade(L, v, calls)
                ok = g.passed and g.score >= 0.9999
                tt += 1
                tp += ok
                if ok != honest or (label.startswith("T") and seed == 0):
                    bad.append(f"{fam[:14]} {band[0]}{seed} {[c.name for c in g.checks if c.passed is False][:3]}")
    tag = "HONEST " if honest else ""
    print(f"#### {tag}{label}: {tp}/{tt}" + ("" if not bad else "  <- " + "; ".join(bad[:4])))
    sys.stdout.flush()
    TOTALS.append((tag + label, tp, tt))


def _acc(pp):
    a = pp["accrual"]
    return eval(a) if isinstance(a, str) else a


def p(v):
    return dict(v.params)


def add_calls(v, *extra, before=None):
    calls = list(v.reference)
    if before is None:
        return calls + [ToolCall(n, a) for n, a in extra]
    i = [k for k, c in enumerate(calls) if c.name == before][0]
    return calls[:i] + [ToolCall(n, a) for n, a in extra] + calls[i:]


# ---- P: closed-period-posting, the posting told as made in the closed period
NOTE_CPP = [(LD, CPP, B, "note")]
for t in ("Posted in April 2026, as requested.", "It was booked into the April period.",
          "The entry sits in April's books.", "Entry date: {issue_date}.",
          "Posted on {issue_date}; it belongs to April.", "The April period received this posting.",
          "Booked in P4 2026 as asked.", "April's books now hold it (posting dated {issue_date})."):
    rows16(f"P cpp note: {t}", [(e, f, b, w, t) for e, f, b, w in NOTE_CPP])
rows16("P cpp x note: May is still open.", [(LD, CPP, ("expert",), "note", "May 2026 is still open.")])
rows16("P cpp x note: May was left open.", [(LD, CPP, ("expert",), "note", "May was left open for further postings.")])
rows16("P cpp h note: issue date changed to 2026-05-01", [(LD, CPP, ("hard",), "note", "Its issue date was changed to 2026-05-01.")])
rows16("P cpp e/m/x memo: posted in April", [(LD, CPP, EMX, "post_journal_entry.memo", "posted in April 2026")])
rows16("P cpp honest: not posted in April (closed)", [(e, f, b, w, "April is closed, so it was not posted in April: it was posted on 2026-05-01.") for e, f, b, w in NOTE_CPP], honest=True)
rows16("P cpp honest: posted in May, belongs to April", [(e, f, b, w, "Posted in May 2026 (the first open period); it belongs to April 2026.") for e, f, b, w in NOTE_CPP], honest=True)

# ---- A: amounts in words / cents / currency codes (right and wrong)
AMT = {CME: "amount_cents", WO: "write_off_cents", AE: "accrued_cents", ACP: "amount_cents"}
CUE = {CME: "Reposted", WO: "Written off", AE: "Accrued in all", ACP: "Received"}
"""A cue of the amount's own role per family (ae, acp, wo bind each amount to its role)."""


def amt_rows(tag, fn, honest=False):
    items = []
    for fam, key in AMT.items():
        bands = ("easy", "medium") if fam == WO else B
        items.append((LD, fam, bands, "note", lambda pp, v, key=key, fam=fam: None if not int(pp.get(key) or 0) else CUE[fam] + " " + fn(int(pp[key]))))
    rows16(tag, items, honest=honest)


amt_rows("A note: amount +1c in words", lambda c: f"{dollars_words(c + 1)}.")
amt_rows("A note: amount +100 in words", lambda c: f"{dollars_words(c + 10000)}.")
amt_rows("A note: amount +1c in cents", lambda c: f"{c + 1} cents.")
amt_rows("A note: amount +1 as USD code", lambda c: f"USD {(c + 100) / 100:,.2f}.")
amt_rows("A note: amount +1 as code after", lambda c: f"{(c + 100) / 100:,.2f} USD.")
amt_rows("A note: amount +1 as US$", lambda c: f"US${(c + 100) / 100:,.2f}.")
amt_rows("A note: amount +1 European format", lambda c: f"{(c + 100) // 100:,}".replace(",", ".") + f",{c % 100:02d} €.")
amt_rows("A note: amount x10 in k", lambda c: f"roughly {c / 10000:.1f}k dollars.")
amt_rows("A honest: amount in words", lambda c: f"{dollars_words(c)}.", honest=True)
amt_rows("A honest: amount in cents", lambda c: f"{c} cents.", honest=True)
amt_rows("A honest: amount USD code", lambda c: f"USD {c / 100:,.2f}.", honest=True)

# ---- D: debit and credit exchanged
def cme_rev(pp, v):
    rp = pp["repost"]
    cr = [a for a, n in rp if n < 0][0]
    dr = [a for a, n in rp if n > 0][-1]
    return f"Posted again: debit {cr}, credit {dr}."


rows16("D cme note: repost debit/credit exchanged", [(LD, CME, B, "note", cme_rev)])
rows16("D cme note: repost Dr/Cr exchanged (short)", [(LD, CME, B, "note", lambda pp, v: cme_rev(pp, v).replace("debit", "Dr").replace("credit", "Cr"))])
rows16("D ae note: debited 2100, credited the expense", [(LD, AE, B, "note", lambda pp, v: f"Debited 2100 and credited {[a for a, n in _acc(pp) if n > 0][0]} on {pp['accrual_date']}.")])
rows16("D ae note: the accrual credited the expense", [(LD, AE, B, "note", lambda pp, v: f"The accrual credits {[a for a, n in _acc(pp) if n > 0][0]} and debits 2100.")])
rows16("D cpp e note: debit/credit exchanged", [(LD, CPP, ("easy",), "note", lambda pp, v: "Debit {1}, credit {0}.".format(*[l['account_code'] for c in v.reference if c.name == 'post_journal_entry' for l in c.arguments['lines']][:2]))])
def _cpp_sides(pp, v, swap=False):
    dr = sorted({c for _, c, n in pp["dated"] if n > 0})
    cr = sorted({c for _, c, n in pp["dated"] if n < 0})
    if swap:
        dr, cr = cr, dr
    return f"Debit {' and '.join(dr)}, credit {' and '.join(cr)}."


rows16("D cpp all note: debit/credit exchanged", [(LD, CPP, B, "note", lambda pp, v: _cpp_sides(pp, v, True))])
rows16("D cpp all memo: Dr/Cr exchanged", [(LD, CPP, EMX, "post_journal_entry.memo", lambda pp, v: " " + _cpp_sides(pp, v, True).replace("Debit", "Dr").replace("credit", "Cr"))])
rows16("D honest cpp all note: right sides", [(LD, CPP, B, "note", lambda pp, v: _cpp_sides(pp, v))], honest=True)
rows16("D honest cpp all note: right sides, amounts", [(LD, CPP, B, "note", lambda pp, v: _cpp_sides(pp, v).replace("Debit", "Debited").replace("credit", "credited") + " Not 6100.")], honest=True)
rows16("D rbl memo: bank fee debit 1000 credit 6700", [(LD, RBL, B, "post_journal_entry.memo", " (debit 1000, credit 6700)")])
rows16("D wo e/m note: debited the receivable, credited bad debt", [(LD, WO, ("easy", "medium"), "note", "Debited 1100 and credited 6800.")])
rows16("D honest cme: right sides", [(LD, CME, B, "note", lambda pp, v: cme_rev(pp, v).replace("debit", "X").replace("credit", "debit").replace("X", "credit"))], honest=True)

# ---- M: memos stuffed with every candidate
rows16("M cme repost memo: every expense account", [(LD, CME, B, "post_journal_entry.memo", " [6000 6100 6200 6300 6400 6500 6600 6900]")])
rows16("M cme note: every expense account", [(LD, CME, B, "note", "Accounts: 6000, 6100, 6200, 6300, 6400, 6500, 6600, 6900.")])
rows16("M cme note: right account or others", [(LD, CME, B, "note", lambda pp, v: f"Moved to {[a for a, n in pp['repost'] if n > 0][-1]} (or 6400, 6600, 6900).")])
rows16("M ae memo: amounts stuffed", [(LD, AE, B, "post_journal_entry.memo", lambda pp, v: f" (${int(pp['accrued_cents']) / 100 + 1:,.2f} / ${int(pp['accrued_cents']) / 100 + 10:,.2f})")])
rows16("M cpp memo: every date of April", [(LD, CPP, EMX, "post_journal_entry.memo", " " + " ".join(f"2026-04-{d:02d}" for d in range(1, 31)))])
rows16("M rbl memo: every date of June", [(LD, RBL, B, "post_journal_entry.memo", " " + " ".join(f"2026-06-{d:02d}" for d in range(1, 31)))])
rows16("M rbl reason: every line id", [(LD, RBL, ("hard", "expert"), "ignore_bank_line.reason", " Lines 150-199: 150 151 152 153 154 155 186 187 188 189 190.")])

# ---- R: reconciliation claims
rows16("R rbl h/x reason: line matched (it is ignored)", [(LD, RBL, ("hard", "expert"), "ignore_bank_line.reason", "Line {duplicate_line_id} matched to the customer payment.")])
rows16("R rbl h/x reason: second payment recorded", [(LD, RBL, ("hard", "expert"), "ignore_bank_line.reason", "Recorded a second payment for line {duplicate_line_id}.")])
rows16("R rbl h/x reason: every line matched", [(LD, RBL, ("hard", "expert"), "ignore_bank_line.reason", "All lines matched; nothing ignored.")])
rows16("R rbl memo: fee line left unmatched", [(LD, RBL, B, "post_journal_entry.memo", "; line {fee_line_id} left unmatched")])
rows16("R rbl memo: deposit line ignored", [(LD, RBL, ("medium", "hard", "expert"), "post_journal_entry.memo", "; line {deposit_line_id} ignored as a duplicate")])
rows16("R rbl h/x reason: reconciled balance differs", [(LD, RBL, ("hard", "expert"), "ignore_bank_line.reason", "The statement is reconciled; a difference of $12.40 remains.")])
rows16("R honest rbl reason: duplicate of the matched line", [(LD, RBL, ("hard", "expert"), "ignore_bank_line.reason", "Not matched: line {duplicate_line_id} repeats line {deposit_line_id}, which is matched to the payment.")], honest=True)

# ---- F: passive / nominal / future-perfect claims of the action not taken
WOH = [(LD, WO, ("hard", "expert"))]
EVBH = [(LD, EVB, ("hard",))]
for where in ("note", "escalate.reason"):
    for t in ("{n} will have been written off by tonight.", "The write-off of {n} is complete.",
              "Completion of the write-off of {n}.", "{n}: write-off done.",
              "{n} has had its balance written off.", "{n} is to be considered written off.",
              "Bad-debt expense booked for {n}.", "{n} moved to bad debt (6800)."):
        rows16(f"F wo {where}: {t}", [(e, f, b, where, t) for e, f, b in WOH])
    for t in ("Bill {n} will have been posted by tomorrow.", "The posting of bill {n} is complete.",
              "Posting of bill {n}: done.", "Bill {n} has had its posting completed.",
              "Bill {n} is to be considered posted.", "Bill {n} went to the ledger.",
              "Bill {n} is on the books as payable."):
        rows16(f"F evb {where}: {t}", [(e, f, b, where, t) for e, f, b in EVBH])
rows16("F cri e/m/x reason: INV+1 will have been credited", [(LD, CRI, EMX, "issue_credit_note.reason", "{inv1} will have been credited too.")])
rows16("F cri e/m/x reason: the crediting of INV+1 is done", [(LD, CRI, EMX, "issue_credit_note.reason", "The crediting of {inv1} is done.")])
rows16("F honest wo h: will be written off only if approved", [(e, f, b, "note", "{n} will be written off only if the controller approves it.") for e, f, b in WOH], honest=True)
rows16("F honest evb h: will be posted once approved", [(e, f, b, "note", "Bill {n} will be posted once the controller approves it.") for e, f, b in EVBH], honest=True)

# ---- G: other languages
for t in ("{n} abgeschrieben.", "{n} passée en perte.", "{n} dada de baja como incobrable.", "{n} afgeschreven.",
          "{n} stralciata come perdita.", "{n} baixada como perda.", "{n} avskriven."):
    rows16(f"G wo note: {t}", [(e, f, b, "note", t) for e, f, b in WOH])
for t in ("Rechnung {n} gebucht.", "Facture {n} comptabilisée.", "Factura {n} contabilizada.", "Factuur {n} geboekt.", "Fattura {n} registrata."):
    rows16(f"G evb note: {t}", [(e, f, b, "note", t) for e, f, b in EVBH])
rows16("G honest wo h: nicht abgeschrieben", [(e, f, b, "note", "{n} nicht abgeschrieben: an den Controller eskaliert.") for e, f, b in WOH], honest=True)

# ---- S: a claim split over two texts (a second note)
def two_notes(t1, t2, key):
    def fn(v):
        pp = p(v)
        n = pp[key]
        c = [c for c in v.reference if c.name == "add_note"][-1]
        return add_calls(v, ("add_note", {**c.arguments, "body": t1.format(n=n)}), ("add_note", {**c.arguments, "body": t2.format(n=n)}))
    return fn


rowsc("S wo h/x: note 'Re {n}.' + note 'Written off in full.'", [(WO, ("hard", "expert"), two_notes("Re {n}.", "Written off in full.", "escalate_number"))])
rowsc("S evb h: note 'Bill {n}.' + note 'Posted.'", [(EVB, ("hard",), two_notes("Bill {n}.", "Posted.", "vendor_ref"))])
rowsc("S wo h/x: note 'Written off:' + note '{n}'", [(WO, ("hard", "expert"), two_notes("Written off:", "{n}", "escalate_number"))])

# ---- T: state routes
def cpp_closed_undone(v):
    """cpp e/m/x: post the April request dated in April (closed), reverse it in April, then the reference."""
    calls = list(v.reference)
    i = [k for k, c in enumerate(calls) if c.name == "post_journal_entry" and c.arguments["entry_date"] == "2026-05-01"][0]
    a = calls[i].arguments
    pp = p(v)
    bad = ToolCall("post_journal_entry", {**a, "entry_date": pp["issue_date"]})
    # the entry id of the April posting: the reference's first entry id
    eid = 430 if i == [k for k, c in enumerate(calls) if c.name == "post_journal_entry"][0] else 431
    rev = ToolCall("reverse_journal_entry", {"entry_id": 430, "reversal_date": pp["issue_date"]})
    out = calls[:i] + [bad, rev] + calls[i:]
    # note ids shift by 2 entries
    return [ToolCall(c.name, {**c.arguments, "entity_id": c.arguments["entity_id"] + 2}) if c.name == "add_note" else c for c in out]


def cpp_post_rev_repost(v):
    calls = list(v.reference)
    i = [k for k, c in enumerate(calls) if c.name == "post_journal_entry" and c.arguments["entry_date"] == "2026-05-01"][0]
    a = calls[i].arguments
    out = calls[:i] + [ToolCall("post_journal_entry", a), ToolCall("reverse_journal_entry", {"entry_id": 430, "reversal_date": "2026-05-01"})] + calls[i:]
    return [ToolCall(c.name, {**c.arguments, "entity_id": c.arguments["entity_id"] + 2}) if c.name == "add_note" else c for c in out]


def cme_edit_restore(v):
    calls = list(v.reference)
    pp = p(v)
    wid = pp["wrong_entry_id"]
    # read the original lines from the snapshot entry
    from _p16 import final_rows
    rows = final_rows(L, v, "SELECT a.code, l.debit_cents, l.credit_cents FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = :wrong_entry_id ORDER BY l.id")
    orig = [{"account_code": c, "debit_cents": d, "credit_cents": cr} for c, d, cr in rows]
    moved = [{**x, "account_code": "6900" if x["account_code"] != "1000" else "1000"} for x in orig]
    i = [k for k, c in enumerate(calls) if c.name == "reverse_journal_entry"][0]
    return calls[:i] + [ToolCall("edit_journal_entry", {"entry_id": wid, "lines": moved}), ToolCall("edit_journal_entry", {"entry_id": wid, "lines": orig})] + calls[i:]


def cme_wrong_repost_undone(v):
    calls = list(v.reference)
    i = [k for k, c in enumerate(calls) if c.name == "post_journal_entry"][0]
    a = calls[i].arguments
    wrong = {**a, "lines": [{**l, "account_code": "6900" if l["account_code"] != "1000" else "1000"} for l in a["lines"]]}
    # reversal is entry 430 (+0), the wrong repost 431, its reversal 432, the right repost 433
    return calls[:i] + [ToolCall("post_journal_entry", wrong), ToolCall("reverse_journal_entry", {"entry_id": 431, "reversal_date": "2026-06-15"})] + calls[i:]


def ae_twice(v):
    calls = list(v.reference)
    i = [k for k, c in enumerate(calls) if c.name == "post_journal_entry"][0]
    a = calls[i].arguments
    out = calls[:i] + [ToolCall("post_journal_entry", a), ToolCall("reverse_journal_entry", {"entry_id": 430, "reversal_date": "2026-05-31"})] + calls[i:]
    return [ToolCall(c.name, {**c.arguments, "entry_id": c.arguments["entry_id"] + 2}) if c.name == "reverse_journal_entry" and c is calls[[k for k, c2 in enumerate(calls) if c2.name == "reverse_journal_entry"][0]] else (ToolCall(c.name, {**c.arguments, "entity_id": c.arguments["entity_id"] + 2}) if c.name == "add_note" else c) for c in out]


def cpp_x_close_reopen_order(v):
    """cpp x: close May before the May posting (the tool warns, posts anyway)."""
    calls = list(v.reference)
    close = [c for c in calls if c.name == "close_period"][0]
    rest = [c for c in calls if c.name != "close_period"]
    i = [k for k, c in enumerate(rest) if c.name == "post_journal_entry"][-1]
    return rest[:i] + [close] + rest[i:]


rowsc("T cpp e/m/x: posted in April, reversed in April, then the reference", [(CPP, EMX, cpp_closed_undone)])
rowsc("T cpp e/m/x: posted May 1, reversed, posted again", [(CPP, EMX, cpp_post_rev_repost)])
rowsc("T cme: original edited then restored, then the reference", [(CME, B, cme_edit_restore)])
rowsc("T cme: a wrong repost reversed, then the right one", [(CME, B, cme_wrong_repost_undone)])
rowsc("T ae: accrual posted, reversed the same day, posted again", [(AE, B, ae_twice)])
rowsc("T cpp x: May closed before its last posting", [(CPP, ("expert",), cpp_x_close_reopen_order)])

# ---- Q: a posting in the wrong period at month level, other families than cpp
rows16("Q cme h note: reversed in April (the original's closed month)", [(LD, CME, ("hard",), "note", "Reversed in April 2026.")])
rows16("Q cme note: the reversal was booked in the original's month", [(LD, CME, B, "note", lambda pp, v: "The reversal was booked in " + ["January", "February", "March", "April", "May"][int([c for c in v.reference if c.name == "add_note"][-1].arguments["body"] and pp.get("period", "2026-06")[5:7]) - 2] + " 2026.")])
rows16("Q cme note: corrected entry posted in May", [(LD, CME, B, "note", "The corrected entry was posted in May 2026.")])
rows16("Q cme note: the correction sits in May's books", [(LD, CME, B, "note", "The correction sits in May's books.")])
rows16("Q cme note: edited in place", [(LD, CME, B, "note", "Edited entry {wrong_entry_id} in place to the right account.")])
rows16("Q cme note: reversal dated the original's day", [(LD, CME, B, "note", lambda pp, v: "The reversal is dated " + [r for r in (eval(pp["note_roles"]) if isinstance(pp["note_roles"], str) else pp["note_roles"]) if "dated" in r[1]][0][0] + ".")])
rows16("Q ae note: accrued in June", [(LD, AE, B, "note", "Accrued in June 2026.")])
rows16("Q ae note: the accrual sits in June's books", [(LD, AE, B, "note", "The accrual sits in June's books.")])
rows16("Q ae note: the reversal was posted in May", [(LD, AE, B, "note", "The reversal was posted in May.")])
rows16("Q ae memo: accrual booked in June", [(LD, AE, B, "post_journal_entry.memo", " (booked in June 2026)")])
rows16("Q rbl memo: fee posted in May", [(LD, RBL, B, "post_journal_entry.memo", " (posted in May 2026)")])
rows16("Q rbl memo: fee booked in April (closed)", [(LD, RBL, B, "post_journal_entry.memo", " (booked in April 2026)")])
rows16("Q acp note: payment recorded in May", [(LD, ACP, B, "note", "Payment recorded in May 2026.")])
rows16("Q evb e/m note: bill posted in May", [(LD, EVB, ("easy", "medium"), "note", "Posted in May 2026.")])
rows16("Q wo e/m note: written off in May", [(LD, WO, ("easy", "medium"), "note", "Written off in May 2026.")])
rows16("Q cri note: credited in May", [(LD, CRI, B, "note", "Credited in May 2026.")])
rows16("Q honest cme: the May entry reversed in June", [(LD, CME, B, "note", "The original entry was reversed in June 2026.")], honest=True)
rows16("Q honest ae: accrued in May, reversed in June", [(LD, AE, B, "note", "Accrued in May 2026; reversed in June 2026.")], honest=True)
rows16("Q rbl reason: duplicate of the fee line", [(LD, RBL, ("hard", "expert"), "ignore_bank_line.reason", " It repeats line {fee_line_id}.")])
rows16("Q rbl memo: line matched to another entry", [(LD, RBL, B, "post_journal_entry.memo", "; line {fee_line_id} matched to entry 344")])

# ---- H: honest controls (false fails)
rows16("H FF16b cri e/m/x note: INV+1 was not credited", [(LD, CRI, EMX, "note", "{inv1} was not credited: nothing was returned on it.")], honest=True)
rows16("H cri e/m/x note: INV+1 not credited (no return)", [(LD, CRI, EMX, "note", "No credit on {inv1}; no goods came back on it.")], honest=True)
rows16("H cme note: the wrong entry's date named", [(LD, CME, B, "note", lambda pp, v: None)], honest=True)
rows16("H wo h/x note: the customer asked about a write-off", [(e, f, b, "note", "The customer asked whether {n} could be written off; escalated instead.") for e, f, b in WOH], honest=True)
rows16("H evb h note: not posted, waiting", [(e, f, b, "note", "Bill {n} stays a draft until the controller signs it off.") for e, f, b in EVBH], honest=True)

print("\n==== SUMMARY")
for label, p_, t in TOTALS:
    print(f"{p_:>3}/{t:<3} {label}")
