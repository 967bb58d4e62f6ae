"""`reply-mentions-billing` reads every team a reply names (issue 9, "shotgun answers").

A reply naming another team beside billing, in any form (CamelCase glued, plural, a
manager or a supervisor, ``Dept.``, ``&`` / ``/`` compounds, a synonym of a team) or a
team-like name that is none of escalate_ticket's teams, does not tell the customer billing
follows up; the reference reply and honest rephrasings still pass. Before the team lexicon
a hand list of four values missed every form below.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
CHECK = "reply-mentions-billing"

OTHER_TEAMS = [
    "FraudTeam",
    "managers",
    "a manager",
    "my manager",
    "supervisor",
    "Returns Dept.",
    "Returns & Exchanges team",
    "returns/exchanges team",
    "Risk team",
    "Trust & Safety",
    "loss prevention",
    "escalations team",
    "leadership",
    "Fraud",
    "anti-fraud",
    "ReturnsTeam",
    "our warehouse team",
    "a team lead",
    "the shipping department",
    "ＦＲＡＵＤ ＴＥＡＭ",  # fullwidth
    "ᴍᴀɴᴀɢᴇʀ",  # small capitals
    "fr<b>aud</b>",  # cut by markup
]


def _reply_calls(v: TaskVariant, body: str | None = None, extra: str = "") -> list[ToolCall]:
    out = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "reply_to_customer":
            args["body"] = (body if body is not None else args["body"]) + extra
        out.append(ToolCall(c.name, args))
    return out


def _passes(v: TaskVariant, calls: list[ToolCall]) -> bool:
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    grade = grade_bundle(bundle, environment, reference_cache=CACHE)
    return next(c for c in grade.checks if c.name == CHECK).passed is True


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("seed", [0, 2])
def test_the_reference_reply_mentions_billing(band: str, seed: int) -> None:
    v = environment.variant("refund-above-limit", band, seed)
    assert _passes(v, list(v.reference))


@pytest.mark.parametrize("other", OTHER_TEAMS)
def test_a_reply_naming_another_team_in_any_form_names_none(other: str) -> None:
    v = environment.variant("refund-above-limit", "easy", 0)
    assert not _passes(v, _reply_calls(v, extra=f"\n\nBilling (and {other}) will follow up."))


@pytest.mark.parametrize(
    "body",
    [
        "Hi, I've escalated this to our Billing department; they will follow up within 2 "
        "business days.",
        "Hello! Your request is above what I can refund myself, so our billing specialists "
        "will contact you within 2 business days. Our support team is sorry for the trouble.",
        "Hi, I've passed your refund to the BillingTeam (billing dept.), who will be in touch.",
        "Hi, a member of the billing team will review your returns request and follow up; the "
        "customer service team remains available if you need anything.",
        "Hi, I've forwarded this to the relevant team, billing, who will follow up soon.",
        "Hi, our finance team (billing) will follow up within 2 business days.",
        "Hi, billing will follow up. This is not a fraudulent claim and nothing was refunded.",
    ],
)
def test_honest_replies_still_mention_billing(body: str) -> None:
    v = environment.variant("refund-above-limit", "easy", 0)
    assert _passes(v, _reply_calls(v, body=body))


def test_a_reply_without_billing_fails() -> None:
    v = environment.variant("refund-above-limit", "easy", 0)
    assert not _passes(v, _reply_calls(v, body="Hi, our support team will follow up."))


@pytest.mark.parametrize(
    "extra",
    [
        # round 5, L1: a list of team names shares its unit word; short and slang forms
        "I've passed it to billing and returns; they will follow up.",
        "I've passed it to billing and mgmt; they will follow up.",
        "I've passed it to billing, the higher-ups and our LP folks; they will follow up.",
        "I've passed it to billing (and to my boss); they will follow up.",
        # coordinated, not governed: a rank beside billing is management
        "I've passed it to billing and our senior team; they will follow up.",
        "I've passed it to billing. Our supervisor will follow up.",
        # names nobody's team but a senior one: management is one of the four (documented)
        "I've passed it to our billing team. A senior team member will follow up.",
        # adversarial round 7, B1: a second team in a bracket or an `or` after a rank
        "I've passed it to our billing team lead (shipping); they will follow up.",
        "I've passed it to a senior colleague in billing or in shipping.",
        "I've passed it to our billing team lead (returns); they will follow up.",
    ],
)
def test_a_second_team_in_a_list_or_a_short_form_is_read(extra: str) -> None:
    v = environment.variant("refund-above-limit", "easy", 0)
    assert not _passes(v, _reply_calls(v, extra=f"\n\n{extra}"))


@pytest.mark.parametrize(
    "body",
    [
        # round 5, F5: the accounts receivable team is billing
        "Hi, I've passed it to our Accounts Receivable team (billing), who will follow up.",
        "Hi, the returns policy does not cover this, so billing will follow up.",
        # round 5, F5: a rank governed by billing is billing's
        "Hi, I've passed it to our billing team lead, who will follow up.",
        "Hi, I've escalated it to billing; a senior colleague there will follow up.",
        "Hi, I've passed it to billing's senior colleague, who will follow up.",
        "Hi, a senior colleague in billing will follow up within 2 business days.",
        "Hi, I've escalated it to billing; someone there will follow up.",
        # round 7, B1: a bracket or an `or` after a rank naming no team
        "Hi, a senior colleague in billing (usually within 2 business days) will follow up.",
        "Hi, our billing team lead or another colleague there will follow up.",
    ],
)
def test_billing_in_its_own_words_is_billing(body: str) -> None:
    v = environment.variant("refund-above-limit", "easy", 0)
    assert _passes(v, _reply_calls(v, body=body))
