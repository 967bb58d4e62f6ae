"""The gate's ``choices`` mutants also name the other carriers by their own services only
(``choices-i:K-own``): a check that takes "Priority Mail" for no carrier is found
(adversarial round 6, C1)."""

from __future__ import annotations

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.candidates import _snapshot_domains, subcategory_alternatives
from mcpgym_grading import grade_bundle
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import ToolCall, replay


def test_a_carrier_has_the_other_carriers_own_services_as_alternatives() -> None:
    assert subcategory_alternatives(helpdesk, "UPS") == [
        "Express",
        "Express Saver",
        "Ground Advantage",
        "Priority Mail",
    ]  # "Ground" is shared by UPS and FedEx: no alternative
    assert "2nd Day Air" in subcategory_alternatives(helpdesk, "USPS")
    assert "Priority Mail" in _snapshot_domains(helpdesk)["UPS"]


def test_codes_names_and_dates_refine_nothing() -> None:
    _snapshot_domains(ledger)
    for value in ("asset", "customer", "STD", "4000", "2026-06-01"):
        assert subcategory_alternatives(ledger, value) == []


def test_the_own_services_mutant_fails_the_carrier_check() -> None:
    v = helpdesk.variant("order-status", "easy", 0)
    own = [a for a in adversaries(helpdesk, v) if a.label.endswith("-own")]
    assert own and "Priority Mail" in own[0].values and own[0].role == "choices"
    bundle = replay(helpdesk, v.family, v.band, v.seed, [ToolCall(n, a) for n, a in own[0].calls])
    grade = grade_bundle(bundle, helpdesk, check_lock=False)
    results = {c.name: c.passed for c in grade.checks if c.applicable}
    assert results["reply-gives-carrier"] is False
