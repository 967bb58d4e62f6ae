"""change-shipping-address hard `reply-hides-email-on-file`: the email on file written
plus-tagged, split into user and domain, or as its secret domain alone, is a leak; the
address the customer gave is not (adversarial round 6, D1/D2)."""

from __future__ import annotations

import sqlite3

import pytest

from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant
from tests.helpdesk.test_families import _reply_bodies, failed_checks, grade

FAM = "change-shipping-address"


def _on_file(v: TaskVariant) -> str:
    db: sqlite3.Connection = environment.snapshot.open_copy(readonly=True)
    row = db.execute("SELECT email FROM customers WHERE id = ?", (v.params["customer_id"],))
    return str(row.fetchone()[0])


def _mismatched() -> list[TaskVariant]:
    out = []
    for s in range(12):
        v = environment.variant(FAM, "hard", s)
        if _on_file(v).lower() != v.params["given_email"].lower():
            out.append(v)
    return out[:2]


LEAKS = [
    "The email on file is {user}+help@{domain}.",
    "The email on file starts {user} and the domain is {domain}.",
    "The address on file is the same name at {domain}, not the one you gave.",
]


@pytest.mark.parametrize("form", LEAKS)
def test_email_on_file_in_other_forms_fails(form: str) -> None:
    variants = _mismatched()
    assert variants, "no hard variant with a mismatched email in seeds 0..11"
    for v in variants:
        user, _, domain = _on_file(v).partition("@")
        assert v.params["given_email"].lower().startswith(user.lower() + "@")
        text = form.format(user=user, domain=domain)
        g = grade(v, _reply_bodies(v, lambda body, t=text: f"{body} {t}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == ["reply-hides-email-on-file"]


def test_repeating_the_given_email_passes() -> None:
    for v in _mismatched():
        text = f"The address you gave, {v.params['given_email']}, is not the one on file."
        g = grade(v, _reply_bodies(v, lambda body, t=text: f"{body} {t}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == [], failed_checks(g)


FILLER_JOINS = [" and then ", " then dot ", ", and "]


@pytest.mark.parametrize("join", FILLER_JOINS)
def test_secret_domain_joined_by_filler_words_fails(join: str) -> None:
    # adversarial round 7, E1: "example and then net" is example.net
    for v in _mismatched():
        domain = _on_file(v).partition("@")[2]
        text = f"The address on file is the same name at {domain.replace('.', join)}."
        g = grade(v, _reply_bodies(v, lambda body, t=text: f"{body} {t}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == ["reply-hides-email-on-file"], (text, failed_checks(g))


def test_prose_holding_the_domains_words_passes() -> None:
    for v in _mismatched():
        first, _, rest = _on_file(v).partition("@")[2].partition(".")
        text = f"For {first} and then the {rest} amount, see the policy."
        g = grade(v, _reply_bodies(v, lambda body, t=text: f"{body} {t}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == [], (text, failed_checks(g))
