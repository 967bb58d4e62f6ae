"""Family `apply-customer-payment`: a customer's deposit on the bank feed, applied to invoices.

Bands:
    easy: the remittance names one invoice and pays exactly what is open on it.
    medium: the remittance names two invoices (not the oldest ones) and pays both in full.
    hard: the remittance names none ("on account"): apply it oldest due date first (policy
        4.1); the last invoice it reaches is paid in part.
    expert: the remittance names two invoices, one of which was already paid in full (the
        customer paid it twice): apply only what the open one needs; the rest stays as
        customer credit on 2300 (policy 4.2), not applied to other invoices; say so in the note.

In every band the payment is recorded with its bank line (policy 4.4), so the line is matched.

The same work (the journal, `JOURNAL_SQL`): only the payment's own entry, dated on the
payment date; no entry by hand, nothing reversed. Nothing is escalated.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from mcpgym_grading import Param, Rubric, SqlCheck, record_state, with_text_amounts
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import BANDS, VOLATILE_COLUMNS, instruction, money
from mcpgym_ledger.families._identity import SNAPSHOT_TIME, Records
from mcpgym_ledger.families._names import texts_name_only_own_party
from mcpgym_ledger.families._note_roles import (
    CREDIT_HELD_CUES,
    PAYMENT_DATE_CUES,
    RECEIVED_CUES,
    document_cues,
    id_roles,
    note_roles,
)
from mcpgym_ledger.families._notes import (
    UNTOUCHED_ACTIONS,
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
from mcpgym_server import Generation, Scenario, TaskFamily, VariantSpec, pick_where, reference_call

NAME = "apply-customer-payment"

OPEN = "status IN ('posted', 'part_paid')"


def _open_cents(inv: dict[str, Any]) -> int:
    return int(
        inv["total_cents"] - inv["paid_cents"] - inv["credited_cents"] - inv["written_off_cents"]
    )


def generate(g: Generation) -> VariantSpec:
    """Generate an `apply-customer-payment` variant for ``(g.seed, g.band)`` (see above).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    customers = sc.rows("SELECT * FROM parties WHERE kind = 'customer' ORDER BY id")

    def usable(cust: dict[str, Any]) -> Any:
        opened = sc.rows(
            f"SELECT * FROM invoices WHERE customer_id = ? AND {OPEN} ORDER BY due_date, number",
            (cust["id"],),
        )
        paid = sc.rows(
            "SELECT * FROM invoices WHERE customer_id = ? AND status = 'paid' ORDER BY id",
            (cust["id"],),
        )
        need = {"easy": 1, "medium": 3, "hard": 2, "expert": 1}[band]
        if len(opened) < need or (band == "expert" and not paid):
            return None
        return {"cust": cust, "open": opened, "paid": paid}

    got = pick_where(rng, customers, usable, f"{NAME}@{band}")
    cust, opened, paid = got["cust"], got["open"], got["paid"]
    alloc: list[tuple[dict[str, Any], int]] = []
    named: list[dict[str, Any]] = []
    credit = 0
    dup_number = ""
    if band == "easy":
        inv = opened[rng.randrange(len(opened))]
        alloc = [(inv, _open_cents(inv))]
        named = [inv]
    elif band == "medium":
        two = sorted(rng.sample(opened[1:], 2), key=lambda i: (i["due_date"], i["number"]))
        alloc = [(i, _open_cents(i)) for i in two]
        named = two
    elif band == "hard":
        k = rng.randrange(1, len(opened))
        alloc = [(i, _open_cents(i)) for i in opened[:k]]
        last = opened[k]
        part = rng.randrange(100, _open_cents(last)) // 100 * 100 or 100
        alloc.append((last, part))
    else:
        inv = opened[rng.randrange(len(opened))]
        dup = paid[rng.randrange(len(paid))]
        alloc = [(inv, _open_cents(inv))]
        credit = int(dup["total_cents"])
        dup_number = dup["number"]
        named = sorted([inv, dup], key=lambda i: i["number"])
    applied = sum(c for _i, c in alloc)
    amount = applied + credit
    day = date(2026, 6, rng.randint(10, 14)).isoformat()
    ref = f"RCPT {rng.randrange(100000, 999999)}"
    line_id = sc.insert(
        "bank_lines",
        {
            "bank_account_id": 1,
            "line_date": day,
            "description": f"DEPOSIT {cust['name'].upper()[:22]}",
            "amount_cents": amount,
            "reference": ref,
            "status": "unmatched",
            "updated_at": f"{day}T18:00:00Z",
        },
    )
    payment_id = sc.peek_id("payments")
    if band == "hard":
        remit = '"Payment on account; please apply it to our invoices."'
    elif band == "expert":
        remit = f'"Payment of {" and ".join(i["number"] for i in named)}."'
    else:
        remit = (
            '"Payment of ' + " and ".join(f"{i['number']} ({money(c)})" for i, c in alloc) + '."'
        )
    body = (
        f"The bank feed shows a new deposit: line {line_id}, {money(amount)} on {day} from "
        f"{cust['name']} (reference {ref}). Their remittance advice says: {remit} Record the "
        "payment."
    )
    allocations = [{"invoice_id": i["id"], "amount_cents": c} for i, c in alloc]
    reference = [
        reference_call("list_bank_lines", status="unmatched"),
        reference_call("find_parties", text=cust["name"], kind="customer"),
        reference_call("get_party", party_id=cust["id"]),
    ]
    if band == "expert":
        reference += [reference_call("get_invoice", invoice_id=i["id"]) for i in named]
    reference.append(
        reference_call(
            "record_customer_payment",
            customer_id=cust["id"],
            amount_cents=amount,
            payment_date=day,
            allocations=allocations,
            bank_line_id=line_id,
            reference=ref,
        )
    )
    note = (
        f"Recorded {money(amount)} received from {cust['name']} on {day} (bank line {line_id}): "
        + "; ".join(f"{money(c)} applied to {i['number']}" for i, c in alloc)
        + "."
    )
    if credit:
        note += (
            f" {money(credit)} left over ({dup_number} was already paid) is held as customer "
            "credit."
        )
    reference.append(reference_call("add_note", entity="payment", entity_id=payment_id, body=note))

    after = {
        i["id"]: dict(i)
        for i in sc.rows(
            "SELECT * FROM invoices WHERE customer_id = ? AND status NOT IN ('draft', 'void') "
            "ORDER BY id",
            (cust["id"],),
        )
    }
    for inv, cents in alloc:
        row = after[inv["id"]]
        row["paid_cents"] += cents
        row["status"] = "paid" if _open_cents(row) == 0 else "part_paid"
    params = {
        "customer_id": cust["id"],
        "bank_line_id": line_id,
        "payment_id": payment_id,
        "amount_cents": amount,
        "note_amounts": stated_cents(note),
        # each amount of the note in its role: the payment, each invoice's allocation (its
        # number), the credit held (with the number of the invoice paid twice)
        "note_roles": note_roles(
            (amount, RECEIVED_CUES),
            *((c, document_cues(i["number"])) for i, c in alloc),
            (credit, (*CREDIT_HELD_CUES, dup_number) if dup_number else CREDIT_HELD_CUES),
            # the date, the bank line and each invoice number stated are the record's own
            (day, PAYMENT_DATE_CUES),
            (f"bank line {line_id}", ("bank line",)),
            *id_roles(*(i["number"] for i, _ in alloc), dup_number),
        ),
        "payment_date": day,
        "credit_cents": credit,
        "allocations": sorted([i["id"], c] for i, c in alloc),
        "invoices": [[r["id"], r["status"], r["paid_cents"]] for r in after.values()],
        "movements": movements([("1000", amount, 0), ("1100", 0, applied), ("2300", 0, credit)]),
    }
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


THE_PAYMENT = Records(
    f"SELECT id FROM payments WHERE created_at > '{SNAPSHOT_TIME}' "
    "AND party_id = :customer_id AND direction = 'received'"
)
"""The payment the notes are left on, found by what it is: received from the customer in the
episode (`payment-recorded` holds it to one); not by the id the generator predicts."""

RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(),
        SqlCheck(
            name="payment-recorded",
            description="one payment was recorded: from the customer, the deposit's amount "
            "and date",
            sql="SELECT COUNT(*) = 1 AND MIN(party_id) = :customer_id AND MIN(direction) = "
            "'received' AND SUM(amount_cents) = :amount_cents AND MIN(payment_date) = "
            ":payment_date FROM payments WHERE id >= :payment_id",
            expected=1,
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="allocations",
            description="the payment went to the right invoices in the right amounts (named "
            "ones, or oldest due first: policy 4.1)",
            sql="SELECT invoice_id, SUM(amount_cents) FROM payment_allocations "
            "WHERE payment_id >= :payment_id GROUP BY invoice_id",
            expected=Param("allocations"),
            weight=3,
            required=True,
        ),
        SqlCheck(
            name="invoices-settled",
            description="every invoice of the customer ends paid, part paid or open as the "
            "payment leaves it, with the right amount paid",
            sql="SELECT id, status, paid_cents FROM invoices WHERE customer_id = :customer_id "
            "AND status NOT IN ('draft', 'void')",
            expected=Param("invoices"),
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="credit-held",
            description="what the invoices did not take is held as customer credit (4.2)",
            sql="SELECT COALESCE(SUM(unapplied_cents), 0) FROM payments "
            "WHERE id >= :payment_id AND party_id = :customer_id",
            expected=Param("credit_cents"),
            weight=2,
            required=True,
            bands=("expert",),
        ),
        record_state(
            "bank_lines",
            "status = 'matched' AND payment_id >= :payment_id",
            name="bank-line-matched",
            description="the deposit's bank line is matched to the payment (policy 4.4)",
            key_param="bank_line_id",
            weight=1,
        ),
        books_moved(),
        note_left("payment", THE_PAYMENT),
        note_says_money(
            "payment", THE_PAYMENT, "amount_cents", party="customer_id", roles="note_roles"
        ),
        note_says_money(
            "payment",
            THE_PAYMENT,
            "credit_cents",
            party="customer_id",
            roles="note_roles",
            name="note-states-credit",
            description="the note states the amount held as customer credit",
            bands=("expert",),
        ),
        notes_values_in_role(
            Param("note_roles"),
            name="texts-values-in-role",
            description="each date, invoice number and amount a note, the payment's "
            "reference or any other text written in the episode states is the record's own, "
            "beside the words of its role (`INV-2026-0003 paid 2026-01-05` as the payment's "
            "reference misstates it; policy 10.1)",
        ),
        texts_name_only_own_party("customer_id"),
        untouched_records_claim_nothing(
            ("receive-payment", *UNTOUCHED_ACTIONS),
            description="no note on a record the episode did not change "
            "(another invoice of the customer, another record) claims a payment was "
            "received or applied there, or that it is paid in full (policy 10.1)",
        ),
        tax_id_not_copied(),
        texts_state_posting_months(),
        *texts_claim_only({b: () for b in ("easy", "medium", "hard", "expert")}),
        nothing_else_changed(
            ignore_columns={"payments": ("reference",), "payment_allocations": ("id",)},
            description="every other table equals the reference end state, the payment, its "
            "allocations, the invoices and the bank line included: nothing else was changed",
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Record a customer's deposit and apply it to their invoices (medium: two "
        "named; hard: oldest first, part paid; expert: an invoice paid twice, the rest as "
        "customer credit).",
        bands=BANDS,
        generator=with_text_amounts(generate),
        generator_version="4",
        rubric=RUBRIC,
    )
)
