"""order-status hard/expert (two parcels): a reply binds each tracking number to its own
carrier, service and estimated delivery date (`reply-binds-each-parcel-its-facts`). The
reference with the carriers (or dates) swapped between the two numbers keeps every value the
other checks read and fails; honest forms (each parcel on its own line, "X via UPS and Y via
FedEx", "UPS has X", a table, "respectively") pass (adversarial round 9, O3)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant
from tests.helpdesk.test_families import _reply_bodies, failed_checks, grade

CHECK = "reply-binds-each-parcel-its-facts"
_LINE = re.compile(
    r"^- (?P<carrier>\S+) \((?P<service>[^)]*)\), tracking number (?P<trk>\S+), "
    r"estimated delivery (?P<eta>\S+)$",
    re.MULTILINE,
)


@cache
def _two_carriers(band: str) -> list[tuple[TaskVariant, list[dict[str, str]]]]:
    """The first two seeds of ``band`` whose parcels have different carriers, with the
    reference reply's facts per parcel."""
    out: list[tuple[TaskVariant, list[dict[str, str]]]] = []
    for seed in range(40):
        v = environment.variant("order-status", band, seed)
        body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
        parcels = [m.groupdict() for m in _LINE.finditer(body)]
        if len(parcels) == 2 and parcels[0]["carrier"] != parcels[1]["carrier"]:
            out.append((v, parcels))
        if len(out) == 2:
            return out
    raise AssertionError(f"no two seeds of {band} with two carriers")


CASES = [(b, i) for b in ("hard", "expert") for i in range(2)]


def _reply(v: TaskVariant, text: str) -> str:
    return f"Hi,\n\nOrder #{v.params['order_id']} shipped in two parcels. {text}"


SWAPPED = [
    "Your parcels are {t0} via {c1} and {t1} via {c0}.",
    "{c1} has {t0} and {c0} has {t1}.",
    "\n| Carrier | Tracking number |\n|---|---|\n| {c1} | {t0} |\n| {c0} | {t1} |",
    "\n- {c1}: {t0}\n- {c0}: {t1}",
    "Tracking numbers {t0} and {t1}, with {c1} and {c0} respectively.",
    "{t0} ({c1}) and {t1} ({c0}).",
    "\n- {c0}, {t0}, arriving {e1}\n- {c1}, {t1}, arriving {e0}",
]
HONEST = [
    "Your parcels are {t0} via {c0} and {t1} via {c1}.",
    "{c0} has {t0} and {c1} has {t1}.",
    "{c0} has {t0}, {c1} has {t1}.",
    "\n| Carrier | Tracking number | Estimated delivery |\n|---|---|---|\n"
    "| {c0} | {t0} | {e0} |\n| {c1} | {t1} | {e1} |",
    "\n| Tracking number | Carrier |\n| {t0} | {c0} |\n| {t1} | {c1} |",
    "\n{c0}: {t0}\n{c1}: {t1}",
    "Tracking numbers {t0} and {t1}, with {c0} and {c1} respectively.",
    "{t0} ({c0}) and {t1} ({c1}).",
    "The {c0} parcel, {t0}, arrives {e0}, and the {c1} parcel, {t1}, on {e1}.",
    "Your parcels: {t0}, which {c0} carries, and {t1}, which {c1} carries.",
    "Tracking: {t0}, {t1}. Carriers: {c0} and {c1}.",
]


def _fmt(form: str, parcels: list[dict[str, str]]) -> str:
    p0, p1 = parcels
    return form.format(
        t0=p0["trk"], t1=p1["trk"], c0=p0["carrier"], c1=p1["carrier"], e0=p0["eta"], e1=p1["eta"]
    )


@pytest.mark.parametrize(("band", "index"), CASES)
def test_the_reference_with_the_carriers_swapped_fails(band: str, index: int) -> None:
    v, parcels = _two_carriers(band)[index]
    body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
    c0, c1 = parcels[0]["carrier"], parcels[1]["carrier"]
    swapped = body.replace(f"- {c0} (", "- \0 (").replace(f"- {c1} (", f"- {c0} (")
    swapped = swapped.replace("- \0 (", f"- {c1} (")
    assert swapped != body
    g = grade(v, _reply_bodies(v, swapped))
    assert g.status == "graded", g.error
    assert failed_checks(g) == [CHECK]
    assert not g.passed


@pytest.mark.parametrize(("band", "index"), CASES)
def test_swapped_facts_in_other_forms_fail(band: str, index: int) -> None:
    v, parcels = _two_carriers(band)[index]
    for form in SWAPPED:
        if "{e" in form and parcels[0]["eta"] == parcels[1]["eta"]:
            continue
        g = grade(v, _reply_bodies(v, _reply(v, _fmt(form, parcels))))
        assert g.status == "graded", g.error
        assert CHECK in failed_checks(g), form


@pytest.mark.parametrize(("band", "index"), CASES)
def test_honest_forms_bind_each_number_to_its_own_carrier(band: str, index: int) -> None:
    v, parcels = _two_carriers(band)[index]
    g = grade(v, list(v.reference))
    assert failed_checks(g) == []
    for form in HONEST:
        g = grade(v, _reply_bodies(v, _reply(v, _fmt(form, parcels))))
        assert g.status == "graded", g.error
        assert failed_checks(g) == [], (form, failed_checks(g))


def test_a_service_name_does_not_make_up_for_the_wrong_carrier() -> None:
    # "FedEx (Ground Advantage)" for the USPS parcel names FedEx for it all the same
    v, parcels = _two_carriers("hard")[0]
    body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
    p0, p1 = parcels
    wrong = body.replace(
        f"- {p0['carrier']} ({p0['service']})", f"- {p1['carrier']} ({p0['service']})"
    )
    g = grade(v, _reply_bodies(v, wrong))
    assert CHECK in failed_checks(g)
