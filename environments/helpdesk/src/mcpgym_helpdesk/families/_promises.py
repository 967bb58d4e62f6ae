"""Rubric checks on the times and payouts a reply promises (`mcpgym_grading._promises`).

The store's figures: billing follows up on an escalated refund within **2 business days**
(policy 7.1, the only time the policy states); a refund to a card shows within **5-10
business days** (the store's own replies, `data/history.py`, and every reference). A reply
may leave the time out; a time it states must not be sooner than the figure's least value
(``within 2 hours``, ``tomorrow``, ``within 24 hours`` are lies; ``within two business
days``, ``48 hours``, ``5–10 business days``, ``usually within a week``, the quick end of
5-10 business days, are not). A reply on an escalated refund must not promise that billing
(or anyone) WILL pay it: billing decides (policy 7.1: "billing will follow up").
"""

from __future__ import annotations

from mcpgym_grading import SqlCheck
from mcpgym_helpdesk.families._replies import AGENT_REPLIES_SQL

BILLING_FOLLOW_UP_DAYS = 2
"""Billing follows up on an escalated refund within 2 business days (policy 7.1)."""

CARD_REFUND_DAYS = (5, 10)
"""A refund to a card shows within 5-10 business days (the store's replies and references)."""

BILLING_CUES = (
    "billing",
    "finance",
    "follow up",
    "follow-up",
    "followup",
    "hear back",
    "hear from",
    "in touch",
    "contact you",
    "get back",
    "respond",
    "response",
    "reply",
    "reach out",
    "update you",
)
"""Words binding a promised time to billing's follow-up."""

CARD_CUES = (
    "show",
    "shows",
    "showing",
    "appear",
    "appears",
    "post",
    "posts",
    "reflect",
    "reflected",
    "see it",
    "see the",
    "land",
    "back to your",
    "back on your",
    "back in your",
    "goes back",
    "statement",
    "card",
    "bank",
    "account",
    "payment method",
)
"""Words binding a promised time to a refund reaching the customer's card or account."""

PROMISE_ROLES = (
    f"{BILLING_FOLLOW_UP_DAYS}:{','.join(BILLING_CUES)}|{CARD_REFUND_DAYS[0]}:{','.join(CARD_CUES)}"
)
"""The roles of `mcpgym_grading._promises.SQL_TOO_SOON` (least figure in business days)."""

DECIDERS = "billing,finance,billing team,finance team"
"""The team that decides an escalated refund (`mcpgym_grading._promises.SQL_PAYOUT_PROMISED`)."""


def _sql(function: str, arg: str) -> str:
    return (
        f"SELECT x FROM (SELECT {function}(body, '{arg}') AS x FROM ({AGENT_REPLIES_SQL})) "
        "WHERE x IS NOT NULL"
    )


def replies_promise_policy_times(*, bands: tuple[str, ...] | None = None) -> SqlCheck:
    """No reply promises a time sooner than the store's figures (module docstring): required,
    a false promise is a wrong answer to the customer."""
    return SqlCheck(
        name="replies-promise-policy-times",
        description="no reply promises a time sooner than the policy's: billing follows up "
        f"within {BILLING_FOLLOW_UP_DAYS} business days (7.1), a card refund shows within "
        f"{CARD_REFUND_DAYS[0]}-{CARD_REFUND_DAYS[1]} business days; `within 2 hours`, "
        "`tomorrow`, `within 24 hours` promise what the policy does not",
        sql=_sql("mcpgym_too_soon", PROMISE_ROLES),
        expected=[],
        weight=1,
        required=True,
        bands=bands,
    )


def replies_promise_no_payout(*, bands: tuple[str, ...] | None = None) -> SqlCheck:
    """No reply promises that billing (or anyone) will pay the escalated refund: billing
    decides (policy 7.1). Required."""
    return SqlCheck(
        name="replies-promise-no-payout",
        description="no reply promises that billing will refund the escalated request "
        "(`Billing will refund it to your card`): billing decides and follows up (policy 7.1)",
        sql=_sql("mcpgym_payout_promised", DECIDERS),
        expected=[],
        weight=1,
        required=True,
        bands=bands,
    )
