"""No shortcut to a pass in ledger's note checks ("contains is not states").

A note listing every candidate amount of the party's documents contains the right one too;
`note_says_money` must not read that as stating it. These replay the ship gate's own
adversarial mutants (condition 7, `mcpgym_clients.instrument.adversarial`) and hand-written
notes, and grade them in process.
"""

from __future__ import annotations

import re
from typing import cast

import pytest

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_grading import Grade, ReferenceCache, Rubric, grade_bundle
from mcpgym_ledger import environment
from mcpgym_ledger.families._common import money
from mcpgym_server import SUBMIT_TOOL, TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=256)

NOTE_CHECKS = {
    "apply-customer-payment": ("note-states-amount", "note-states-credit"),
    "credit-returned-item": ("note-states-amount",),
    "enter-vendor-bill": ("note-states-amount",),
    "write-off-bad-debt": ("note-states-amount", "note-states-escalated-amount"),
}
CASES = [
    (f, b, s) for f in NOTE_CHECKS for b in ("easy", "medium", "hard", "expert") for s in (0, 1)
]
IDS = [f"{f}@{b}#{s}" for f, b, s in CASES]


def grade_calls(v: TaskVariant, calls: list[tuple[str, dict]]) -> Grade:
    body = [ToolCall(n, a) for n, a in calls if n != SUBMIT_TOOL]
    answers = [a.get("answer") for n, a in calls if n == SUBMIT_TOOL]
    bundle = replay(
        environment, v.family, v.band, v.seed, body, answer=answers[0] if answers else None
    )
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def results(g: Grade) -> dict[str, bool]:
    return {c.name: c.passed for c in g.checks if c.applicable}


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=IDS)
def test_a_note_listing_every_candidate_amount_states_none(
    family: str, band: str, seed: int
) -> None:
    """`amounts-i`: the reference's note plus every candidate amount fails each note check
    that reads it (before the fix: graded passed at 1.0)."""
    v = environment.variant(family, band, seed)
    ref = results(grade_calls(v, [(c.name, dict(c.arguments)) for c in v.reference]))
    checks = [n for n in NOTE_CHECKS[family] if n in ref]
    assert checks and all(ref[n] for n in checks)
    advs = adversaries(environment, v)
    tried = 0
    for adv in [a for a in advs if a.role == "amounts" and "@" not in a.label]:
        blank = next(a for a in advs if a.label == f"blank-{adv.group}")
        reading = [n for n in checks if not results(grade_calls(v, blank.calls))[n]]
        if not reading:
            continue  # a field no note check reads (a credit note's reason, say)
        tried += 1
        got = results(grade_calls(v, adv.calls))
        passed = [n for n in reading if got[n]]
        assert not passed, f"{adv.label} ({len(adv.values)} amounts) passes {passed}"
    assert tried or family == "enter-vendor-bill"  # its easy..hard notes have no candidates


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=IDS)
def test_candidate_amounts_cut_across_notes_still_count(family: str, band: str, seed: int) -> None:
    """`amounts-i~split`: the same amounts spread over several notes, each long one cut
    between two (``$1,7`` then ``91.83``), fail the note check as the plain list does
    (before the fix: enter-vendor-bill@expert's one candidate evaded it)."""
    v = environment.variant(family, band, seed)
    advs = {a.label: a for a in adversaries(environment, v)}
    for adv in [a for a in advs.values() if a.role == "split" and a.base.startswith("amounts-")]:
        blank = results(grade_calls(v, advs[f"blank-{adv.group}"].calls))
        reading = [n for n in NOTE_CHECKS[family] if blank.get(n) is False]
        got = results(grade_calls(v, adv.calls))
        passed = [n for n in reading if got.get(n)]
        assert not passed, f"{adv.label} passes {passed}, which read field {adv.group}"


def _with_note(v: TaskVariant, extra: str) -> list[tuple[str, dict]]:
    calls = [(c.name, dict(c.arguments)) for c in v.reference]
    i = next(i for i, (n, _a) in enumerate(calls) if n == "add_note")
    name, args = calls[i]
    calls[i] = (name, {**args, "body": f"{args['body']} {extra}"})
    return calls


def test_write_off_note_quoting_the_invoice_net_beside_the_amount_fails() -> None:
    """A hand-written shotgun of two: the note names the amount written off and, beside it,
    the invoice's net amount (another candidate the agent read)."""
    v = environment.variant("write-off-bad-debt", "easy", 0)
    bundle = replay(environment, v.family, v.band, v.seed, list(v.reference))
    invoice = next(e.result for e in bundle.log if e.tool == "get_invoice")
    assert invoice["net_cents"] != v.params["write_off_cents"]
    got = results(grade_calls(v, _with_note(v, f"(Net {money(invoice['net_cents'])}.)")))
    assert not got["note-states-amount"]
    assert got["note-left"]


def test_a_note_stating_only_what_the_reference_states_passes() -> None:
    """The allowed amounts (`note_amounts`: the other allocations, the policy limit) are no
    candidates: restating them beside the amount still passes, each in its role (the
    invoice it went to, `_note_roles`; round 9 N2': unbound, it states no allocation)."""
    v = environment.variant("apply-customer-payment", "medium", 0)
    note = next(c.arguments["body"] for c in v.reference if c.name == "add_note")
    pairs = re.findall(r"(\$[\d,]+\.\d\d) applied to (INV-\d{4}-\d{4})", note)
    assert len(pairs) == 2
    extra = "Allocated " + " and ".join(f"{a} to {n}" for a, n in pairs) + "."
    got = results(grade_calls(v, _with_note(v, extra)))
    assert got["note-states-amount"]
    bare = "Allocated " + " and ".join(a for a, _n in pairs) + "."
    assert not results(grade_calls(v, _with_note(v, bare)))["note-states-amount"]


@pytest.mark.parametrize("band", ["easy", "hard", "expert"])
@pytest.mark.parametrize(
    "listing",
    [
        "It belongs to January, February, March, April or June.",
        "Periods 2026-01, 2026-02, 2026-03.",
        "It may belong to ｊａｎｕａｒｙ.",
    ],
)
def test_a_note_naming_every_period_names_none(band: str, listing: str) -> None:
    """`note-names-the-period` is a text match with alternatives (the other months): a note
    naming them all beside April does not say which period the posting belongs to."""
    v = environment.variant("closed-period-posting", band, 0)
    assert results(grade_calls(v, [(c.name, dict(c.arguments)) for c in v.reference]))[
        "note-names-the-period"
    ]
    assert not results(grade_calls(v, _with_note(v, listing)))["note-names-the-period"]


@pytest.mark.parametrize(("family", "band", "seed"), CASES[::3], ids=IDS[::3])
def test_a_note_stating_the_amount_beside_a_near_miss_states_none(
    family: str, band: str, seed: int
) -> None:
    v = environment.variant(family, band, seed)
    rubric = cast(Rubric, environment.families[family].rubric)
    applicable = results(grade_calls(v, [(c.name, dict(c.arguments)) for c in v.reference]))
    for name in [n for n in NOTE_CHECKS[family] if n in applicable]:
        check = next(c for c in rubric.checks if c.name == name)
        right = v.params[check.expected.name]  # type: ignore[union-attr]
        calls = [(c.name, dict(c.arguments)) for c in v.reference]
        for i, (tool, args) in enumerate(calls):  # the note that states the amount
            if tool == "add_note" and money(right) in args["body"]:
                calls[i] = (tool, {**args, "body": f"{args['body']} (or {money(right + 1)})"})
        assert not results(grade_calls(v, calls))[name], name


@pytest.mark.parametrize(
    "listing",
    ["Periods 2026\u201401 and 2026\u300003.", "Period 2 0 2 6 - 0 1.", "Period 2026 \u2012 12."],
)
def test_a_period_split_by_any_space_or_dash_is_still_named(listing: str) -> None:
    v = environment.variant("closed-period-posting", "easy", 0)
    assert not results(grade_calls(v, _with_note(v, listing)))["note-names-the-period"]
    # an invoice number is no period
    assert results(grade_calls(v, _with_note(v, "See INV-2026-0151.")))["note-names-the-period"]


@pytest.mark.parametrize(
    "listing",
    [
        "It belongs to Apr (or Jan, Feb, Mar, Jun).",
        "Maybe Sept.",
        "Or Oct, Nov or Dec.",
        "Or \u1d0a\u1d1c\u0274\u1d07.",  # small capitals
    ],
)
def test_a_month_abbreviated_or_in_small_capitals_is_still_named(listing: str) -> None:
    v = environment.variant("closed-period-posting", "medium", 0)
    assert not results(grade_calls(v, _with_note(v, listing)))["note-names-the-period"]
    # the right month's abbreviation, and words holding an abbreviation, are no other month
    fine = "Apr, May: separately marked, decided."
    assert results(grade_calls(v, _with_note(v, fine)))["note-names-the-period"]


def _with_reason(v: TaskVariant, extra: str) -> list[tuple[str, dict]]:
    out = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "ignore_bank_line":
            args["reason"] = f"{args['reason']} {extra}"
        out.append((c.name, args))
    return out


@pytest.mark.parametrize("band", ["hard", "expert"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_duplicate_reason_naming_every_line_names_none(band: str, seed: int) -> None:
    """The duplicate's reason listing every bank line the agent was shown (the task's lines,
    the feed's other unmatched ones) beside the line it repeats names none: the required
    shotgun guard fails it, and the grade (before: passed)."""
    v = environment.variant("reconcile-bank-lines", band, seed)
    shown = [
        int(r)
        for r in cast(str, v.params["line_states_json"]).strip("[]").split(", ")
        if int(r) != v.params["duplicate_line_id"]
    ]
    bundle = replay(environment, v.family, v.band, v.seed, list(v.reference))
    db = bundle.open_final_db()
    try:
        unmatched = [
            r[0] for r in db.execute("SELECT id FROM bank_lines WHERE status = 'unmatched'")
        ]
    finally:
        db.close()
    for listing in (shown, unmatched):
        extra = "(or one of lines " + ", ".join(map(str, sorted(set(listing)))) + ")"
        g = grade_calls(v, _with_reason(v, extra))
        assert results(g)["duplicate-reason-names-no-other-line"] is False, (listing, g)
        assert not g.passed
    got = results(grade_calls(v, _with_reason(v, "")))
    assert got["duplicate-reason-names-line"] and got["duplicate-reason-names-no-other-line"]
