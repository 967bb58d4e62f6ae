"""order-status `reply-gives-carrier`: another carrier named by its service ("Priority
Mail", "2nd Day Air", "Express Saver") or a synonym ("the post office") competes with the
right one; a carrier bound to a return label does not (adversarial round 6, C1/C2)."""

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
