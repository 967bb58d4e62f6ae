"""Customer tools: search, identity verification, profile, contact details."""

from __future__ import annotations

import re
from typing import Any

from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.tools._common import (
    audit,
    like_contains,
    money,
    require_customer,
    require_text,
    store_credit_balance,
    transaction,
    with_money,
)
from mcpgym_server import Sandbox, ToolError

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


@environment.tool(kind="read")
def find_customers(
    sb: Sandbox, name: str | None = None, email: str | None = None, phone: str | None = None
) -> list[dict[str, Any]]:
    """Search customers by name, email and/or phone. Give at least one; all given must match.

    Name matching is case-insensitive on the first name, last name or "first last".
    Several customers can share a name: use email, ZIP or orders to tell them apart.
    Returns at most 25 customers: id, name, first_name, last_name, email, zip.

    Args:
        name: full or partial name, e.g. "Dana Whitfield" or "Whitfield".
        email: email address (exact, case-insensitive).
        phone: phone number in any format; compared on its digits.
    """
    where: list[str] = []
    params: list[Any] = []
    if name and name.strip():
        where.append(
            "(LOWER(first_name || ' ' || last_name) LIKE ? ESCAPE '\\'"
            " OR LOWER(last_name || ', ' || first_name) LIKE ? ESCAPE '\\')"
        )
        pattern = like_contains(" ".join(name.lower().split()), "name")
        params += [pattern, pattern]
    if email and email.strip():
        where.append("LOWER(email) = ?")
        params.append(email.strip().lower())
    phone_digits = _digits(phone or "")
    if phone and not phone_digits:
        raise ToolError("`phone` has no digits; give a phone number like (303) 555-0142")
    if not where and not phone_digits:
        raise ToolError("give at least one of `name`, `email` or `phone` to search customers")
    sql = "SELECT id, first_name, last_name, email, phone, zip FROM customers"
    if where:
        sql += " WHERE " + " AND ".join(where)
    rows = sb.query(sql + " ORDER BY last_name, first_name, id", params)
    if phone_digits:
        last10 = phone_digits[-10:]
        rows = [r for r in rows if _digits(r["phone"]).endswith(last10)]
    return [
        {
            "id": r["id"],
            "name": f"{r['first_name']} {r['last_name']}",
            "first_name": r["first_name"],
            "last_name": r["last_name"],
            "email": r["email"],
            "zip": r["zip"],
        }
        for r in rows[:25]
    ]


@environment.tool(kind="write")
def verify_identity(
    sb: Sandbox, customer_id: int, email: str, zip: str, date_of_birth: str | None = None
) -> dict[str, Any]:
    """Verify a customer's identity with details THEY gave you, and record the verification.

    Policy: the email on file must match, plus either the billing ZIP on file or the date of
    birth. Pass the values exactly as the customer stated them; pass zip="" if the customer
    gave a date of birth instead. A mismatch is an error and records nothing (the attempt is
    in the conversation's tool-call log); do not guess.

    Args:
        customer_id: the customer's id.
        email: the email address the customer gave.
        zip: the billing ZIP code the customer gave ("" if not given).
        date_of_birth: the date of birth the customer gave, YYYY-MM-DD (optional).
    """
    cust = require_customer(sb, customer_id)
    email_ok = email.strip().lower() == cust["email"].lower()
    zip_given = zip.strip() != ""
    dob_given = bool(date_of_birth and date_of_birth.strip())
    if dob_given and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", (date_of_birth or "").strip()):
        raise ToolError(
            f"date_of_birth {date_of_birth!r} must be written YYYY-MM-DD, e.g. 1984-03-27 "
            "(nothing was checked)"
        )
    if zip_given and not re.fullmatch(r"\d{5}(?:-\d{4})?", zip.strip(), flags=re.ASCII):
        raise ToolError(
            f"zip {zip!r} must be a 5-digit ZIP code or ZIP+4, e.g. 94107 or 94107-1234 "
            "(nothing was checked)"
        )
    if not zip_given and not dob_given:
        raise ToolError(
            "give the customer's billing ZIP (`zip`) or date of birth (`date_of_birth`) "
            "together with the email"
        )
    zip_ok = zip_given and zip.strip()[:5] == cust["zip"]
    dob_ok = dob_given and (date_of_birth or "").strip() == cust["date_of_birth"]
    if email_ok and (zip_ok or dob_ok):
        method = "email_zip" if zip_ok else "email_dob"
        at = sb.clock.iso()
        with transaction(sb):
            cur = sb.db.execute(
                "INSERT INTO identity_verifications (customer_id, method, verified_at) "
                "VALUES (?, ?, ?)",
                (customer_id, method, at),
            )
            audit(sb, "identity.verify", "customer", customer_id, {"method": method})
        return {
            "verified": True,
            "verification_id": cur.lastrowid,
            "customer_id": customer_id,
            "method": method,
            "verified_at": at,
        }
    failed = [f for f, ok in (("email", email_ok),) if not ok]
    if zip_given and not zip_ok:
        failed.append("zip")
    if dob_given and not dob_ok:
        failed.append("date_of_birth")
    # Nothing is written for a failed attempt: the runtime rolls back every write of a call
    # that raises ToolError, so an audit row here would never reach the database. The attempt
    # is in the framework's tool-call log (status "tool_error").
    raise ToolError(
        f"identity verification failed for customer {customer_id}: "
        f"{', '.join(failed)} did not match the record. Do not make account or address changes; "
        "ask the customer to re-check the details (email plus billing ZIP or date of birth)"
    )


@environment.tool(kind="read")
def get_customer(sb: Sandbox, customer_id: int) -> dict[str, Any]:
    """Get a customer's profile: contact details, addresses, store-credit balance, orders, tickets.

    Also says whether the customer's identity has been verified in this conversation.
    The date of birth is never shown.

    Args:
        customer_id: the customer's id.
    """
    c = require_customer(sb, customer_id)
    balance = store_credit_balance(sb, customer_id)
    return {
        "id": c["id"],
        "first_name": c["first_name"],
        "last_name": c["last_name"],
        "email": c["email"],
        "phone": c["phone"],
        "billing_zip": c["zip"],
        "customer_since": c["created_at"],
        "identity_verified": sb.query_one(
            "SELECT 1 FROM identity_verifications WHERE customer_id = ?", (customer_id,)
        )
        is not None,
        "store_credit_balance_cents": balance,
        "store_credit_balance": money(balance),
        "addresses": sb.query(
            "SELECT id, label, name, line1, line2, city, state, zip, country, is_default "
            "FROM addresses WHERE customer_id = ? ORDER BY is_default DESC, id",
            (customer_id,),
        ),
        "orders": [
            with_money(r, "total_cents")
            for r in sb.query(
                "SELECT id, status, placed_at, total_cents FROM orders WHERE customer_id = ? "
                "ORDER BY placed_at DESC, id DESC",
                (customer_id,),
            )
        ],
        "tickets": sb.query(
            "SELECT id, subject, status, created_at FROM tickets WHERE customer_id = ? "
            "ORDER BY created_at DESC, id DESC",
            (customer_id,),
        ),
    }


@environment.tool(kind="write")
def update_customer_contact(
    sb: Sandbox, customer_id: int, email: str | None = None, phone: str | None = None
) -> dict[str, Any]:
    """Change a customer's email address and/or phone number on the account.

    Policy: verify the customer's identity first (verify_identity).

    Args:
        customer_id: the customer's id.
        email: the new email address (optional).
        phone: the new phone number (optional).
    """
    cust = require_customer(sb, customer_id)
    if email is None and phone is None:
        raise ToolError("give `email` and/or `phone` to change")
    changes: dict[str, Any] = {}
    if email is not None:
        new_email = require_text(email, "email").lower()
        if not _EMAIL.match(new_email):
            raise ToolError(f"{email!r} is not a valid email address")
        other = sb.query_one(
            "SELECT id FROM customers WHERE LOWER(email) = ? AND id <> ?", (new_email, customer_id)
        )
        if other is not None:
            raise ToolError(
                f"email {new_email} already belongs to another account; "
                "accounts cannot share an email address"
            )
        changes["email"] = {"old": cust["email"], "new": new_email}
    if phone is not None:
        new_phone = require_text(phone, "phone")
        if len(_digits(new_phone)) < 10:
            raise ToolError(f"phone {phone!r} needs at least 10 digits, e.g. (303) 555-0142")
        changes["phone"] = {"old": cust["phone"], "new": new_phone}
    with transaction(sb):
        for col, change in changes.items():
            sb.db.execute(
                f"UPDATE customers SET {col} = ? WHERE id = ?", (change["new"], customer_id)
            )
        audit(sb, "customer.update_contact", "customer", customer_id, changes)
    return {"customer_id": customer_id, "updated": changes}
