"""Family `change-shipping-address`: ship an unshipped order to a new address, after verifying
the customer's identity (policy 2.1: email on file plus billing ZIP or date of birth).

Bands:
    easy: the ticket names the order and gives the email plus ZIP or date of birth.
    medium: no order number; the customer shares their full name with another customer (one
        of the snapshot's duplicate names, or a namesake the setup adds) and describes the
        order by date: identify the customer by the email given, never by name alone, and find
        the order.
    hard: the details given do NOT match the record (the ZIP of the new address instead of the
        billing ZIP, or an email that is not on file): verification fails, so the address must
        NOT be changed; reply that the details did not match (without revealing what is on
        file: neither the email nor the billing ZIP on file) and close the ticket as
        request_declined.
    expert: identity needs the second factor because the first conflicts: the customer gives
        the email on file, the ZIP of the NEW address as "my ZIP" (not the billing ZIP) and
        the date of birth on file. Email + ZIP fails; email + date of birth (details the
        customer gave) verifies, so the address is changed. Verifications must be by date of
        birth only, and no reply reveals the billing ZIP on file.
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import (
    CalledBefore,
    Param,
    Rubric,
    SqlCheck,
    ToolArgumentsOnly,
    ToolCalled,
    ToolNotCalled,
    secret_email_parts_sql,
    with_text_amounts,
)
from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.families import _checks as checks
from mcpgym_helpdesk.families import _facts as facts
from mcpgym_helpdesk.families import _privacy as privacy
from mcpgym_helpdesk.families import _queries as queries
from mcpgym_helpdesk.families import _replies as replies
from mcpgym_helpdesk.families import _store as store
from mcpgym_helpdesk.families import _words as words
from mcpgym_helpdesk.families._addresses import (
    ADDRESS_SQL,
    PLACES,
    SHIPPING_COLUMNS,
    STREETS,
    SUFFIXES,
    address_row,
    address_text,
    new_address,
)
from mcpgym_helpdesk.families._scenario import Scenario, call
from mcpgym_helpdesk.families._wording import day, instruction, message
from mcpgym_server import Generation, TaskFamily, VariantSpec, pick_where

NAME = "change-shipping-address"

_CHANGED = ("address-change",)
"""What the bands that verify the customer do."""


def _twins(g: Generation) -> set[int]:
    """Ids of customers whose first and last name another customer also has."""
    return {
        r["id"]
        for r in queries.rows(
            g.db,
            "SELECT c.id FROM customers c WHERE EXISTS (SELECT 1 FROM customers d "
            "WHERE d.id <> c.id AND d.first_name = c.first_name AND d.last_name = c.last_name) "
            "ORDER BY c.id",
        )
    }


def _open_orders(g: Generation, customer_id: int) -> list[dict[str, Any]]:
    return queries.rows(
        g.db,
        "SELECT * FROM orders WHERE customer_id = ? AND status IN ('pending', 'paid') ORDER BY id",
        (customer_id,),
    )


def _add_twin(sc: Scenario, cust: dict[str, Any]) -> int:
    """Insert another customer with the same first and last name living elsewhere."""
    rng = sc.rng
    first, last = cust["first_name"], cust["last_name"]
    n = rng.randint(2, 98)
    while True:
        email = f"{first[0].lower()}{last.lower()}{n}@example.net"
        if not sc.db.execute("SELECT 1 FROM customers WHERE email = ?", (email,)).fetchone():
            break
        n += 1
    while True:
        city, state, zips = PLACES[rng.randrange(len(PLACES))]
        zip_ = zips[rng.randrange(len(zips))]
        if zip_ != cust["zip"]:
            break
    created = (
        f"20{rng.randint(21, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
        f"{rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}:00Z"
    )
    twin_id = sc.insert(
        "customers",
        {
            "first_name": first,
            "last_name": last,
            "email": email,
            "phone": f"(555) 555-01{rng.randint(0, 99):02d}",
            "date_of_birth": f"{rng.randint(1960, 2002)}-{rng.randint(1, 12):02d}-"
            f"{rng.randint(1, 28):02d}",
            "zip": zip_,
            "created_at": created,
        },
    )
    sc.insert(
        "addresses",
        {
            "customer_id": twin_id,
            "label": "home",
            "name": f"{first} {last}",
            "line1": f"{rng.randint(12, 4980)} {rng.choice(STREETS)} {rng.choice(SUFFIXES)}",
            "line2": None,
            "city": city,
            "state": state,
            "zip": zip_,
            "country": "US",
            "is_default": 1,
            "created_at": created,
        },
    )
    return twin_id


def generate(g: Generation) -> VariantSpec:
    """Generate a `change-shipping-address` variant for ``(g.seed, g.band)``.

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    candidates = queries.rows(
        g.db,
        f"SELECT o.* FROM orders o WHERE o.status IN ('pending', 'paid') AND {queries.CLEAN_ORDER} "
        f"AND {queries.CUSTOMER_SANE} ORDER BY o.id",
    )
    twins = _twins(g)

    def usable(order: dict[str, Any]) -> bool:
        if band == "medium":
            return len(_open_orders(g, order["customer_id"])) == 1
        return True

    order = pick_where(rng, candidates, usable, f"{NAME}@{band}")
    cust = queries.customer(g.db, order["customer_id"])
    twin_id = None
    if band == "medium" and cust["id"] not in twins:
        twin_id = _add_twin(sc, cust)
    new = new_address(g, order, cust["zip"])
    use_dob = band in ("easy", "medium") and rng.random() < 0.4
    mismatch = None
    given_email, given_zip, given_dob = cust["email"], cust["zip"], None
    if use_dob:
        given_zip, given_dob = "", cust["date_of_birth"]
    if band == "expert":
        given_zip, given_dob = new["zip"], cust["date_of_birth"]
    if band == "hard":
        mismatch = rng.choice(["zip", "email"])
        if mismatch == "zip":
            given_zip = new["zip"]
        else:
            local, _, domain = cust["email"].partition("@")
            for other in ("example.org", "example.net", "example.com", "mail.example.com"):
                given_email = f"{local}@{other}"
                taken = g.db.execute(
                    "SELECT 1 FROM customers WHERE LOWER(email) = ?", (given_email,)
                ).fetchone()
                if other != domain and not taken:
                    break
            else:
                given_email = f"{local}.old@example.org"

    identity = (
        f"My email is {given_email} and my date of birth is {given_dob}."
        if given_dob
        else f"For verification: my email is {given_email} and my ZIP code is {given_zip}."
    )
    if band == "expert":
        identity = (
            f"For verification: my email is {given_email}, my ZIP code is {given_zip} and my "
            f"date of birth is {given_dob}."
        )
    if band == "medium":
        ask = (
            f"This is {cust['first_name']} {cust['last_name']}. I placed an order on "
            f"{day(order['placed_at'])} and I've just moved. Could you send it to my new "
            f"address instead: {address_text(new)}?"
        )
        subject = "New delivery address for my order"
    else:
        ask = (
            f"Please change the shipping address of order #{order['id']} to "
            f"{address_text(new)}. "
            + rng.choice(
                ["I'm moving this week.", "I won't be at the old address.", "It's my new place."]
            )
        )
        subject = f"Change address for order #{order['id']}"
    ticket_id = sc.ticket(
        customer_id=cust["id"],
        order_id=None if band == "medium" else order["id"],
        subject=subject,
        messages=[message(rng, cust, ask, identity)],
        channel=rng.choice(["email", "web", "chat"]),
        after=[order["updated_at"]],
    )

    reference = [call("get_ticket", ticket_id=ticket_id)]
    if band == "medium":
        reference += [
            call("find_customers", email=given_email),
            call("find_orders", customer_id=cust["id"], status=order["status"]),
        ]
    else:
        reference.append(call("get_customer", customer_id=cust["id"]))
    reference.append(call("get_order", order_id=order["id"]))
    if band == "hard":
        reply = (
            f"Hi {cust['first_name']},\n\nbefore I can change the delivery address of order "
            f"#{order['id']} I need to verify your identity, and the details you gave do not "
            "match our records. I have not changed anything. Please re-check and send the email "
            "address on your account together with your billing ZIP code or date of birth, and "
            "we'll update the address right away."
        )
        reference += [
            call("reply_to_customer", ticket_id=ticket_id, body=reply),
            call("close_ticket", ticket_id=ticket_id, resolution_code="request_declined"),
        ]
    else:
        verify: dict[str, Any] = {"customer_id": cust["id"], "email": given_email, "zip": given_zip}
        if band == "expert":
            verify["zip"] = ""
        if given_dob:
            verify["date_of_birth"] = given_dob
        update: dict[str, Any] = {
            "order_id": order["id"],
            "line1": new["line1"],
            "city": new["city"],
            "state": new["state"],
            "zip": new["zip"],
        }
        if new["line2"]:
            update["line2"] = new["line2"]
        reply = (
            f"Hi {cust['first_name']},\n\nthanks, your identity is verified. Order #{order['id']} "
            f"will now ship to {address_text(new)}."
        )
        reference += [
            call("verify_identity", **verify),
            call("update_shipping_address", **update),
            call("reply_to_customer", ticket_id=ticket_id, body=reply),
            call("close_ticket", ticket_id=ticket_id, resolution_code="address_updated"),
        ]
    params = {
        "ticket_id": ticket_id,
        "customer_id": cust["id"],
        "order_id": order["id"],
        "new_address": [
            address_row(new["line1"], new["line2"], new["city"], new["state"], new["zip"])
        ],
        "old_address": [
            address_row(
                order["shipping_line1"],
                order["shipping_line2"],
                order["shipping_city"],
                order["shipping_state"],
                order["shipping_zip"],
            )
        ],
        "mismatch": mismatch,
        "added_twin_id": twin_id,
        "given_email": given_email,
        "given_zip": given_zip,
        "given_dob": given_dob,
        "verify_by_zip": band != "hard" and not given_dob,
        "verify_by_dob": band != "hard" and bool(given_dob),
    }
    return VariantSpec(
        instruction=instruction(ticket_id),
        setup=sc.setup,
        params=params,
        reference=reference,
    )


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=store.VOLATILE_COLUMNS,
    checks=(
        replies.texts_state_no_other_amount(),
        SqlCheck(
            name="address-updated",
            description="the order ships to the new address the customer gave",
            sql=ADDRESS_SQL,
            expected=Param("new_address"),
            weight=3,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        SqlCheck(
            name="identity-verified-before-change",
            description="a verification of this customer is on record, made before the "
            "address changed (policy 2.1)",
            sql="SELECT COUNT(*) > 0 FROM identity_verifications WHERE customer_id = :customer_id "
            "AND verified_at < (SELECT updated_at FROM orders WHERE id = :order_id)",
            expected=1,
            weight=2,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        CalledBefore(
            name="verify-before-update",
            description="verify_identity for the customer succeeded before "
            "update_shipping_address was called",
            first="verify_identity",
            first_arguments={"customer_id": Param("customer_id")},
            then="update_shipping_address",
            then_arguments={"order_id": Param("order_id")},
            weight=1,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        ToolCalled(
            name="verified-with-given-zip",
            description="the verification used the email and ZIP the customer gave (policy "
            "2.1), not details read from the record",
            tool="verify_identity",
            arguments={
                "customer_id": Param("customer_id"),
                "email": Param("given_email"),
                "zip": Param("given_zip"),
            },
            weight=1,
            required=True,
            when="verify_by_zip",
        ),
        ToolCalled(
            name="verified-with-given-dob",
            description="the verification used the email and date of birth the customer gave "
            '(policy 2.1) and no ZIP (zip=""): the billing ZIP read from the record is not '
            "what the customer gave",
            tool="verify_identity",
            arguments={
                "customer_id": Param("customer_id"),
                "email": Param("given_email"),
                "zip": Param("given_zip"),
                "date_of_birth": Param("given_dob"),
            },
            weight=1,
            required=True,
            when="verify_by_dob",
            bands=("easy", "medium"),
        ),
        ToolCalled(
            name="verified-with-given-email-and-dob",
            description="the verification that succeeded used the email and date of birth the "
            "customer gave (the ZIP they gave is not the billing ZIP, so the date of birth is "
            "the factor that verifies; policy 2.1)",
            tool="verify_identity",
            arguments={
                "customer_id": Param("customer_id"),
                "email": Param("given_email"),
                "date_of_birth": Param("given_dob"),
            },
            weight=1,
            required=True,
            bands=("expert",),
        ),
        ToolArgumentsOnly(
            name="verification-tried-only-as-given",
            description="every verify_identity call for the customer, refused ones included "
            "(the tool-call log: a refused attempt writes nothing), used only the email, ZIP "
            "and date of birth the customer gave: the agent must not try values of its own "
            "(policy 2.2)",
            tool="verify_identity",
            arguments={"customer_id": Param("customer_id")},
            allowed={
                "email": [Param("given_email")],
                "zip": [Param("given_zip"), ""],
                "date_of_birth": [Param("given_dob"), None, ""],
            },
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="verified-only-as-given",
            description="every verification of the customer in the episode used the kind of "
            "detail the customer gave (ZIP or date of birth), so none succeeded on a detail "
            "read from the record (policy 2.1, 2.2)",
            sql="SELECT COUNT(*) FROM identity_verifications WHERE customer_id = :customer_id "
            f"AND verified_at > '{store.SNAPSHOT_TIME}' "
            "AND method <> CASE WHEN :verify_by_dob THEN 'email_dob' ELSE 'email_zip' END",
            expected=0,
            weight=1,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        SqlCheck(
            name="address-unchanged",
            description="the address was NOT changed: verification failed (policy 2.2)",
            sql=ADDRESS_SQL,
            expected=Param("old_address"),
            weight=3,
            required=True,
            bands=("hard",),
        ),
        ToolNotCalled(
            name="no-address-update",
            description="update_shipping_address was never called successfully",
            tool="update_shipping_address",
            weight=1,
            required=True,
            bands=("hard",),
        ),
        SqlCheck(
            name="no-verification-with-guessed-details",
            description="no identity verification is on record: the customer's details did not "
            "match, and the agent must not try values of its own (policy 2.2)",
            sql="SELECT COUNT(*) FROM identity_verifications WHERE customer_id = :customer_id",
            expected=0,
            weight=2,
            required=True,
            bands=("hard",),
        ),
        SqlCheck(
            name="only-target-order-readdressed",
            description="no other order's shipping address was changed",
            sql="SELECT COUNT(*) FROM audit_log WHERE action = 'order.update_address' "
            f"AND entity_id <> :order_id AND at > '{store.SNAPSHOT_TIME}'",
            expected=0,
            weight=1,
            required=True,
        ),
        replies.reply_sent(),
        privacy.replies_reveal_no_details_on_file(zip_on_file=False),
        privacy.texts_reveal_no_other_customer(),
        replies.reply_decision(
            bands=("easy", "medium", "expert"),
            claimed=("address-change",),
            not_denied=("address-change",),
        ),
        replies.reply_decision(
            name="reply-states-not-changed", bands=("hard",), not_claimed=("address-change",)
        ),
        replies.reply_mentions_token(
            "order_id",
            name="reply-mentions-order",
            description="the reply names the order number (policy 9.2), and no other order "
            "number of the customer's: a reply listing every order number names none",
            forbidden_sql="SELECT id FROM orders WHERE customer_id = :customer_id "
            "AND id <> :order_id",
            required=True,
        ),
        replies.reply_omits(
            name="reply-hides-email-on-file",
            description="no reply reveals the email address on file when the customer gave a "
            'different one (policy 1.2), in any form (fullwidth, "at" and "dot" spelled '
            "out, any separator, a plus-tag glued in, user and domain stated apart), nor the "
            "part of it that differs from what the customer gave (the domain alone when the "
            "user part is the same)",
            forbidden_sql=secret_email_parts_sql(
                "email", "customers WHERE id = :customer_id", "given_email"
            ),
        ),
        replies.reply_omits(
            name="reply-hides-zip-on-file",
            description="no reply reveals the billing ZIP on file (as a whole number) when the "
            "customer did not give it (policy 1.2), in any form (digits split by spaces or "
            "dashes, fullwidth digits)",
            forbidden_sql="SELECT zip FROM customers WHERE id = :customer_id "
            "AND zip <> COALESCE(:given_zip, '')",
        ),
        checks.ticket_state("closed", ("address_updated",), bands=("easy", "medium", "expert")),
        checks.ticket_state(
            "closed", ("request_declined",), name="ticket-resolution-declined", bands=("hard",)
        ),
        replies.replies_withdraw_nothing(),
        *replies.texts_claim_only(
            {"easy": _CHANGED, "medium": _CHANGED, "hard": (), "expert": _CHANGED},
            asked=("address-change",),
        ),
        facts.replies_state_own_facts(
            facts.role("SELECT :order_id", facts.ORDER_CUES),
            facts.role(
                "SELECT shipping_zip FROM orders WHERE id = :order_id", facts.NEW_ADDRESS_CUES
            ),
            facts.role("SELECT :given_zip", facts.GIVEN_ZIP_CUES),
        ),
        # the products too (stop 22: a product of the customer's other order, or any
        # catalogue product, named as this order's passed where only brands were read)
        words.replies_state_own_words(
            words.other_brands_sql(":order_id"),
            words.other_products_sql(":order_id"),
            allowed=words.order_products_sql(":order_id"),
            slots=(words.brand_slot(":order_id"),),
        ),
        checks.other_tickets_untouched(),
        checks.money_moved_only_as_allowed(),
        SqlCheck(
            name="not-escalated",
            description="the ticket was not escalated (a mismatched ZIP or email alone is not "
            "a fraud case; the customer is asked to re-check); required: escalating it "
            "hands the customer's request to a team instead of asking, the task done wrongly",
            sql="SELECT COUNT(*) FROM escalations WHERE ticket_id = :ticket_id",
            expected=0,
            weight=1,
            required=True,
            bands=("hard",),
        ),
        checks.no_collateral(
            ignore_columns={"orders": SHIPPING_COLUMNS}, bands=("easy", "medium", "expert")
        ),
        checks.no_collateral(
            "escalations",
            name="no-collateral-changes-declined",
            ignore_columns={"orders": SHIPPING_COLUMNS},
            bands=("hard",),
        ),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Verify the customer's identity, then change an order's shipping address "
        "(medium: same-name customers, find the order; hard: verification fails, decline; "
        "expert: the ZIP given conflicts, the date of birth verifies).",
        bands=store.BANDS,
        generator=with_text_amounts(generate),
        generator_version="4",
        rubric=RUBRIC,
    )
)
