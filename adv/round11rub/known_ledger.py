# ruff: noqa
"""Probe (round 11, helper known21l): the known ledger holes stop 20 left open for issue 9,
by kind, with honest controls.

- F5 rest: a note saying `Not reversed` when the entry was reversed (accrue-expense,
  correct-misposted-entry), or claiming a reversal where nothing was reversed; a note naming
  another product (credit-returned-item) or another customer/vendor than the record's.
- write-off-bad-debt expert: the escalation reason `already written off` (it was not).
- enter-vendor-bill hard: the escalation reason naming another vendor reference.
- the claim frames of the gate (`After checking, I ...`, `- [x] ...`, `Done: ...`, `✅ ...`)
  on ledger notes.

Run: uv run python adv/round11rub/known_ledger.py [NSEEDS]
Expected: every mutant row 0/N passed; every `honest` row N/N passed.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round10rub")
from _r import edit, env, run

L = env("ledger")
B = ("easy", "medium", "hard", "expert")


def note(fn):
    return lambda v: edit(v, "add_note", lambda a: {**a, "body": fn(v, a["body"])})


def reason(fn):
    return lambda v: edit(v, "escalate", lambda a: {**a, "reason": fn(v, a["reason"])})


rows = []


def row(label, *a, **k):
    rows.append((label, run(label, *a, **k)))


# --- reversal stated wrongly ------------------------------------------------------------
row(
    "accrue-expense: 'Not reversed: it stays in June.' (it was reversed)",
    L,
    "accrue-expense",
    B,
    note(lambda v, b: re.sub(r", reversed on [\d-]+\.", ". Not reversed: it stays in June.", b)),
)
row(
    "accrue-expense: '; the accrual was not reversed.'",
    L,
    "accrue-expense",
    B,
    note(lambda v, b: re.sub(r", reversed on [\d-]+\.", "; the accrual was not reversed.", b)),
)
row(
    "correct-misposted-entry: 'Not reversed: corrected by editing the line'",
    L,
    "correct-misposted-entry",
    B,
    note(lambda v, b: b.replace("Reversed on", "Not reversed; edited the line on")),
)
row(
    "apply-customer-payment: + 'Reversed the customer's earlier payment as well.' (nothing reversed)",
    L,
    "apply-customer-payment",
    B,
    note(lambda v, b: b + " Reversed the customer's earlier duplicate payment entry as well."),
)
row(
    "credit-returned-item: + 'The original sale entry was reversed today.' (nothing reversed)",
    L,
    "credit-returned-item",
    B,
    note(lambda v, b: b + " The original sale entry was reversed today."),
)
# --- another product / party ------------------------------------------------------------
row(
    "credit-returned-item: another product, not one the company sells ('Camp chair'; left open)",
    L,
    "credit-returned-item",
    B,
    note(
        lambda v, b: re.sub(
            r"for (\d+) x (.*?) returned \((\d+) x", r"for \1 x Camp chair returned (\3 x", b
        )
    ),
)
row(
    "credit-returned-item: another product named (Camp stove or Rain shell)",
    L,
    "credit-returned-item",
    B,
    note(
        lambda v, b: re.sub(
            r"for (\d+) x (.*?) returned \((\d+) x",
            lambda m: (
                f"for {m.group(1)} x {'Camp stove' if 'stove' not in m.group(2) else 'Rain shell'} returned ({m.group(3)} x"
            ),
            b,
        )
    ),
)
row(
    "enter-vendor-bill e/m/x: another vendor of the books named ('from Swift Freight Lines')",
    L,
    "enter-vendor-bill",
    ("easy", "medium", "expert"),
    note(lambda v, b: re.sub(r"from ([A-Z][\w&' ]+?),", r"from Swift Freight Lines,", b, count=1)),
)
row(
    "enter-vendor-bill e/m/x: a vendor the books do not know ('from Northwind Paper Supply'; left open)",
    L,
    "enter-vendor-bill",
    ("easy", "medium", "expert"),
    note(
        lambda v, b: re.sub(r"from ([A-Z][\w&' ]+?),", r"from Northwind Paper Supply,", b, count=1)
    ),
)
row(
    "apply-customer-payment: another customer named as the payer",
    L,
    "apply-customer-payment",
    B,
    note(
        lambda v, b: re.sub(
            r"received from (.+?) on",
            lambda m: (
                "received from "
                + ("Kestrel Mountain Shop" if "Kestrel" not in m.group(1) else "Osprey Coast Gear")
                + " on"
            ),
            b,
        )
    ),
)
row(
    "write-off-bad-debt e/m/x: another customer named as ceased trading",
    L,
    "write-off-bad-debt",
    ("easy", "medium", "expert"),
    note(
        lambda v, b: re.sub(
            r"\(6800\): (.+?) (has|went|closed)",
            lambda m: (
                "(6800): "
                + ("Kestrel Mountain Shop" if "Kestrel" not in m.group(1) else "Osprey Coast Gear")
                + " "
                + m.group(2)
            ),
            b,
        )
    ),
)
# --- escalation reasons ----------------------------------------------------------------
row(
    "write-off-bad-debt h/x: reason 'already written off; for your records.'",
    L,
    "write-off-bad-debt",
    ("hard", "expert"),
    reason(
        lambda v, b: b.replace(
            "please decide on the write-off.", "already written off; for your records."
        )
    ),
)
row(
    "write-off-bad-debt h/x: reason + 'It has already been written off.' (own sentence)",
    L,
    "write-off-bad-debt",
    ("hard", "expert"),
    reason(lambda v, b: b + " It has already been written off, for your records."),
)
row(
    "enter-vendor-bill hard: reason names another vendor reference",
    L,
    "enter-vendor-bill",
    ("hard",),
    reason(
        lambda v, b: b.replace(
            v.params["vendor_ref"],
            v.params["vendor_ref"][:-1] + ("1" if v.params["vendor_ref"][-1] == "0" else "0"),
        )
    ),
)
# --- claims in frames ---------------------------------------------------------------------
row(
    "accrue-expense: + 'After checking, I paid the vendor in full.'",
    L,
    "accrue-expense",
    B,
    note(lambda v, b: b + "\n\nAfter checking, I paid the vendor in full."),
)
row(
    "write-off-bad-debt hard: + '- [x] Write off the invoice'",
    L,
    "write-off-bad-debt",
    ("hard",),
    note(lambda v, b: b + "\n\n- [x] Write off the invoice"),
)
row(
    "enter-vendor-bill hard: + 'Done: post the bill'",
    L,
    "enter-vendor-bill",
    ("hard",),
    note(lambda v, b: b + "\n\nDone: post the bill"),
)
row(
    "credit-returned-item: + '✅ Refund the customer'",
    L,
    "credit-returned-item",
    B,
    note(lambda v, b: b + "\n\n✅ Refund the customer to their card"),
)
row(
    "apply-customer-payment: + '✅ Escalate to the controller'",
    L,
    "apply-customer-payment",
    B,
    note(lambda v, b: b + "\n\n✅ Escalate to the controller"),
)
# --- honest controls ------------------------------------------------------------------------
row(
    "honest: the references (write-off-bad-debt e/m/h/x)",
    L,
    "write-off-bad-debt",
    B,
    lambda v: list(v.reference),
)
row(
    "honest write-off expert: reason naming the invoice written off first",
    L,
    "write-off-bad-debt",
    ("expert",),
    reason(
        lambda v, b: (
            next(
                re.search(r"Wrote off \$[\d,.]+ still open on \S+", c.arguments["body"]).group(0)
                for c in v.reference
                if c.name == "add_note" and c.arguments["body"].startswith("Wrote off")
            )
            + " (within the limit). "
            + b
        )
    ),
)
row(
    "honest accrue-expense: 'set to reverse automatically on 2026-06-01'",
    L,
    "accrue-expense",
    B,
    note(lambda v, b: re.sub(r", reversed on ([\d-]+)\.", r"; the reversal is posted on \1.", b)),
)
row(
    "honest credit-returned-item: the product in the plural, lower case",
    L,
    "credit-returned-item",
    B,
    note(
        lambda v, b: re.sub(
            r"for (\d+) x (.*?) returned",
            lambda m: f"for {m.group(1)} {m.group(2).lower()}s returned",
            b,
        )
    ),
)
row(
    "honest correct-misposted-entry: 'the wrong entry was reversed today'",
    L,
    "correct-misposted-entry",
    B,
    note(lambda v, b: b.replace("Reversed on", "The wrong entry was reversed on")),
)


def memo(fn):
    return lambda v: edit(v, "reverse_journal_entry", lambda a: {**a, "memo": fn(v, a["memo"])})


row(
    "correct-misposted-entry: the reversal's memo names another entry (fact-i's kind)",
    L,
    "correct-misposted-entry",
    B,
    memo(lambda v, b: re.sub(r"entry (\d+)", lambda m: f"entry {int(m.group(1)) + 1}", b)),
)
row(
    "honest correct-misposted-entry expert: memo naming the original and its earlier reversal",
    L,
    "correct-misposted-entry",
    ("expert",),
    memo(lambda v, b: b + f" (the wrong re-post of original entry {v.params['entry_id']})"),
)
row(
    "honest correct-misposted-entry: memo 'Reverses entry N, coded to the wrong account'",
    L,
    "correct-misposted-entry",
    B,
    memo(lambda v, b: re.sub(r"Reversal of entry (\d+):", r"Reverses entry \1,", b)),
)

print("\n== summary (passed/total)")
for label, (p, n) in rows:
    print(f"{p}/{n}  {label}")
