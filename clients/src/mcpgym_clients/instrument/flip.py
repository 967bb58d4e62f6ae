"""``flip-i`` mutants: answer field ``i`` says what another band of the family did instead.

A family's bands often take opposite decisions on the same kind of request (easy cancels
the order, hard refuses because it has shipped; easy posts the bill, hard leaves it a
draft and escalates). A reply or note can keep every fact a value check reads and state
the other band's decision. The mutant takes the same family's reference in band ``B``
(same seed) where it calls a different set of write tools (another outcome), finds there
the text of the same tool and argument as field ``i``, writes this variant's values into
it where the other variant's stood (each param of the same name holding a digit: an order
number, a date, an amount also written ``$X.YY``; a word such as a status is the decision
itself and stays), and puts it in field ``i``'s place. The gate reports
it when it is graded passed although a check reads the field (``blank-i`` fails one); a
text worded as the field's own but for a value (`SAME_WORDING`) is no other decision:
nothing reads the decision the text states (`mcpgym_grading.DecisionMatch` does).

``claim-A-i`` / ``deny-A-i`` (`claims`): field ``i`` also claims action ``A`` done, or says
it was not, in a plain sentence (`mcpgym_grading._decisions.decision_sentence`), for each
action a `DecisionMatch` of the variant's rubric refuses (``not_claimed`` / ``not_denied``;
about its record when it names one). Controls, not findings: a decision check that only
honest texts meet is failed by one, so it is never vacuous (condition 4). Each ``claim-A``
also comes in frames (`framed_claims`: ``After checking, I …``, ``- [x] …``, ``Done: …``,
``✅ …``): ``claim-A-i~F``, adversarial, reported where a check the plain claim fails
passes the framed one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any

from mcpgym_clients.instrument.candidates import money_text
from mcpgym_clients.instrument.controls import Call, reference_calls
from mcpgym_grading import DecisionMatch, Param
from mcpgym_grading._claim_frames import FRAMES, framed_claim
from mcpgym_grading._decisions import decision_sentence
from mcpgym_server import Environment, TaskVariant

MIN_VALUE = 3
"""Values shorter than this are not written over (``1`` would hit every digit)."""

SAME_WORDING = 0.8
"""A rewritten text whose words match the field's own this closely (`difflib` ratio) is the
same sentence with another value in it (a product name no param holds), not another
decision: no flip."""


def _similar(a: str, b: str) -> bool:
    words = re.compile(r"\w+|[^\w\s]")
    return SequenceMatcher(None, words.findall(a), words.findall(b)).ratio() >= SAME_WORDING


def _writes(env: Environment, calls: Sequence[Call]) -> frozenset[str]:
    """The write tools ``calls`` use (the outcome, as far as the calls tell it)."""
    out: set[str] = set()
    for name, _ in calls:
        spec = env.tools.get(name)
        if spec is not None and spec.kind == "write" and not spec.framework:
            out.add(name)
    return frozenset(out)


def _texts_of(value: Any, key: str) -> list[str]:
    """The plain texts a param value is written as (an amount also as ``$X.YY``)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return []
    out = [str(value)]
    if isinstance(value, int) and key.endswith("_cents") and value > 0:
        out.insert(0, money_text(value))
    # values with a digit only (ids, amounts, dates, references): a word-valued param (a
    # status, "posted" / "draft") is the decision itself, not a fact to carry over
    return [t for t in out if len(t) >= MIN_VALUE and any(c.isdigit() for c in t)]


def rewrite(text: str, theirs: Mapping[str, Any], ours: Mapping[str, Any]) -> str:
    """``text`` with each of ``theirs``' param values replaced by ``ours``' of the same name.

    Longer values first (``$1,234.50`` before ``1234``); a value both hold alike stays.
    """
    pairs: list[tuple[str, str]] = []
    for key, value in theirs.items():
        if key not in ours:
            continue
        for old, new in zip(_texts_of(value, key), _texts_of(ours[key], key), strict=False):
            if old != new:
                pairs.append((old, new))
    pairs.sort(key=lambda p: -len(p[0]))
    marks: dict[str, str] = {}
    for n, (old, new) in enumerate(pairs):  # two passes: a new value is never rewritten
        mark = f"\x00{n}\x00"
        if old in text:
            text = text.replace(old, mark)
            marks[mark] = new
    for mark, new in marks.items():
        text = text.replace(mark, new)
    return text


def flips(
    env: Environment, variant: TaskVariant, body: Sequence[Call], i: int, key: str
) -> list[tuple[str, str]]:
    """``(band, text)``: the texts field ``i`` (argument ``key`` of ``body[i]``) takes in
    the family's other bands whose references call another set of write tools, rewritten
    with this variant's values (`rewrite`); one per band, none worded as the field's own
    (`SAME_WORDING`)."""
    tool = body[i][0]
    own = str(body[i][1][key])
    mine = _writes(env, body)
    out: list[tuple[str, str]] = []
    for band in env.families[variant.family].bands:
        if band == variant.band:
            continue
        other = env.variant(variant.family, band, variant.seed)
        calls = reference_calls(other)[:-1]
        if _writes(env, calls) == mine:
            continue  # the same outcome: its text may well be right here
        text = next(
            (str(a[key]) for n, a in calls if n == tool and isinstance(a.get(key), str)), None
        )
        if text is None:
            continue
        text = rewrite(text, other.params, variant.params)
        if not _similar(text, own):
            out.append((band, text))
    return out


def _refused(env: Environment, variant: TaskVariant) -> list[tuple[DecisionMatch, str | None]]:
    """The `DecisionMatch` checks applying to ``variant``, each with the record it is about
    (None: the whole text), in rubric order."""
    out: list[tuple[DecisionMatch, str | None]] = []
    for check in getattr(env.families[variant.family].rubric, "checks", ()):
        if not isinstance(check, DecisionMatch):
            continue
        if check.bands is not None and variant.band not in check.bands:
            continue
        if check.when is not None and not variant.params.get(check.when):
            continue
        about = check.about
        if isinstance(about, Param):
            about = variant.params.get(about.name)
        out.append((check, None if about is None else str(about)))
    return out


def claims(env: Environment, variant: TaskVariant) -> list[tuple[str, str]]:
    """``(label, sentence)`` of the ``claim`` / ``deny`` controls (module docstring): one per
    action a `DecisionMatch` applying to ``variant`` refuses, in rubric order."""
    out: dict[str, str] = {}
    for check, about in _refused(env, variant):
        for action in check.not_claimed:
            out.setdefault(f"claim-{action}", decision_sentence(action, done=True, about=about))
        for action in check.not_denied:
            out.setdefault(f"deny-{action}", decision_sentence(action, done=False, about=about))
    return list(out.items())


def framed_claims(env: Environment, variant: TaskVariant) -> list[tuple[str, str, str]]:
    """``(label, frame, text)`` of the framed claim mutants: for each ``claim-A`` control
    (`claims`), the claim of ``A`` in one frame of `mcpgym_grading._claim_frames.FRAMES`
    (``After checking, I cancelled #7.``, ``- [x] Cancel #7``, ``Done: cancel #7``, ``✅
    Cancel #7``, ``I called off #7 this morning.``), about the same record; ``label`` is
    the control's. The frame turns with the action's place and the seed, so a variant with
    five actions refused tries every frame and five seeds try every action in every frame,
    at one mutant per action (not five: the gate's cost); the ``synonym`` frame's word
    (`mcpgym_grading._decision_synonyms.SYNONYMS`) turns with the seed and place too.
    Adversarial: a check that the plain claim fails and the framed one passes is a finding
    (`framed_finding`)."""
    frames = list(FRAMES)
    out: dict[str, tuple[str, str]] = {}
    for check, about in _refused(env, variant):
        for action in check.not_claimed:
            label = f"claim-{action}"
            if label not in out:
                place = len(out)
                frame = frames[(place + variant.seed) % len(frames)]
                text = framed_claim(action, frame, about=about, wording=variant.seed + place)
                out[label] = (frame, text)
    return [(label, frame, text) for label, (frame, text) in out.items()]


def framed_finding(where: str, label: str, plain: Any, framed: Any) -> str:
    """The finding line for framed claim mutant ``label`` (``claim-A-i~F``), or ``""``:
    reported when a decision check (``decision_match``) that fails on the plain claim
    (``plain``, its grade's JSON) passes on the framed one (``framed``): the decision reader
    misses the frame. Other checks are not compared: a fact check may read the plain claim's
    sentence (an order number beside ``refunded``) and not the framed one's (``Done: refund
    order #N``) while the claim itself is refused in both forms; the frames test the reader."""
    if not plain or not framed:
        return ""
    mine = {c["name"]: c for c in framed.get("checks", []) if c.get("applicable")}
    evaded = sorted(
        c["name"]
        for c in plain.get("checks", [])
        if c.get("applicable")
        and c.get("kind") == "decision_match"
        and not c.get("passed")
        and mine.get(c["name"], {}).get("passed")
    )
    if not evaded:
        return ""
    return (
        f"{where}: a framed claim evades: check(s) {', '.join(f'`{n}`' for n in evaded)} fail "
        f"on the plain claim and pass on `{label}` (the same claim in a frame: `After "
        "checking, I ...`, `- [x] ...`, `Done: ...`, a check mark): teach the decision reader "
        "the frame (`mcpgym_grading._decisions`)"
    )
