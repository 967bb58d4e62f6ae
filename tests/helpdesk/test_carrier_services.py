"""order-status `reply-gives-carrier`: another carrier named by its service ("Priority
Mail", "2nd Day Air", "Express Saver") or a synonym ("the post office") competes with the
right one; a carrier bound to a return label does not (adversarial round 6, C1/C2), but only
the mention next to the return cue: another claim in its sentence, or a reference back to
the carrier, is read (round 7, R1/R2)."""

from __future__ import annotations

import pytest

from mcpgym_grading._values import _sql_without
from mcpgym_helpdesk import environment
from tests.helpdesk.test_families import _reply_bodies, failed_checks, grade

OTHER_SERVICE = {
    "UPS": ("Priority Mail", "the post office", "Express Saver"),
    "DHL": ("Priority Mail", "2nd Day Air", "Express Saver", "the post office"),
    "FedEx": ("2nd Day Air", "Priority Mail"),
    "USPS": ("2nd Day Air", "Express Saver"),
}


def _variants() -> list:
    return [environment.variant("order-status", b, s) for b in ("easy", "medium") for s in (0, 1)]


@pytest.mark.parametrize("index", range(4))
def test_another_carriers_service_name_is_a_shotgun(index: int) -> None:
    v = _variants()[index]
    carrier = v.params["carrier"]
    for service in OTHER_SERVICE[carrier]:
        text = f"It ships with {carrier} (or {service}, if the label was switched)."
        if service[0].isdigit():  # the gate's minus form alone: "-2nd Day Air"
            text = f"It ships with {carrier} (or -{service})."
        g = grade(v, _reply_bodies(v, lambda body, t=text: f"{body} {t}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == ["reply-gives-carrier"], (service, failed_checks(g))


@pytest.mark.parametrize("index", range(4))
def test_a_return_labels_carrier_is_not_the_shipments(index: int) -> None:
    v = _variants()[index]
    text = "If you ever need to send it back, we email a prepaid USPS return label."
    g = grade(v, _reply_bodies(v, lambda body: f"{body} {text}"))
    assert g.status == "graded", g.error
    assert failed_checks(g) == []


def test_without_drops_only_sentences_with_a_drop_cue_and_no_keep_cue() -> None:
    text = "It ships with UPS. We email a USPS return label.\nIt ships UPS or USPS for returns."
    out = _sql_without(text, "return label,returns", "ships")
    assert out == "It ships with UPS.\nIt ships UPS or USPS for returns."
    assert _sql_without(None, "x", "y") is None


OTHER = {"UPS": "FedEx", "FedEx": "DHL", "USPS": "FedEx", "DHL": "FedEx"}

SHOTGUNS = [
    "Return label is {o}; the parcel could be with them as well.",
    "Return label is {o}. The parcel could be with them as well.",
    "We email a prepaid USPS return label, or {o}.",
    "We email a {o} return label; it may ship with them.",
    "The package could be with {o} for returns.",
    "We email a {o} DHL UPS USPS return label.",
    "Return shipping is via {o} or the post office.",
    "Return label is {o}, the parcel too.",
]

HONEST = [
    "If you need to return the order, we email a prepaid {o} return label.",
    "Returns go through {o}: we email a prepaid return label.",
    "For returns, we use {o}.",
    "{o} handles returns.",
    "You may send it back with our prepaid {o} return label.",
    "We also include a {o} Ground return label.",
    "If you want a refund or an exchange, send it back with the prepaid {o} return label.",
    "We email a prepaid {o} return label. They are free.",
]


@pytest.mark.parametrize("form", SHOTGUNS)
def test_another_claim_beside_a_return_label_is_read(form: str) -> None:
    for v in _variants():
        text = form.format(o=OTHER[v.params["carrier"]])
        g = grade(v, _reply_bodies(v, lambda body, t=text: f"{body}\n\n{t}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == ["reply-gives-carrier"], (text, failed_checks(g))


@pytest.mark.parametrize("form", HONEST)
def test_a_return_labels_carrier_in_other_words_is_not_the_shipments(form: str) -> None:
    for v in _variants():
        text = form.format(o=OTHER[v.params["carrier"]])
        g = grade(v, _reply_bodies(v, lambda body, t=text: f"{body}\n\n{t}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == [], (text, failed_checks(g))
