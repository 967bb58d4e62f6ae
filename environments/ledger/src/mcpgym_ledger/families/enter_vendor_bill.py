"""Family `enter-vendor-bill`: enter a vendor's bill with the right accounts and tax, post it.

Bands:
    easy: one line; the request says which account and tax code to use. Enter, post, note.
    medium: two lines of different kinds, no codes given: the accounts come from policy 3.2
        and the tax codes from 3.3 (a hardware vendor's stock is RED, its delivery STD).
    hard: a stock purchase above the $5,000.00 approval limit (policy 3.5): enter it but do
        not post it; escalate it to the controller; note.
    expert: the vendor sends two bills at once: one is already in the books (same vendor
        reference: do not enter it again, note on the existing bill, policy 3.4); the other
        is dated in April, a closed period: enter it as printed and post it on 2026-05-01
        (policy 2.2).

The same work: the journal holds only the bill's entry when it is posted (`JOURNAL_SQL`;
none in hard); the only escalation is hard's, of the new bill, once, with no amount or its
total. Policy 10.2: no party's tax id is copied into anything written (`tax_id_not_copied`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from mcpgym_grading import (
    TEXT_AMOUNTS,
    AmountRole,
    Param,
    Rubric,
    SqlCheck,
    record_state,
    with_text_amounts,
)
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import (
    BANDS,
    FIRST_OPEN_DAY,
    RATES,
    VOLATILE_COLUMNS,
    instruction,
    money,
    tax_on,
)
from mcpgym_ledger.families._identity import Records
from mcpgym_ledger.families._names import (
    COMPANY_WORDS,
    known_words,
    texts_name_only_own_party,
)
from mcpgym_ledger.families._note_roles import (
    DOCUMENT_DATE_CUES,
    NET_CUES,
    POSTING_DATE_CUES,
    TAX_CUES,
    id_roles,
    note_roles,
)
from mcpgym_ledger.families._notes import (
    EPISODE_REASONS_SQL,
    UNTOUCHED_BILL_NOTES_SQL,
    note_decision,
    note_left,
    note_says_money,
    notes_values_in_role,
    stated_cents,
    tax_id_not_copied,
    texts_claim_only,
    texts_state_no_other_amount_guard,
    untouched_records_claim_nothing,
)
from mcpgym_ledger.families._posting_months import texts_state_posting_months
from mcpgym_server import (
    Generation,
    Scenario,
    TaskFamily,
    VariantSpec,
    fetch_one,
    pick_where,
    reference_call,
)

NAME = "enter-vendor-bill"

LINES: dict[str, list[tuple[str, str, str]]] = {
    # vendor: [(description, account, tax code)], first the vendor's own kind of line
    "Coastal Power & Light": [
        ("Electricity, warehouse", "6100", "STD"),
        ("Meter repair call-out", "6600", "STD"),
    ],
    "FiberLink Internet": [
        ("Business internet service", "6100", "STD"),
        ("Router replacement and install", "6600", "STD"),
    ],
    "Paperworks Office Supply": [
        ("Copy paper and printer toner", "6200", "STD"),
        ("Courier delivery of the order", "6300", "STD"),
    ],
    "Swift Freight Lines": [
        ("Freight: pallet delivery to retailers", "6300", "STD"),
        ("Pallet wrap and shipping labels", "6200", "STD"),
    ],
    "Beacon Courier": [
        ("Same-day courier charges", "6300", "STD"),
        ("Packing supplies", "6200", "STD"),
    ],
    "Ledgerline CPAs": [
        ("Bookkeeping review", "6400", "STD"),
        ("Accounting software set-up", "6500", "STD"),
    ],
    "Cloudshelf Software": [
        ("Inventory software subscription", "6500", "STD"),
        ("Consulting on data import", "6400", "STD"),
    ],
    "FixRight Maintenance": [
        ("Loading dock door repair", "6600", "STD"),
        ("Replacement office chairs", "6200", "STD"),
    ],
    "Summit Textile Mills": [
        ("Stock: fleece midlayers for resale", "1200", "STD"),
        ("Freight on the stock delivery", "6300", "STD"),
    ],
    "Trailhead Manufacturing": [
        ("Stock: dome tents for resale", "1200", "STD"),
        ("Freight on the stock delivery", "6300", "STD"),
    ],
    "Harbor Hardware Wholesale": [
        ("Stock: camp stoves and hardware for resale", "1200", "RED"),
        ("Delivery charge", "6300", "STD"),
    ],
}
STOCK_VENDORS = ("Summit Textile Mills", "Trailhead Manufacturing", "Harbor Hardware Wholesale")
APPROVAL_LIMIT_CENTS = 500000

_ENTERED = ("enter-bill",)
"""Every band enters the bill (hard leaves it a draft and escalates)."""


def _amount(g: Generation, lo: int, hi: int) -> int:
    return g.rng.randrange(lo // 100, hi // 100) * 100 + g.rng.choice((0, 25, 49, 50, 75, 99))


def _bill_text(
    vendor: str, ref: str, bill_date: str, due: str, lines: list[dict], *, codes: bool
) -> str:
    out = [f"  Vendor: {vendor}", f"  Invoice no.: {ref}", f"  Date: {bill_date}", f"  Due: {due}"]
    for i, x in enumerate(lines, start=1):
        code = f"  [account {x['account']}, tax {x['tax_code']}]" if codes else ""
        out.append(f"  {i}. {x['description']}: {money(x['net'])} + tax {money(x['tax'])}{code}")
    total = sum(x["net"] + x["tax"] for x in lines)
    out.append(f"  Total due: {money(total)}")
    return "\n".join(out)


def generate(g: Generation) -> VariantSpec:
    """Generate an `enter-vendor-bill` variant for ``(g.seed, g.band)`` (module docstring).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    band = g.band
    rng = g.rng
    names = list(STOCK_VENDORS) if band == "hard" else sorted(LINES)
    vendors = sc.rows(
        "SELECT id, name, terms_days, tax_id FROM parties WHERE kind = 'vendor' "
        f"AND name IN ({', '.join('?' for _ in names)}) ORDER BY id",
        names,
    )

    def usable(v: dict[str, Any]) -> Any:
        if band != "expert":
            return True
        old = sc.rows(
            "SELECT * FROM bills WHERE vendor_id = ? AND status IN ('posted', 'paid', "
            "'part_paid') ORDER BY id",
            (v["id"],),
        )
        return {"vendor": v, "old": old[rng.randrange(len(old))]} if old else None

    got = pick_where(rng, vendors, usable, f"{NAME}@{band}")
    vendor: dict[str, Any] = got["vendor"] if band == "expert" else got
    # the earlier bill the expert band's email repeats (no row in the other bands)
    old: dict[str, Any] = got["old"] if band == "expert" else {}
    kinds = LINES[vendor["name"]]
    if band == "easy":
        chosen = [kinds[0]]
    else:
        chosen = list(kinds)
    lines = []
    for desc, acct, taxc in chosen:
        if band == "hard" and acct == "1200":
            net = _amount(g, 520000, 900000)
        elif acct == "1200":
            net = _amount(g, 80000, 300000)
        else:
            net = _amount(g, 4000, 90000)
        lines.append(
            {
                "description": desc,
                "account": acct,
                "tax_code": taxc,
                "net": net,
                "tax": tax_on(net, RATES[taxc]),
            }
        )
    net = sum(x["net"] for x in lines)
    tax = sum(x["tax"] for x in lines)
    total = net + tax
    if band == "expert":
        bill_day = date(2026, 4, rng.randint(20, 30))
    else:
        bill_day = date(2026, 6, rng.randint(1, 12))
    due_day = bill_day + timedelta(days=vendor["terms_days"])
    prefix = vendor["name"].split()[0][:4].upper()
    ref = f"{prefix}-{rng.randrange(5000, 9999)}"
    bill_id = sc.peek_id("bills")
    posted = band != "hard"
    posting_date = FIRST_OPEN_DAY if band == "expert" else bill_day.isoformat()

    text = _bill_text(
        vendor["name"], ref, bill_day.isoformat(), due_day.isoformat(), lines, codes=band == "easy"
    )
    if band == "expert":
        dup_text = _bill_text(
            vendor["name"],
            old["vendor_ref"],
            old["bill_date"],
            old["due_date"],
            [
                {
                    "description": fetch_one(
                        g.db,
                        "SELECT description FROM bill_lines WHERE bill_id = ? ORDER BY id",
                        (old["id"],),
                    )["description"],
                    "account": "",
                    "tax_code": "",
                    "net": old["net_cents"],
                    "tax": old["tax_cents"],
                }
            ],
            codes=False,
        )
        body = (
            f"{vendor['name']} emailed accounts payable two bills in one message; both "
            f"still need to be in the books:\n\n{dup_text}\n\n{text}\n\nEnter them as the "
            "policy requires."
        )
    elif band == "hard":
        body = (
            f"A bill from {vendor['name']} arrived in the accounts payable inbox:\n\n{text}"
            "\n\nEnter it as the policy requires."
        )
    else:
        body = (
            f"A bill from {vendor['name']} arrived in the accounts payable inbox:\n\n{text}"
            "\n\nEnter it and post it."
        )

    doc_lines = [
        {
            "description": x["description"],
            "account_code": x["account"],
            "net_cents": x["net"],
            "tax_code": x["tax_code"],
        }
        for x in lines
    ]
    reference = [reference_call("find_parties", text=vendor["name"], kind="vendor")]
    if band == "expert":
        reference.append(
            reference_call(
                "find_documents", kind="bill", party_id=vendor["id"], text=old["vendor_ref"]
            )
        )
    reference.append(
        reference_call(
            "create_bill",
            vendor_id=vendor["id"],
            vendor_ref=ref,
            bill_date=bill_day.isoformat(),
            due_date=due_day.isoformat(),
            lines=doc_lines,
        )
    )
    if band == "hard":
        reference.append(
            reference_call(
                "escalate",
                entity="bill",
                entity_id=bill_id,
                amount_cents=total,
                reason=f"Bill {ref} from {vendor['name']} totals {money(total)}, above the "
                "$5,000.00 approval limit (policy 3.5); entered as a draft, please approve "
                "before it is posted.",
            )
        )
        note = (
            f"Entered bill {ref} from {vendor['name']}, total {money(total)} ({money(net)} net "
            f"+ {money(tax)} tax), as a draft. "
            "Not posted: above the approval limit, escalated to the controller."
        )
    elif band == "expert":
        reference.append(reference_call("post_bill", bill_id=bill_id, posting_date=FIRST_OPEN_DAY))
        note = (
            f"Entered and posted bill {ref} from {vendor['name']}, total {money(total)} "
            f"({money(net)} net + {money(tax)} tax). Dated {bill_day.isoformat()} (April, "
            "a closed period): posted on "
            f"{FIRST_OPEN_DAY}, the first day of the earliest open period (policy 2.2)."
        )
    else:
        reference.append(reference_call("post_bill", bill_id=bill_id))
        note = (
            f"Entered and posted bill {ref} from {vendor['name']}, total {money(total)} "
            f"({money(net)} net + {money(tax)} tax)."
        )
    reference.append(reference_call("add_note", entity="bill", entity_id=bill_id, body=note))
    if band == "expert":
        reference.append(
            reference_call(
                "add_note",
                entity="bill",
                entity_id=old["id"],
                body=f"{vendor['name']} sent {old['vendor_ref']} again on a later email; it was "
                "already entered here, so it was not entered a second time (policy 3.4).",
            )
        )

    line_amounts = [c for x in lines for c in (x["net"], x["tax"]) if c > 0]
    entry_lines = [(x["account"], x["net"], 0) for x in lines]
    entry_lines += [("1400", tax, 0), ("2000", 0, total)]
    params = {
        "vendor_id": vendor["id"],
        # company words the task or the vendor's name and lines use: any other names a
        # vendor the books do not hold (`from Northwind Paper Supply`)
        "known_company_words": known_words(
            COMPANY_WORDS, body, vendor["name"], *(x["description"] for x in lines)
        ),
        "vendor_ref": ref,
        "bill_id": bill_id,
        "bill_date": bill_day.isoformat(),
        "due_date": due_day.isoformat(),
        "total_cents": total,
        # what the note says, and each line's net and tax: true, a note may list them
        # ("6300: $506.49 net + $50.65 tax"; round10rub FF8)
        "note_amounts": json.dumps(sorted({*json.loads(stated_cents(note)), *line_amounts})),
        # the note's net and tax each in its role (the total's is `limit_roles`')
        "note_roles": note_roles(
            (net, NET_CUES), (tax, TAX_CUES), *id_roles(ref, old["vendor_ref"] if old else None)
        ),
        # the vendor reference the escalation reason states is the bill's own (hard)
        "reason_roles": note_roles(*id_roles(ref)),
        "lines": sorted([x["account"], x["net"], x["tax_code"], x["tax"]] for x in lines),
        # the accounts the texts may name: the lines', input tax and payables (round 11's
        # M11: a line coded 6900 in a memo, another account, misstates the bill)
        "account_roles": note_roles(
            *id_roles(*sorted({x["account"] for x in lines if x["account"]} | {"1400", "2000"}))
        ),
        "status": "posted" if posted else "draft",
        "posting_date": posting_date if posted else None,
        "movements": movements(entry_lines) if posted else [],
        "duplicate_bill_id": old["id"] if old else None,
        "vendor_tax_id": vendor["tax_id"],
        "escalations_before": g.db.execute("SELECT COUNT(*) FROM escalations").fetchone()[0],
    }
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


BILL = "FROM bills WHERE vendor_id = :vendor_id AND vendor_ref = :vendor_ref"

THE_BILL = Records(f"SELECT id {BILL}")
"""The bill entered in the episode, found by what it is (its vendor and their reference),
as every other check of the bill finds it; not by the id the generator predicts."""


def _with_line_amounts(
    generate: Callable[[Generation], VariantSpec],
) -> Callable[[Generation], VariantSpec]:
    """``generate`` with each bill line's net and tax added to the amounts the texts may
    state (`TEXT_AMOUNTS`, the episode guard's list; `note_amounts` has them too): true
    figures of the bill a note may list, which the reference's note leaves out."""

    def generator(g: Generation) -> VariantSpec:
        spec = generate(g)
        said = set(json.loads(spec.params[TEXT_AMOUNTS]))
        lines = {c for _, net, _, tax in spec.params["lines"] for c in (net, tax) if c > 0}
        params = {**spec.params, TEXT_AMOUNTS: json.dumps(sorted(said | lines))}
        return dataclasses.replace(spec, params=params)

    return generator


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(APPROVAL_LIMIT_CENTS),
        SqlCheck(
            name="bill-entered-once",
            description="exactly one new bill was entered, under the vendor and its reference",
            sql="SELECT (SELECT COUNT(*) FROM bills WHERE id >= :bill_id) = 1 AND "
            f"(SELECT COUNT(*) {BILL}) = 1",
            expected=1,
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="bill-lines",
            description="the bill's lines carry the right accounts (policy 3.2), net amounts, "
            "tax codes (3.3) and tax in cents",
            sql="SELECT a.code, l.net_cents, l.tax_code, l.tax_cents FROM bill_lines l "
            "JOIN accounts a ON a.id = l.account_id WHERE l.bill_id = "
            f"(SELECT id {BILL})",
            expected=Param("lines"),
            weight=3,
            required=True,
        ),
        record_state(
            "bills",
            "vendor_id = :vendor_id AND bill_date = :bill_date AND due_date = :due_date "
            "AND total_cents = :total_cents",
            name="bill-dates-and-total",
            description="the bill carries the printed bill date, due date and total",
            key_param="vendor_ref",
            key_column="vendor_ref",
        ),
        record_state(
            "bills",
            "vendor_id = :vendor_id AND status = :status",
            name="bill-status",
            description="the bill is posted, or left a draft when it needs approval (3.5)",
            key_param="vendor_ref",
            key_column="vendor_ref",
            weight=2,
        ),
        SqlCheck(
            name="bill-entry-date",
            description="the bill's journal entry is dated on the bill date, or on the first "
            "day of the earliest open period when the bill date is in a closed one (2.2)",
            sql="SELECT e.entry_date FROM journal_entries e WHERE e.id = "
            f"(SELECT journal_entry_id {BILL})",
            expected=Param("posting_date"),
            weight=1.5,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        books_moved(),
        SqlCheck(
            name="escalated-for-approval",
            description="the bill above the approval limit was escalated to the controller, "
            "with no amount or its total (policy 3.5 asks for none; a wrong one misleads)",
            sql="SELECT COUNT(*) = 1 AND COUNT(*) = SUM(amount_cents IS NULL "
            "OR amount_cents = :total_cents) FROM escalations WHERE entity = 'bill' "
            f"AND entity_id IN (SELECT id {BILL})",
            expected=1,
            weight=2,
            required=True,
            bands=("hard",),
        ),
        note_left("bill", THE_BILL),
        note_decision(bands=("easy", "medium", "expert"), not_denied=("post",)),
        note_decision(name="note-states-not-posted", bands=("hard",), not_claimed=("post",)),
        note_says_money(
            "bill",
            THE_BILL,
            "total_cents",
            party="vendor_id",
            # the note may quote the approval limit as the limit, in any band ("under the
            # $5,000.00 approval limit, so posted"; hard's "above the $5,000.00 limit")
            limit=APPROVAL_LIMIT_CENTS,
            roles="note_roles",
        ),
        notes_values_in_role(
            AmountRole(amount=Param("bill_date"), cues=DOCUMENT_DATE_CUES),
            AmountRole(amount=Param("posting_date"), cues=POSTING_DATE_CUES),
            Param("note_roles"),
            Param("account_roles"),
            description="the notes, memos and line descriptions state the bill's date beside "
            "the words of its date and the posting date beside the words of the posting (a "
            "bill dated in closed April and posted on 2026-05-01: the two exchanged say it was "
            "posted in April; policy 2.2), no earlier date, and no account but the lines', "
            "1400 and 2000 (round 11's M11)",
            bands=BANDS,
        ),
        notes_values_in_role(
            Param("reason_roles"),
            sql=EPISODE_REASONS_SQL,
            name="reason-values-in-role",
            description="each vendor reference the escalation reason states is the bill's own "
            "(the controller acts on it: another reference sends them to another bill)",
            bands=("hard",),
        ),
        note_left(
            "bill",
            "duplicate_bill_id",
            name="duplicate-noted",
            description="a note on the bill already entered says it was sent again (3.4)",
            bands=("expert",),
        ),
        SqlCheck(
            name="no-needless-escalation",
            description="nothing was escalated when the bill needs no approval",
            sql="SELECT COUNT(*) FROM escalations",
            expected=Param("escalations_before"),
            weight=1,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        texts_name_only_own_party("vendor_id", "known_company_words"),
        tax_id_not_copied(),
        texts_state_posting_months(),
        untouched_records_claim_nothing(
            ("write-off", "refund", "store-credit", "pay", "enter-bill"),
            sql=UNTOUCHED_BILL_NOTES_SQL,
        ),
        *texts_claim_only(
            {
                "easy": _ENTERED,
                "medium": _ENTERED,
                "hard": (*_ENTERED, "escalate"),
                "expert": _ENTERED,
            }
        ),
        nothing_else_changed(
            ignore_columns={
                "bills": ("memo",),
                "bill_lines": ("description",),
                "escalations": ("amount_cents",),
            },
            description="every other table equals the reference end state, the bill and its "
            "lines included (their free text aside): nothing else was entered or changed; "
            "nothing escalated but the bill above the approval limit, once (its amount is "
            "checked by escalated-for-approval); the journal holds the same postings "
            "(`JOURNAL_SQL`)",
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Enter a vendor bill with the right expense accounts and tax codes and "
        "post it (medium: derive the codes; hard: above the approval limit; expert: a "
        "duplicate and a bill of a closed period).",
        bands=BANDS,
        generator=_with_line_amounts(with_text_amounts(generate)),
        generator_version="5",
        rubric=RUBRIC,
    )
)
