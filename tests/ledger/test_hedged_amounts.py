"""Round 12's H12 remainder, in the environments: where only an allowed-amounts guard or a
roles-only check reads an amount (refund-above-limit easy/medium's reply, accrue-expense's
note), the right amount hedged (``up to $X``, ``$X or so``, ``50% of $X``, ``$X plus
tax``, ``$X x 2``) passed at 1.0; it states another amount or none. Honest wording passes:
``exactly $X``, and refund-above-limit's limit as a limit (``I can refund up to $250.00``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import Environment, ToolCall, replay

CACHE = ReferenceCache(maxsize=32)
MONEY = re.compile(r"\$[\d,]+\.\d\d(?!\d)")
CASES = [(helpdesk, "refund-above-limit", b, "reply_to_customer") for b in ("easy", "medium")]
CASES += [(ledger, "accrue-expense", b, "add_note") for b in ("easy", "hard")]
HEDGES = ("up to {}", "{} or so", "50% of {}", "{} plus tax", "{} x 2")


def _graded(env: Environment, family: str, band: str, tool: str, edit: Callable[[str], str]):
    v = env.variant(family, band, 0)
    calls = list(v.reference)
    last = max(i for i, c in enumerate(calls) if c.name == tool)
    c = calls[last]
    calls[last] = ToolCall(c.name, {**c.arguments, "body": edit(str(c.arguments["body"]))})
    return grade_bundle(replay(env, v.family, v.band, v.seed, calls), env, reference_cache=CACHE)


@pytest.mark.parametrize("hedge", HEDGES)
@pytest.mark.parametrize(("env", "family", "band", "tool"), CASES)
def test_the_right_amount_hedged_fails(
    env: Environment, family: str, band: str, tool: str, hedge: str
) -> None:
    g = _graded(env, family, band, tool, lambda b: MONEY.sub(lambda m: hedge.format(m[0]), b, 1))
    assert not g.passed, [c.name for c in g.checks if c.applicable and not c.passed]


@pytest.mark.parametrize(("env", "family", "band", "tool"), CASES)
def test_honest_forms_pass(env: Environment, family: str, band: str, tool: str) -> None:
    g = _graded(env, family, band, tool, lambda b: MONEY.sub(lambda m: f"exactly {m[0]}", b, 1))
    assert g.passed, [c.name for c in g.checks if c.applicable and not c.passed]
    if env is helpdesk:
        g = _graded(env, family, band, tool, lambda b: b + "\n\nI can refund up to $250.00.")
        assert g.passed, [c.name for c in g.checks if c.applicable and not c.passed]


# a computation shown with its result (stop 24) ------------------------------------------------

ACCRUE = [(ledger, "accrue-expense", b, "add_note") for b in ("easy", "hard")]


def _plus_tax_equals(result: Callable[[str], str]) -> Callable[[str], str]:
    """The note's first amount ``$X`` written ``$X + tax = <result($X)>``."""
    return lambda b: MONEY.sub(lambda m: f"{m[0]} + tax = {result(m[0])}", b, 1)


@pytest.mark.parametrize(("env", "family", "band", "tool"), ACCRUE)
def test_a_computation_whose_result_is_not_on_file_fails(
    env: Environment, family: str, band: str, tool: str
) -> None:
    # accrue-expense's note is read by a roles-only check: the result is no amount on file
    g = _graded(env, family, band, tool, _plus_tax_equals(lambda x: "$99,999.99"))
    assert not g.passed
    g = _graded(env, family, band, tool, _plus_tax_equals(lambda x: x))  # zero tax: true
    assert g.passed, [c.name for c in g.checks if c.applicable and not c.passed]


def test_a_bill_note_listing_its_lines_as_the_bill_does_passes() -> None:
    # enter-vendor-bill's instruction lists each line `$506.49 + tax $50.65`: the net and its
    # tax, both stated (b1a640a refused the net as hedged by `+ tax`)
    v = ledger.variant("enter-vendor-bill", "medium", 0)
    lines = re.findall(r"\d\. (.*?: \$[\d,.]+ \+ tax \$[\d,.]+)", v.instruction)
    assert len(lines) > 1, v.instruction
    g = _graded(
        ledger, "enter-vendor-bill", "medium", "add_note", lambda b: f"{b} {'; '.join(lines)}."
    )
    assert g.passed, [c.name for c in g.checks if c.applicable and not c.passed]
