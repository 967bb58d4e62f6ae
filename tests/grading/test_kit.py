"""The author kit builds the same checks (same digests) as the hand-written ones they replace.

The reference for "the same" is helpdesk's shared family modules (``families/_checks.py``,
``families/_replies.py``, ``families/_store.py``) as they are today: the kit
must let helpdesk move onto it without a single rubric digest (so its lock) changing.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import (
    AnswerMatch,
    Param,
    Rubric,
    SqlCheck,
    amounts_stated,
    disclosure_forbidden,
    money_moved_only_as_allowed,
    nothing_else_changed,
    record_state,
    reply_says,
    reply_sent,
    rows_untouched,
    rows_written_sum,
    sql_in_list,
)
from mcpgym_helpdesk.families import _checks as checks
from mcpgym_helpdesk.families import _replies as replies
from mcpgym_helpdesk.families import _store as store

REPLIES = replies.AGENT_REPLIES_SQL


def same(a: object, b: object) -> None:
    ra, rb = Rubric(checks=(a,)), Rubric(checks=(b,))  # type: ignore[arg-type]
    assert ra.canonical_json() == rb.canonical_json()


def test_reply_sent_is_helpdesks() -> None:
    kit = reply_sent(
        "ticket_messages",
        "ticket_id = :ticket_id AND author = 'agent'",
        description="the agent replied to the customer on the ticket (policy 9.2)",
    )
    same(kit, replies.reply_sent())


def test_reply_says_money_and_token_are_helpdesks() -> None:
    same(
        reply_says(
            REPLIES,
            "refund_cents",
            name="reply-states-amount",
            normalize="money",
            required=True,
            description="d; no other amount is stated beside it (a list of candidate "
            "amounts, or the amount beside a near miss, states none of them)",
            forbidden_sql=replies.other_amounts_sql(),
            allowed=[store.REFUND_LIMIT_CENTS, store.GOODWILL_CAP_CENTS],
            roles=replies.POLICY_ROLES,  # the policy figures only in their roles
        ),
        replies.reply_mentions_money("refund_cents", required=True, description="d"),
    )
    same(
        reply_says(REPLIES, "tracking", name="t", normalize="token", description="x"),
        replies.reply_mentions_token("tracking", name="t", description="x"),
    )


def test_disclosure_forbidden_is_a_negated_required_match() -> None:
    check = disclosure_forbidden(REPLIES, "other_email", name="no-leak")
    assert isinstance(check, AnswerMatch)
    assert check.negate and check.required and check.expected == Param("other_email")
    same(
        disclosure_forbidden(REPLIES, "x", name="n", description="d", required=False),
        replies.reply_mentions_token("x", name="n", negate=True, description="d"),
    )


def test_record_state_is_helpdesks_ticket_state() -> None:
    codes = ("refunded", "cancelled")
    kit = record_state(
        "tickets",
        f"status = 'closed' AND resolution_code IN {sql_in_list(codes)}",
        name="ticket-resolution",
        description="the ticket is closed with resolution refunded or cancelled",
        key_param="ticket_id",
    )
    same(kit, checks.ticket_state("closed", codes))


def test_rows_untouched_is_helpdesks_other_tickets_untouched() -> None:
    kit = rows_untouched(
        "tickets",
        "id <> :ticket_id",
        changed_column="updated_at",
        since=store.SNAPSHOT_TIME,
        name="other-tickets-untouched",
        description="no other ticket was replied to, noted, escalated or closed (policy 9.6)",
    )
    same(kit, checks.other_tickets_untouched())


def test_nothing_else_changed_is_helpdesks_no_collateral() -> None:
    kit = nothing_else_changed(
        "refunds",
        "tickets",
        always_except=store.ALWAYS_EXCEPT,
        same_rows={"agent-writes": checks.AGENT_WRITES_SQL},
        description=checks.NO_COLLATERAL_TEXT,
    )
    same(kit, checks.no_collateral("refunds", "tickets"))


def test_money_moved_only_as_allowed_is_helpdesks() -> None:
    ref = checks.money_moved_only_as_allowed("order_id", goodwill_order_param="order_id")
    assert isinstance(ref, SqlCheck)
    parts = ref.sql.split(" UNION ALL ")
    kit = money_moved_only_as_allowed(parts, description=ref.description)
    same(kit, ref)
    with pytest.raises(ValueError, match="at least one violation"):
        money_moved_only_as_allowed([], description="x")


def test_fragments() -> None:
    assert sql_in_list(["a", "o'k"]) == "('a', 'o''k')"
    assert rows_written_sum("refunds", "order_id = :o", store.SNAPSHOT_TIME) == checks.new_rows_sum(
        "refunds", "order_id = :o"
    )


def test_every_kit_piece_is_documented_and_exported() -> None:
    import mcpgym_grading
    import mcpgym_server
    from mcpgym_grading import kit
    from mcpgym_server import authoring

    for module, package in ((kit, mcpgym_grading), (authoring, mcpgym_server)):
        names = [
            n
            for n, obj in vars(module).items()
            if not n.startswith("_")
            and callable(obj)
            and getattr(obj, "__module__", "") == module.__name__
        ]
        assert names
        for name in names:
            assert getattr(module, name).__doc__, f"{module.__name__}.{name} has no docstring"
            assert name in package.__all__, f"{name} is not exported by {package.__name__}"


def test_reply_says_takes_forbidden_values() -> None:
    """The kit's answer bundle refuses a shotgun: `forbidden` / `forbidden_sql` reach the
    AnswerMatch (before, `reply_says` could not express helpdesk's money check at all)."""
    check = reply_says(
        REPLIES,
        "refund_cents",
        name="r",
        normalize="money",
        forbidden=[Param("other_cents"), 1500],
        forbidden_sql="SELECT total_cents FROM orders",
    )
    assert check.forbidden == [Param("other_cents"), 1500]
    assert check.forbidden_sql == "SELECT total_cents FROM orders"
    plain = reply_says(REPLIES, "refund_cents", name="r", normalize="money")
    assert plain.forbidden is None and plain.forbidden_sql is None


def test_reply_says_reads_money_as_stated_by_default() -> None:
    check = reply_says(REPLIES, "refund_cents", name="r", normalize="money", allowed=[25000])
    assert check.mode == "states" and check.allowed == [25000]
    assert reply_says(REPLIES, "t", name="t").mode == "contains"
    assert reply_says(REPLIES, "r", name="r", normalize="money", mode="contains").mode == (
        "contains"
    )


def test_amounts_stated_reads_every_money_form() -> None:
    text = "4500 cents, forty-five dollars, 12 dollars 50, $45⁰⁰, 45,01 $, $1k and €7"
    assert amounts_stated(text) == [1250, 4500, 4501, 100000]


def test_states_decision_is_the_hand_written_decision_match() -> None:
    from mcpgym_grading import DECISION_ACTIONS, DecisionMatch, states_decision

    assert "cancel" in DECISION_ACTIONS and "post" in DECISION_ACTIONS
    built = states_decision(
        name="reply-states-decision",
        lead="the reply states the decision taken (policy 9.2): it ",
        sql=REPLIES,
        bands=("easy",),
        claimed=("refund",),
        not_claimed=("cancel", "exchange"),
        not_denied=("refund",),
        about=Param("order_id"),
        weight=2.0,
    )
    same(
        built,
        DecisionMatch(
            name="reply-states-decision",
            description="the reply states the decision taken (policy 9.2): it claims refund as "
            "done; does not claim cancel, exchange (not done); does not say refund was not "
            "done (conditional, future and requested forms state nothing)",
            source="sql",
            sql=REPLIES,
            claimed=("refund",),
            not_claimed=("cancel", "exchange"),
            not_denied=("refund",),
            about=Param("order_id"),
            weight=2.0,
            required=True,
            bands=("easy",),
        ),
    )
    only = states_decision(
        name="n", lead="x: ", sql="SELECT 1", bands=("easy",), claimed=("post",)
    )
    assert (
        only.description
        == "x: claims post as done (conditional, future and requested forms state nothing)"
    )
