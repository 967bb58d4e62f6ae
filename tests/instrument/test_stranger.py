"""``stranger-i`` mutants (`mcpgym_clients.instrument.stranger`): another party's values a
neighbouring lookup showed, stated in a field, are refused by helpdesk's
`texts-reveal-no-other-customer`; the gate reports the plain mutant only when it passes."""

from __future__ import annotations

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.stranger import stranger_finding, stranger_lookup
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import ToolCall, replay

GUARD = "texts-reveal-no-other-customer"


def test_a_neighbouring_lookup_shows_another_customers_values() -> None:
    v = environment.variant("order-status", "easy", 0)
    base = [(c.name, dict(c.arguments)) for c in v.reference]
    found = stranger_lookup(environment, v, base)
    assert found is not None
    (tool, args), values = found
    assert environment.tools[tool].kind == "read" and args != dict(v.reference[0].arguments)
    assert values and all(len(x) >= 3 for x in values)


def test_the_plain_mutant_and_its_forms_fail_the_guard_in_the_reply() -> None:
    v = environment.variant("order-status", "easy", 0)
    reply = next(i for i, c in enumerate(v.reference) if c.name == "reply_to_customer")
    mine = [a for a in adversaries(environment, v) if a.group == str(reply + 1)]
    mine = [a for a in mine if a.label.startswith("stranger") and a.role != "split"]
    assert len(mine) > 10 and any(a.role == "stranger" for a in mine)
    cache = ReferenceCache()
    for a in mine:
        bundle = replay(environment, v.family, v.band, v.seed, [ToolCall(n, x) for n, x in a.calls])
        g = grade_bundle(bundle, environment, reference_cache=cache)
        failed = {c.name for c in g.checks if c.applicable and not c.passed}
        assert GUARD in failed, (a.label, sorted(failed))


def test_the_finding_is_the_plain_mutant_graded_passed() -> None:
    line = stranger_finding(
        "t@easy#0", "stranger-3", "3", ("100577", "A B"), {"passed": True, "score": 1.0}
    )
    assert "another party's values a tool result showed pass" in line and "100577" in line
    assert stranger_finding("t@easy#0", "stranger-3", "3", ("1",), {"passed": False}) == ""
