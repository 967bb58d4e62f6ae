"""Family `credit-returned-item`: a customer sent goods back; credit them (policy 7.1).

The credit note goes on the invoice the goods were sold on: quantity returned times the unit
price on the invoice line, tax at the line's tax code.

Bands:
    easy: the request names the invoice, the product and the quantity returned.
    medium: no invoice number: the customer names the product, which is on one of their
        several invoices; find it and use its unit price.
    hard: two products returned, sold on two different invoices: one credit note on each.
    expert: the customer says how many they returned in all, but an earlier credit note on
        the same invoice already covered some of them: credit only the rest.

The same work (the journal, `JOURNAL_SQL`): only the credit notes' own entries, dated today;
no entry by hand, nothing reversed.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from mcpgym_grading import Param, Rubric, SqlCheck, with_text_amounts
from mcpgym_ledger.env import environment
from mcpgym_ledger.families._checks import books_moved, movements, nothing_else_changed
from mcpgym_ledger.families._common import (
    BANDS,
    PRODUCTS,
    RATES,
    TODAY,
    VOLATILE_COLUMNS,
    instruction,
    money,
    tax_on,
)
from mcpgym_ledger.families._names import (
    GOODS_WORDS,
    known_words,
    note_names_no_other_product,
    texts_name_only_own_party,
)
from mcpgym_ledger.families._note_roles import (
    NET_CUES,
    TAX_CUES,
    TOTAL_CUES,
    UNIT_CUES,
    id_roles,
    note_roles,
)
from mcpgym_ledger.families._notes import (
    UNTOUCHED_ACTIONS,
    note_amounts_in_role,
    note_left,
    note_says_money,
    stated_cents,
    tax_id_not_copied,
    texts_claim_only,
    texts_state_no_other_amount_guard,
    untouched_records_claim_nothing,
)
from mcpgym_ledger.families._past_books import PastBooks
from mcpgym_ledger.families._posting_months import texts_state_posting_months
from mcpgym_server import Generation, Scenario, TaskFamily, VariantSpec, pick_where, reference_call

NAME = "credit-returned-item"


def generate(g: Generation) -> VariantSpec:
    """Generate a `credit-returned-item` variant for ``(g.seed, g.band)`` (see above).

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    past = PastBooks(sc)

    def usable(cust: dict[str, Any]) -> Any:
        bought = {
            r["description"]
            for r in sc.rows(
                "SELECT l.description FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id "
                "WHERE i.customer_id = ?",
                (cust["id"],),
            )
        }
        fresh = [p for p in PRODUCTS if p[0] not in bought]
        return {"cust": cust, "fresh": fresh} if len(fresh) >= 4 else None

    got = pick_where(
        rng,
        sc.rows("SELECT * FROM parties WHERE kind = 'customer' ORDER BY id"),
        usable,
        f"{NAME}@{band}",
    )
    cust, fresh = got["cust"], list(got["fresh"])
    rng.shuffle(fresh)
    taxc = cust["default_tax_code"]

    def new_invoice(products: list[tuple[str, int]]) -> dict[str, Any]:
        issue = date(2026, 5, 1) + timedelta(days=rng.randrange(35))
        due = issue + timedelta(days=cust["terms_days"])
        lines = [(p, rng.choice((6, 10, 12, 20)), u) for p, u in products]
        inv = past.invoice(cust, issue.isoformat(), due.isoformat(), lines)
        inv["lines"] = lines
        return inv

    # (invoice, line, quantity to credit, quantity the customer says)
    returns: list[tuple[dict[str, Any], tuple[str, int, int], int, int]] = []
    earlier: dict[str, Any] | None = None
    if band in ("easy", "medium"):
        inv = new_invoice(fresh[:2])
        line = inv["lines"][rng.randrange(2)]
        qty = rng.randint(1, min(4, line[1]))
        returns.append((inv, line, qty, qty))
    elif band == "hard":
        for products in (fresh[:2], fresh[2:4]):
            inv = new_invoice(products)
            line = inv["lines"][0]
            qty = rng.randint(1, min(4, line[1]))
            returns.append((inv, line, qty, qty))
    else:
        inv = new_invoice(fresh[:2])
        line = inv["lines"][0]
        before = rng.randint(1, 2)
        day = (date.fromisoformat(inv["issue_date"]) + timedelta(days=3)).isoformat()
        earlier = past.credit_note(inv, cust, min(day, "2026-06-12"), before, line)
        qty = rng.randint(1, 3)
        returns.append((inv, line, qty, qty + before))
    if band == "easy":
        inv, line, qty, _said = returns[0]
        body = (
            f"{cust['name']} returned {qty} x {line[0]} from invoice {inv['number']}; the goods "
            "arrived back in the warehouse today in good condition. Credit them."
        )
    else:
        what = " and ".join(f"{said} x {ln[0]}" for _i, ln, _q, said in returns)
        extra = " in all (some of them went back earlier)" if band == "expert" else ""
        body = (
            f"{cust['name']} sent back {what}{extra}; the warehouse confirmed the return "
            "today. Credit them as the policy requires."
        )
    cn_id = sc.peek_id("credit_notes")
    reference = [reference_call("find_parties", text=cust["name"], kind="customer")]
    if band != "easy":
        reference.append(reference_call("find_documents", kind="invoice", party_id=cust["id"]))
    credits, moves, note_lines = [], [], []
    for inv, ln, qty, _said in returns:
        net = qty * ln[2]
        tax = tax_on(net, RATES[taxc])
        reference.append(reference_call("get_invoice", invoice_id=inv["id"]))
        reference.append(
            reference_call(
                "issue_credit_note",
                invoice_id=inv["id"],
                net_cents=net,
                tax_code=taxc,
                reason=f"returned {qty} x {ln[0]}",
                issue_date=TODAY,
            )
        )
        credits.append([inv["id"], net, tax])
        moves += [("4100", net, 0), ("2200", tax, 0), ("1100", 0, net + tax)]
        note_lines.append((inv, qty, ln, net, tax))
    total = sum(c[1] + c[2] for c in credits)
    first_notes = []  # the notes on the invoice the note check reads
    for inv, qty, ln, net, tax in note_lines:
        text = (
            f"Credit note for {qty} x {ln[0]} returned ({qty} x {money(ln[2])} each, "
            f"{money(net)} net + {money(tax)} tax = {money(net + tax)})."
        )
        if earlier is not None:
            text += f" {earlier['number']} had already credited the rest of the return."
        if inv["id"] == returns[0][0]["id"]:
            first_notes.append(text)
        reference.append(
            reference_call("add_note", entity="invoice", entity_id=inv["id"], body=text)
        )

    def roles_of(line: tuple[str, int, int], net: int, tax: int) -> str:
        # each amount of a credit note's note in its role: total, unit price, net, tax
        return note_roles(
            (net + tax, TOTAL_CUES),
            (line[2], UNIT_CUES),
            (net, NET_CUES),
            (tax, TAX_CUES),
            # the earlier credit note and the invoices a note may name are the record's own
            *id_roles(
                earlier["number"] if earlier is not None else None,
                *(i["number"] for i, *_ in note_lines),
            ),
        )

    # each quantity a text may state, `N x` beside its product: the one credited, and in
    # expert the one the customer says and the one credited before (round 11's Q11); each
    # also zero-padded, so `10 x` and `100 x` are read as quantities too
    said_of = {ln[0]: said for _i, ln, _q, said in returns}
    quantity_roles = note_roles(
        *(
            (f"{n:0{width}d}{form}", (ln[0],))
            for _inv, qty, ln, _net, _tax in note_lines
            for n in sorted(
                {qty, said_of[ln[0]], *([said_of[ln[0]] - qty] if earlier is not None else [])}
            )
            for form in quantity_forms(ln[0])
            for width in (1, 2, 3)  # `02 x` too: a value's digits fix the kind read
        )
    )
    second = note_lines[1] if len(note_lines) > 1 else None
    invoices = []
    for r in sc.rows(
        "SELECT id, credited_cents, status FROM invoices WHERE customer_id = ? "
        "AND status NOT IN ('draft', 'void') ORDER BY id",
        (cust["id"],),
    ):
        invoices.append([r["id"], r["credited_cents"], r["status"]])
    for inv, _ln, _q, _s in returns:
        credited = inv["credited_cents"] + sum(c[1] + c[2] for c in credits if c[0] == inv["id"])
        invoices.append([inv["id"], credited, "part_paid"])
    params = {
        "customer_id": cust["id"],
        "invoice_id": returns[0][0]["id"],
        "first_credit_note_id": cn_id,
        "credits": sorted(credits),
        "credit_cents": total,
        "first_credit_cents": credits[0][1] + credits[0][2],
        "note_amounts": stated_cents(*first_notes),
        "note_roles": roles_of(*note_lines[0][2:]),
        # hard: the second invoice's note, read for its amounts' roles
        "second_invoice_id": second[0]["id"] if second else None,
        "second_note_roles": roles_of(*second[2:]) if second else "[]",
        "quantity_roles": quantity_roles,
        # the products returned (a JSON list): the only ones a text may name
        "returned_products": json.dumps(sorted({ln[0] for _i, ln, _q, _s in returns})),
        # goods words the task or the returned products use: any other names a product the
        # books do not hold (`2 x Camp chair`)
        "known_goods": known_words(
            GOODS_WORDS, body, cust["name"], *(ln[0] for _i, ln, _q, _s in returns)
        ),
        "invoices": invoices,
        "movements": movements(moves),
    }
    return VariantSpec(
        instruction=instruction(body), setup=sc.setup, params=params, reference=reference
    )


QUANTITY_NOUNS = ("unit", "units", "item", "items", "piece", "pieces", "pc", "pcs")
"""Words a quantity of goods is counted in (``returned nine units``: number words are read as
digits, so ``9 units`` is a quantity as ``9 x`` is; round 11's N11)."""


def quantity_forms(product: str) -> tuple[str, ...]:
    """What follows a quantity of ``product`` in a text, each a value role's shape after
    the number (`_value_roles`: a number of the shape that is none of the roles' is read as
    another quantity): `` x`` and ``x``, a `QUANTITY_NOUNS` word, the product's name and its
    plural (lower case, as the roles read texts)."""
    name = product.lower()
    return (" x", "x", *(f" {w}" for w in QUANTITY_NOUNS), f" {name}", f" {name}s")


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=VOLATILE_COLUMNS,
    checks=(
        texts_state_no_other_amount_guard(
            values="quantity_roles",
            description="no note, memo or credit note reason written in the episode states an "
            "amount but the ones the reference states (a wrong amount, a near miss or a list "
            "of candidate amounts misstates the record), nor a quantity (`N x` a product) but "
            "the one returned (policy 10.1)",
        ),
        SqlCheck(
            name="credit-notes",
            description="one credit note per invoice the goods were sold on, net = quantity "
            "returned x the invoice's unit price, tax at the line's tax code, in cents (7.1)",
            sql="SELECT invoice_id, net_cents, tax_cents FROM credit_notes "
            "WHERE id >= :first_credit_note_id",
            expected=Param("credits"),
            weight=3,
            required=True,
        ),
        SqlCheck(
            name="invoices-credited",
            description="each invoice of the customer shows what was credited on it",
            sql="SELECT id, credited_cents, status FROM invoices WHERE customer_id = "
            ":customer_id AND status NOT IN ('draft', 'void')",
            expected=Param("invoices"),
            weight=2,
            required=True,
        ),
        books_moved(),
        note_left("invoice", "invoice_id"),
        note_says_money(
            "invoice",
            "invoice_id",
            "first_credit_cents",
            party="customer_id",
            roles="note_roles",
            forbidden=[Param("credit_cents")],  # hard: the total over both invoices
        ),
        note_amounts_in_role(
            "invoice",
            "second_invoice_id",
            "second_note_roles",
            party="customer_id",
            name="second-note-amounts-in-role",
            bands=("hard",),
        ),
        note_names_no_other_product("returned_products", "known_goods"),
        texts_name_only_own_party("customer_id"),
        untouched_records_claim_nothing(
            ("credit-note", *UNTOUCHED_ACTIONS),
            description="no note on a record the episode did not change "
            "(another invoice of the customer, another record) claims a credit note was "
            "issued there (policy 10.1)",
        ),
        tax_id_not_copied(),
        texts_state_posting_months(),
        *texts_claim_only({b: () for b in ("easy", "medium", "hard", "expert")}),
        nothing_else_changed(
            ignore_columns={"credit_notes": ("id", "number", "reason", "journal_entry_id")},
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Credit returned goods on the invoice they were sold on (medium: find the "
        "invoice; hard: two invoices; expert: part of the return was credited before).",
        bands=BANDS,
        generator=with_text_amounts(generate),
        generator_version="4",
        rubric=RUBRIC,
    )
)
