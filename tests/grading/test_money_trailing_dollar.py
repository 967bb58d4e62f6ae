"""A trailing `$` marks the number before it only when no number follows it (adversarial
round 10, FF2 and EV1): in `Dr 6600 $1,995.50` the `$` is $1,995.50's, and 6600 is no
amount; `45$`, `45 $ total` and `45$ or 50$` read as before."""

from __future__ import annotations

import pytest

from mcpgym_grading._money import money_mentions


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("Dr 6600 $1,995.50; Cr 2100 $1,995.50", [199550, 199550]),
        ("INV-2026-0041 $590.70", [59070]),
        ("Qty 2 $23.50 each", [2350]),
        ("- Order #100440 $249.00 refunded", [24900]),
        ("Payment 700589 $102.51 refunded", [10251]),
        ("Refund total: 102.51 $205.03.", [20503]),  # EV1: the bare figure took the `$`
        ("0 $205.03", [20503]),
        ("45$", [4500]),
        ("45 $ total", [4500]),
        ("45$ or 50$", [4500, 5000]),
        ("45$, then $50", [4500, 5000]),
    ],
)
def test_a_dollar_sign_before_a_number_is_that_numbers(text: str, cents: list[int]) -> None:
    assert [int(m.cents) for m in money_mentions(text)] == cents
