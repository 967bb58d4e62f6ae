"""``fact-i-N`` mutants (issue 9, round 10's F1, F2, F5): one non-amount value an answer
field states (a date, an order or invoice number, an account, a card's last four) replaced
by another of its kind. Every such mutant of the registered families' references fails a
check: the gate reports one graded passed with no check failing."""

from __future__ import annotations

import pytest

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.fact import (
    FACT_FAMILIES,
    MAX_DATES,
    _derived,
    date_candidates,
    dates_finding,
    fact_finding,
)
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import Environment, ToolCall, replay

CACHE = ReferenceCache(maxsize=32)


def test_derived_values_keep_the_shape() -> None:
    assert _derived("100510") == "100511"
    assert _derived("INV-2026-0159") == "INV-2026-0150"
    assert _derived("2026-06-15") == "2026-06-14"
    assert _derived("2026-06-01") == "2026-06-02"


def test_a_passing_fact_mutant_is_a_finding() -> None:
    ok = {"passed": True, "score": 1.0, "checks": [{"applicable": True, "passed": True}]}
    line = fact_finding("v", "fact-5-1", "5", ("date", "2026-06-15", "2026-06-14"), ok)
    assert "wrong fact passes" in line and "2026-06-14" in line
    failed = {**ok, "passed": False}
    assert fact_finding("v", "fact-5-1", "5", ("date", "a", "b"), failed) == ""


@pytest.mark.parametrize(
    ("env", "family"),
    [(helpdesk, f) for f in sorted(FACT_FAMILIES) if f in helpdesk.families]
    + [(ledger, f) for f in sorted(FACT_FAMILIES) if f in ledger.families],
)
def test_every_fact_mutant_of_a_registered_family_fails(env: Environment, family: str) -> None:
    # easy first; the bands after it where easy's texts state no value of a kind read
    # (credit-returned-item's earlier credit note, reconcile-bank-lines' bank line ids)
    seen = 0
    for band in ("easy", "expert"):
        v = env.variant(family, band, 0)
        mutants = [a for a in adversaries(env, v) if a.role == "fact"]
        seen += len(mutants)
        for a in mutants:
            calls = [ToolCall(n, args) for n, args in a.calls]
            assert calls != list(v.reference), a.label  # the mutant changes the field
            g = grade_bundle(replay(env, family, band, 0, calls), env, reference_cache=CACHE)
            assert not g.passed, (band, a.label, a.values)
        if seen:
            break
    assert seen


def test_fact_mutants_are_registered_for_every_ledger_family() -> None:
    # stop 20 registered only apply-customer-payment and write-off-bad-debt
    assert set(ledger.families) <= FACT_FAMILIES


@pytest.mark.parametrize("family", ["duplicate-charge", "exchange-size"])
def test_the_own_facts_check_fails_a_fact_mutant(family: str) -> None:
    # stop 21: `replies-state-own-facts` was vacuous here (condition 4) while no fact mutant
    # was made; exchange-size's only stated order is the replacement, whose other value is
    # the episode's own original order: a derived one (held nowhere) is made too
    v = helpdesk.variant(family, "easy", 0)
    failing: set[str] = set()
    for a in adversaries(helpdesk, v):
        if a.role != "fact":
            continue
        calls = [ToolCall(n, args) for n, args in a.calls]
        g = grade_bundle(
            replay(helpdesk, family, "easy", 0, calls), helpdesk, reference_cache=CACHE
        )
        failing |= {c.name for c in g.checks if c.passed is False}
    assert {"replies-state-own-facts", "replies-state-own-words"} <= failing


def test_word_facts_replace_the_greeting_and_the_brand() -> None:
    from mcpgym_clients.instrument.fact import _word_facts

    text = "Hi Olivia,\n\nI've refunded $45.00 to your Visa card ending in 7333."
    got = {(k, old, new) for k, old, new, _ in _word_facts(text)}
    assert got == {("name", "Olivia", "Alex"), ("brand", "Visa", "Mastercard")}
    assert _word_facts("Hi Alex,")[0][2] == "Sam"


def test_a_derived_value_is_no_value_the_episode_holds() -> None:
    # reconcile-bank-lines expert: 188 -> 189 was the duplicate line itself (a fact mutant
    # naming the episode's own line passed; a made-up value must be held nowhere)
    from mcpgym_clients.instrument.fact import _derived

    assert _derived("188") == "189"
    assert _derived("188", frozenset({"189"})) == "180"
    assert _derived("2026-06-15", frozenset({"2026-06-14"})) == "2026-06-16"


# -- dates-i: a field stating dates also lists others (stop 25) --------------------------------


def test_date_candidates_are_the_neighbours_then_the_dates_on_file() -> None:
    v = ledger.variant("accrue-expense", "easy", 0)
    text = "Accrued on 2026-05-31, reversed on 2026-06-01."
    assert date_candidates(v, {}, text) == ["2026-05-30", "2026-06-02"]
    assert date_candidates(v, {}, "Accrued the May expenses.") == []  # states no date
    found = date_candidates(v, {"entry_date": [f"2026-04-{d:02}" for d in range(1, 20)]}, text)
    assert found[:2] == ["2026-05-30", "2026-06-02"] and len(found) == MAX_DATES


def test_a_passing_dates_mutant_is_a_finding() -> None:
    ok = {"passed": True, "score": 1.0, "checks": [{"applicable": True, "passed": True}]}
    line = dates_finding("v", "dates-3", "3", ("2026-06-14", "2026-06-16"), ok)
    assert "shotgun of dates passes" in line and "2026-06-14, 2026-06-16" in line
    failing = {**ok, "checks": [{"applicable": True, "passed": False}]}
    assert dates_finding("v", "dates-3", "3", ("2026-06-14",), failing) == ""


DATED = [
    (ledger, f)
    for f in (
        "accrue-expense",
        "apply-customer-payment",
        "closed-period-posting",
        "correct-misposted-entry",
        "enter-vendor-bill",
    )
] + [(helpdesk, "order-status")]


@pytest.mark.parametrize(("env", "family"), DATED, ids=[f for _, f in DATED])
def test_every_dates_mutant_of_a_dated_family_fails_a_check(env: Environment, family: str) -> None:
    seen = 0
    for band in ("easy", "expert"):
        v = env.variant(family, band, 0)
        for a in [a for a in adversaries(env, v) if a.role == "dates"]:
            seen += 1
            g = grade_bundle(
                replay(env, family, band, 0, [ToolCall(n, args) for n, args in a.calls]),
                env,
                reference_cache=CACHE,
            )
            grade = g.model_dump()
            assert dates_finding(family, a.label, a.group, a.values, grade) == "", a.values
    assert seen


@pytest.mark.parametrize("seed", [0, 1])
def test_a_dates_mutant_of_cancel_order_fails_a_check(seed: int) -> None:
    # D15-2 (stop 25): with the ETA alone among its date roles, the day before it listed
    # beside it lay outside the record's span and `dates-3` passed at 1.000; the orders'
    # shipped and placed dates are roles now
    v = helpdesk.variant("cancel-order", "hard", seed)
    (a,) = [a for a in adversaries(helpdesk, v) if a.role == "dates"]
    calls = [ToolCall(n, args) for n, args in a.calls]
    g = grade_bundle(replay(helpdesk, "cancel-order", "hard", seed, calls), helpdesk)
    assert dates_finding("cancel-order", a.label, a.group, a.values, g.model_dump()) == ""
