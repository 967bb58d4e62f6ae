"""Stop 20's known ledger holes of issue 9 (round 11, `adv/round11rub/known_ledger.py`):
each edit of a reference below passed at score 1.0 before; each honest edit passes.

- a note saying the entry was not reversed when it was, or claiming a reversal where
  nothing was reversed (`note-states-reversed`, the ``reverse`` action of
  `texts-claim-only-actions-taken`);
- a note naming another product or another party of the books than the record's
  (`note-names-no-other-product`, `texts-name-only-own-party`);
- write-off-bad-debt's escalation reason claiming the escalated invoice written off
  (`reason-states-not-written-off`);
- the reversal's memo naming another entry (correct-misposted-entry `memo-values-in-role`);
- claims in frames (``Done: post the bill``, ``✅ Refund the customer``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)

Edit = Callable[[TaskVariant, str], str]


def _failed(v: TaskVariant, tool: str, key: str, fn: Edit) -> list[str]:
    """The applicable checks failing on ``v``'s reference with ``fn`` applied to argument
    ``key`` of every ``tool`` call (the edit must change something)."""
    calls = [
        ToolCall(c.name, {**c.arguments, key: fn(v, c.arguments[key])}) if c.name == tool else c
        for c in v.reference
    ]
    assert calls != list(v.reference)
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    assert g.status == "graded", g.error
    return [c.name for c in g.checks if c.applicable and not c.passed]


def _other_party(name: str, *choices: str) -> str:
    return next(c for c in choices if c not in name)


WRONG: list[tuple[str, str, str, str, Edit, str]] = [
    (
        "accrue-expense",
        "easy",
        "add_note",
        "body",
        lambda v, b: re.sub(r", reversed on [\d-]+\.", ". Not reversed: it stays in June.", b),
        "note-states-reversed",
    ),
    (
        "correct-misposted-entry",
        "hard",
        "add_note",
        "body",
        lambda v, b: b.replace("Reversed on", "Not reversed; edited the line on"),
        "note-states-reversed",
    ),
    (
        "credit-returned-item",
        "medium",
        "add_note",
        "body",
        lambda v, b: b + " The original sale entry was reversed today.",
        "texts-claim-only-actions-taken",
    ),
    (
        "credit-returned-item",
        "easy",
        "add_note",
        "body",
        lambda v, b: re.sub(
            r"for (\d+) x (.*?) returned",
            lambda m: (
                f"for {m.group(1)} x "
                + ("Camp stove" if "stove" not in m.group(2) else "Rain shell")
                + " returned"
            ),
            b,
        ),
        "note-names-no-other-product",
    ),
    (
        "enter-vendor-bill",
        "easy",
        "add_note",
        "body",
        lambda v, b: re.sub(r"from ([A-Z][\w&' ]+?),", "from Swift Freight Lines,", b, count=1),
        "texts-name-only-own-party",
    ),
    (
        "apply-customer-payment",
        "easy",
        "add_note",
        "body",
        lambda v, b: re.sub(
            r"received from (.+?) on",
            lambda m: (
                "received from "
                + _other_party(m.group(1), "Kestrel Mountain Shop", "Osprey Coast Gear")
                + " on"
            ),
            b,
        ),
        "texts-name-only-own-party",
    ),
    (
        "write-off-bad-debt",
        "expert",
        "escalate",
        "reason",
        lambda v, b: b.replace(
            "please decide on the write-off.", "already written off; for your records."
        ),
        "reason-states-not-written-off",
    ),
    (
        "enter-vendor-bill",
        "hard",
        "escalate",
        "reason",
        lambda v, b: b.replace(v.params["vendor_ref"], v.params["vendor_ref"][:-1] + "0"),
        "reason-values-in-role",
    ),
    (
        "correct-misposted-entry",
        "easy",
        "reverse_journal_entry",
        "memo",
        lambda v, b: re.sub(r"entry (\d+)", lambda m: f"entry {int(m.group(1)) + 1}", b),
        "memo-values-in-role",
    ),
    (
        "enter-vendor-bill",
        "hard",
        "add_note",
        "body",
        lambda v, b: b + "\n\nDone: post the bill",
        "note-states-not-posted",
    ),
    (
        "credit-returned-item",
        "easy",
        "add_note",
        "body",
        lambda v, b: b + "\n\n\u2705 Refund the customer to their card",
        "texts-claim-only-actions-taken",
    ),
]


@pytest.mark.parametrize(("family", "band", "tool", "key", "fn", "check"), WRONG)
def test_a_known_hole_fails(
    family: str, band: str, tool: str, key: str, fn: Edit, check: str
) -> None:
    failed = _failed(environment.variant(family, band, 0), tool, key, fn)
    assert any(n.startswith(check) for n in failed), failed


HONEST: list[tuple[str, str, str, str, Edit]] = [
    (
        "accrue-expense",
        "hard",
        "add_note",
        "body",
        lambda v, b: re.sub(r", reversed on ([\d-]+)\.", r"; the reversal is posted on \1.", b),
    ),
    (
        "credit-returned-item",
        "hard",
        "add_note",
        "body",
        lambda v, b: re.sub(
            r"for (\d+) x (.*?) returned", lambda m: f"for {m.group(1)} {m.group(2).lower()}s", b
        ),
    ),
    (
        "correct-misposted-entry",
        "expert",
        "reverse_journal_entry",
        "memo",
        lambda v, b: b + f" (the wrong re-post of original entry {v.params['entry_id']})",
    ),
    (
        "correct-misposted-entry",
        "medium",
        "add_note",
        "body",
        lambda v, b: b.replace("Reversed on", "The wrong entry was reversed on"),
    ),
    (
        "write-off-bad-debt",
        "hard",
        "escalate",
        "reason",
        lambda v, b: b + " Nothing has been written off yet.",
    ),
]


@pytest.mark.parametrize(("family", "band", "tool", "key", "fn"), HONEST)
def test_an_honest_edit_passes(family: str, band: str, tool: str, key: str, fn: Edit) -> None:
    assert _failed(environment.variant(family, band, 0), tool, key, fn) == []


@pytest.mark.parametrize("band", ["easy", "medium", "expert"])
@pytest.mark.parametrize("vendor", ["Northwind Paper Supply", "Acme Logistics Ltd"])
def test_a_vendor_the_books_do_not_hold_fails(band: str, vendor: str) -> None:
    """Stop 21's open row: `from Northwind Paper Supply` (a vendor the books do not hold)
    passed at 1.0; its company words are read (`_names.COMPANY_WORDS`)."""
    failed = _failed(
        environment.variant("enter-vendor-bill", band, 0),
        "add_note",
        "body",
        lambda v, b: re.sub(r"from ([A-Z][\w&' ]+?),", f"from {vendor},", b, count=1),
    )
    assert "texts-name-only-own-party" in failed, failed


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
def test_a_note_quoting_the_bills_own_lines_and_vendor_passes(band: str) -> None:
    v = environment.variant("enter-vendor-bill", band, 0)
    lines = next(c for c in v.reference if c.name == "create_bill").arguments["lines"]
    said = "; ".join(str(x["description"]) for x in lines)
    calls = [
        ToolCall(c.name, {**c.arguments, "body": f"{c.arguments['body']} Lines: {said}."})
        if c.name == "add_note"
        else c
        for c in v.reference
    ]
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    assert g.passed and g.score == 1.0, [c.name for c in g.checks if c.passed is False]
