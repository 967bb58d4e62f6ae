"""change-shipping-address: the new address written with the USPS standard abbreviations of
its street suffix or unit word is the same address (adversarial round 9, F3: `Dogwood Ln`
failed `address-updated`); a different street suffix is still another address."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_helpdesk.families._addresses import STREET_ABBREVIATIONS
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
CASES = [(band, seed) for band in ("easy", "medium", "expert") for seed in range(3)]


def _abbreviate(line: str, dot: bool) -> str:
    for word, abbr in STREET_ABBREVIATIONS.items():
        line = re.sub(rf"\b{word}\b", abbr.capitalize() + ("." if dot else ""), line, flags=re.I)
    return line


def _other_suffix(line: str) -> str:
    words = line.split()
    words[-1] = "Road" if words[-1] != "Road" else "Lane"
    return " ".join(words)


def _address_check(band: str, seed: int, edit: Callable[[str], str]) -> tuple[bool, str, str]:
    variant = environment.variant("change-shipping-address", band, seed)
    calls: list[ToolCall] = []
    given = changed = ""
    for call in variant.reference:
        if call.name == "update_shipping_address":
            given = call.arguments["line1"]
            changed = edit(given)
            call = ToolCall(call.name, {**call.arguments, "line1": changed})
        calls.append(call)
    bundle = replay(environment, variant.family, band, seed, calls)
    grade = grade_bundle(bundle, environment, reference_cache=CACHE)
    check = next(c for c in grade.checks if c.name == "address-updated")
    return bool(check.passed), given, changed


@pytest.mark.parametrize("dot", [False, True], ids=["Ln", "Ln."])
@pytest.mark.parametrize(("band", "seed"), CASES)
def test_a_usps_abbreviated_suffix_is_the_same_address(band: str, seed: int, dot: bool) -> None:
    passed, given, changed = _address_check(band, seed, lambda s: _abbreviate(s, dot))
    assert given != changed or given.endswith(" Way"), "USPS keeps WAY as it is"
    assert passed, f"{given!r} written as {changed!r}"


@pytest.mark.parametrize(("band", "seed"), CASES)
def test_another_street_suffix_is_another_address(band: str, seed: int) -> None:
    passed, given, changed = _address_check(band, seed, _other_suffix)
    assert not passed, f"{given!r} written as {changed!r}"
