"""``flip-i`` mutants: another band's text (another outcome) in field ``i`` (round 9, G1):
built from the family's own references, failed by the decision checks, and reported by the
gate where nothing reads the decision."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from mcpgym_clients.instrument.adversarial import adversaries, shortcut_failures
from mcpgym_clients.instrument.flip import framed_finding, rewrite
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_grading._claim_frames import FRAMES
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import Environment, ToolCall, replay

CACHE = ReferenceCache(maxsize=16)


def test_rewrite_carries_values_with_digits_over_and_keeps_words() -> None:
    theirs = {"order_id": 100570, "refund_cents": 4500, "status": "posted", "x": 7}
    ours = {"order_id": 100494, "refund_cents": 12345, "status": "draft", "x": 8}
    text = "Order #100570 is cancelled; $45.00 (4500) posted, 7 days."
    assert (
        rewrite(text, theirs, ours) == "Order #100494 is cancelled; $123.45 (12345) posted, 7 days."
    )


def test_rewrite_never_rewrites_a_new_value() -> None:
    assert rewrite("#111 and #222", {"a": 111, "b": 222}, {"a": 222, "b": 333}) == "#222 and #333"


def _jobs(band: str) -> list[Any]:
    variant = helpdesk.variant("cancel-order", band, 0)
    jobs = []
    for adv in adversaries(helpdesk, variant):
        if adv.role not in ("flip", "blank"):
            continue
        calls = [ToolCall(n, a) for n, a in adv.calls if n != "submit"]
        bundle = replay(helpdesk, "cancel-order", band, 0, calls)
        grade = grade_bundle(bundle, helpdesk, reference_cache=CACHE)
        record = SimpleNamespace(
            grade=grade.model_dump(mode="json"),
            transcript=[{"mcpgym_is_error": e.status != "ok"} for e in bundle.log],
        )
        jobs.append(
            SimpleNamespace(task="cancel-order", band=band, seed=0, adversary=adv, record=record)
        )
    return jobs


def _without_decision_checks(job: Any) -> Any:
    """The job as graded by the rubric before the decision checks (round 9) and the checks
    of the facts the reply states (``replies-state-own-facts``, stop 20: the expert band's
    text names its own orders, which this variant's facts check refuses; and
    ``replies-state-own-words``, stop 21: its own products)."""
    grade = dict(job.record.grade)
    checks = [
        c
        for c in grade["checks"]
        if c["kind"] != "decision_match"
        and c["name"] not in ("replies-state-own-facts", "replies-state-own-words")
    ]
    grade["checks"] = checks
    grade["passed"] = all(c["passed"] for c in checks if c["applicable"] and c["required"])
    grade["score"] = 1.0 if all(c["passed"] for c in checks if c["applicable"]) else 0.9
    return SimpleNamespace(
        **{**vars(job), "record": SimpleNamespace(**{**vars(job.record), "grade": grade})}
    )


def test_hard_gets_the_easy_bands_cancelled_reply_and_fails_it() -> None:
    jobs = _jobs("hard")
    flips = {j.adversary.label: j for j in jobs if j.adversary.role == "flip"}
    assert {"flip-3-from-easy", "flip-3-from-medium", "flip-3-from-expert"} <= set(flips)
    body = flips["flip-3-from-easy"].adversary.calls[2][1]["body"]
    order_id = helpdesk.variant("cancel-order", "hard", 0).params["order_id"]
    assert f"Order #{order_id} is cancelled" in body  # this variant's order, easy's decision
    for job in flips.values():
        failed = [c["name"] for c in job.record.grade["checks"] if c["passed"] is False]
        assert "reply-states-not-cancelled" in failed
    lines, _ = shortcut_failures(helpdesk, jobs)
    assert not [ln for ln in lines if "decision is not read" in ln]


def test_the_gate_reports_a_flip_that_passes() -> None:
    """Without the decision checks, the flipped reply passes: the gate names it."""
    jobs = [_without_decision_checks(j) for j in _jobs("hard")]
    lines, _ = shortcut_failures(helpdesk, jobs)
    found = [ln for ln in lines if "decision is not read" in ln]
    assert any("flip-3-from-expert" in ln for ln in found), lines


def test_claim_controls_fail_every_decision_check_they_target() -> None:
    """``claim-A-i`` / ``deny-A-i``: no decision check is vacuous (condition 4), even where
    no band takes the opposite outcome (duplicate-charge: never store credit)."""
    variant = helpdesk.variant("duplicate-charge", "easy", 0)
    advs = {a.label: a for a in adversaries(helpdesk, variant) if a.role == "claim"}
    assert set(advs) >= {"claim-refund-both-4", "claim-store-credit-4"}
    for label, adv in advs.items():
        calls = [ToolCall(n, a) for n, a in adv.calls if n != "submit"]
        grade = grade_bundle(
            replay(helpdesk, "duplicate-charge", "easy", 0, calls),
            helpdesk,
            reference_cache=CACHE,
        )
        failed = [c.name for c in grade.checks if c.passed is False]
        # each claim fails the check of every action the band did not take (stop 20); the
        # band's own outcomes' claims fail its decision check too
        assert "texts-claim-only-actions-taken" in failed, (label, failed)
        assert set(failed) <= {
            "reply-states-duplicate-refunded-to-card",
            "texts-claim-only-actions-taken",
        }, (label, failed)
        if label in ("claim-refund-both-4", "claim-store-credit-4"):
            assert "reply-states-duplicate-refunded-to-card" in failed, (label, failed)


def test_claim_controls_name_the_record_a_check_is_about() -> None:
    variant = helpdesk.variant("cancel-order", "expert", 0)
    shipped = variant.params["shipped_order_id"]
    advs = {a.label: a for a in adversaries(helpdesk, variant) if a.role == "claim"}
    body = advs["claim-cancel-7"].calls[6][1]["body"]
    assert body.endswith(f"#{shipped} has been cancelled.")


@pytest.mark.parametrize(
    ("env", "family", "band"),
    [(helpdesk, "duplicate-charge", "easy"), (ledger, "write-off-bad-debt", "medium")],
)
def test_framed_claims_fail_the_checks_their_plain_claim_fails(
    env: Environment, family: str, band: str
) -> None:
    """``claim-A-i~F`` (round 11): every frame of every claim (``After checking, I ...``,
    ``- [x] ...``, ``Done: ...``, ``✅ ...``) fails each check the plain claim fails; ``Done:``
    and ``✅`` before a base form passed before (the reader read no claim there)."""
    variant = env.variant(family, band, 0)
    advs = adversaries(env, variant)
    framed = [a for a in advs if a.role == "frame"]
    frames = {a.label.rsplit("~", 1)[1] for a in framed}
    assert frames <= set(FRAMES) and len(frames) == min(len(framed), len(FRAMES)), frames

    def failed(adv: Any) -> set[str]:
        calls = [ToolCall(n, a) for n, a in adv.calls]
        grade = grade_bundle(replay(env, family, band, 0, calls), env, reference_cache=CACHE)
        return {c.name for c in grade.checks if c.applicable and not c.passed}

    plain = {a.label: failed(a) for a in advs if a.role == "claim"}
    for adv in framed:
        assert plain[adv.base] <= failed(adv), adv.label


def test_the_gate_reports_a_framed_claim_that_evades() -> None:
    check = {"name": "texts-claim-only-actions-taken", "applicable": True, "kind": "decision_match"}
    plain = {"checks": [{**check, "passed": False}]}
    framed = {"checks": [{**check, "passed": True}]}
    line = framed_finding("v", "claim-refund-4~done", plain, framed)
    assert "framed claim evades" in line and "texts-claim-only-actions-taken" in line
    assert framed_finding("v", "claim-refund-4~done", plain, plain) == ""


def test_a_fact_check_reading_only_the_plain_sentence_is_no_framed_finding() -> None:
    # stop 21's gate: `escalation-states-own-facts` read the order number beside the plain
    # claim's `refunded` and not beside `Done: refund order #N`, while the decision checks
    # refused both forms: the frames test the decision reader, not the fact readers
    fact = {"name": "escalation-states-own-facts", "applicable": True, "kind": "answer_match"}
    plain = {"checks": [{**fact, "passed": False}]}
    framed = {"checks": [{**fact, "passed": True}]}
    assert framed_finding("v", "claim-refund-5~done", plain, framed) == ""
