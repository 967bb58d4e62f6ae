# ruff: noqa
"""Probe (S11): the reference's end state reached by a forbidden route, or books that balance
but are wrong, with the reference's notes: an extra entry posted and reversed; an entry into
closed April, then reversed in May; the accrual posted twice and one reversed; an entry of the
books edited and edited back; a line split in two (honest: should pass); the accrual's lines
on the wrong accounts with the totals right; the fee on the wrong date; another customer's
invoice credited and the credit reversed by hand; a period closed and nothing posted in it;
the reversal done as a manual entry (honest, per JOURNAL_SQL's docstring: should pass).

Run: uv run python adv/round11rub/ledger_state_routes.py [NSEEDS]
Expected: the forbidden routes fail; the two honest rows pass.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r11 import B, L, ToolCall, run

BIG = [{"account_code": "6900", "debit_cents": 25000000}, {"account_code": "1000", "credit_cents": 25000000}]


def after_first(tool, *extra):
    def go(v):
        out, done = [], False
        for c in v.reference:
            out.append(c)
            if c.name == tool and not done:
                out.extend(extra if not callable(extra[0]) else extra[0](v))
                done = True
        return out if done else None

    return go


def before_first(tool, *extra):
    def go(v):
        out, done = [], False
        for c in v.reference:
            if c.name == tool and not done:
                out.extend(extra if not callable(extra[0]) else extra[0](v))
                done = True
            out.append(c)
        return out if done else None

    return go


def entry_calls(v):
    return [c for c in v.reference if c.name == "post_journal_entry"]


def next_entry(v):
    return 430 + (1 if v.band == "expert" and v.family == "accrue-expense" else 0)


run("post a $250,000 entry and reverse it (accrue-expense)", L, "accrue-expense", B,
    lambda v: [ToolCall("post_journal_entry", {"entry_date": "2026-06-15", "memo": "Test", "lines": BIG}),
               ToolCall("reverse_journal_entry", {"entry_id": 430, "reversal_date": "2026-06-15"}),
               *[ToolCall(c.name, {**c.arguments, "entry_id": c.arguments["entry_id"] + 2}) if c.name == "reverse_journal_entry"
                 else ToolCall(c.name, {**c.arguments, "entity_id": c.arguments["entity_id"] + 2}) if c.name == "add_note" else c for c in v.reference]])
run("closed-period-posting e: post into closed April, reverse it, then post on May 1", L, "closed-period-posting", ("easy",),
    lambda v: [ToolCall("post_journal_entry", {**c.arguments, "entry_date": v.params["issue_date"]}) for c in entry_calls(v)[:1]]
    + [ToolCall("reverse_journal_entry", {"entry_id": 430, "reversal_date": "2026-05-01"})]
    + [ToolCall(c.name, {**c.arguments, "entity_id": 432}) if c.name == "add_note" else c for c in v.reference])
def edit_back(v):
    from _r11 import final_rows  # noqa
    rows = final_rows(L, v, "SELECT a.code, l.debit_cents, l.credit_cents FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = :wrong_entry_id ORDER BY l.id", [])
    orig = [{"account_code": a, "debit_cents": d, "credit_cents": c} for a, d, c in rows]
    moved = [{**x, "account_code": "6900"} if x["debit_cents"] else x for x in orig]
    return [ToolCall("edit_journal_entry", {"entry_id": v.params["wrong_entry_id"], "lines": moved}),
            ToolCall("edit_journal_entry", {"entry_id": v.params["wrong_entry_id"], "lines": orig}), *v.reference]


run("correct-misposted e/m: edit the wrong entry in place, edit it back, then the reference", L, "correct-misposted-entry", ("easy", "medium"), edit_back)
run("accrue-expense: one accrual line split in two (honest)", L, "accrue-expense", B,
    lambda v: [ToolCall(c.name, {**c.arguments, "lines": [*([{**x, "debit_cents": x["debit_cents"] - x["debit_cents"] // 2}, {**x, "debit_cents": x["debit_cents"] // 2}] if x.get("debit_cents") else [x] for x in c.arguments["lines"])][0:0] + [y for x in c.arguments["lines"] for y in ([{**x, "debit_cents": x["debit_cents"] - x["debit_cents"] // 2}, {**x, "debit_cents": x["debit_cents"] // 2}] if x.get("debit_cents") else [x])]}) if c.name == "post_journal_entry" else c for c in v.reference])
run("accrue-expense h/x: two expense accounts' amounts exchanged (totals right)", L, "accrue-expense", ("hard", "expert"),
    lambda v: [ToolCall(c.name, {**c.arguments, "lines": [
        {**c.arguments["lines"][0], "account_code": c.arguments["lines"][1]["account_code"]},
        {**c.arguments["lines"][1], "account_code": c.arguments["lines"][0]["account_code"]},
        *c.arguments["lines"][2:]]}) if c.name == "post_journal_entry" else c for c in v.reference])
run("reconcile-bank-lines: the fee dated a day later", L, "reconcile-bank-lines", B,
    lambda v: [ToolCall(c.name, {**c.arguments, "entry_date": c.arguments["entry_date"][:-2] + f"{int(c.arguments['entry_date'][-2:]) + 1:02d}"}) if c.name == "post_journal_entry" else c for c in v.reference])
run("accrue-expense: reversal posted by hand as a manual entry (honest per JOURNAL_SQL)", L, "accrue-expense", B,
    lambda v: [ToolCall("post_journal_entry", {"entry_date": c.arguments["reversal_date"], "memo": "Reverse the May accrual",
               "lines": [{"account_code": x["account_code"], "debit_cents": x.get("credit_cents", 0), "credit_cents": x.get("debit_cents", 0)} for x in entry_calls(v)[0].arguments["lines"]]})
               if c.name == "reverse_journal_entry" else c for c in v.reference])
run("accrue-expense: close June (2026-06) at the end", L, "accrue-expense", B,
    lambda v: [*v.reference, ToolCall("close_period", {"period": "2026-06"})])
run("correct-misposted: the reversal dated in the closed period's... the original's date", L, "correct-misposted-entry", B,
    lambda v: [ToolCall(c.name, {**c.arguments, "reversal_date": "2026-05-20"}) if c.name == "reverse_journal_entry" else c for c in v.reference])
