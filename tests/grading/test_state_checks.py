"""StateMatchesReference and NoCollateralChanges against the replayed reference.

Variant easy#0's reference: get_order(101) at step 1, refund(101, 2500) at step 2.
The virtual clock starts at 09:00:00 and ticks 30 s per call, so the reference refund
has created_at 09:01:00 and refund id 1 (counter `refund` = 1).
"""

from __future__ import annotations

from mcpgym_grading import NoCollateralChanges, StateMatchesReference

from .episodes import grade_check

LOOKUP = ("get_order", {"order_id": 101})
REFUND = ("refund", {"order_id": 101, "amount_cents": 2500})
VOLATILE = {"refunds": ("created_at",)}


def test_same_end_state_passes_despite_volatile_timestamps() -> None:
    # two lookups first: the refund lands at step 3 (09:01:30), not 09:01:00
    calls = [LOOKUP, LOOKUP, REFUND]
    check = StateMatchesReference(name="state", tables=("orders", "refunds"))
    result = grade_check(check, calls, volatile_columns=VOLATILE)
    assert result.passed is True
    assert result.detail == {
        "expected": {
            "tables": ["orders", "refunds"],
            "equal_to": "reference end state",
            "ignored_columns": {"refunds": ["created_at"]},
        },
        "found": {"differing_tables": []},
        "diff": {},
    }


def test_without_volatile_columns_the_timestamp_difference_is_reported() -> None:
    check = StateMatchesReference(name="state", tables=("refunds",))
    result = grade_check(check, [LOOKUP, LOOKUP, REFUND])
    assert result.passed is False
    assert result.detail["diff"] == {
        "refunds": {
            "key": ["id"],
            "added": 0,
            "removed": 0,
            "changed": 1,
            "examples": {
                "added": [],
                "removed": [],
                "changed": [
                    {
                        "key": {"id": 1},
                        "columns": {
                            "created_at": {
                                "final": "2026-06-15T09:01:30Z",
                                "reference": "2026-06-15T09:01:00Z",
                            }
                        },
                    }
                ],
            },
        }
    }


def test_check_level_ignore_columns_work_like_volatile_columns() -> None:
    check = StateMatchesReference(
        name="state", tables=("refunds",), ignore_columns={"refunds": ("created_at",)}
    )
    assert grade_check(check, [LOOKUP, LOOKUP, REFUND]).passed is True


def test_missing_refund_shows_removed_and_changed_rows() -> None:
    check = StateMatchesReference(name="state", tables=("orders", "refunds"))
    result = grade_check(check, [LOOKUP], volatile_columns=VOLATILE)
    assert result.passed is False
    assert result.detail["found"] == {"differing_tables": ["orders", "refunds"]}
    assert result.detail["diff"]["orders"]["examples"]["changed"] == [
        {"key": {"id": 101}, "columns": {"status": {"final": "damaged", "reference": "refunded"}}}
    ]
    refunds = result.detail["diff"]["refunds"]
    assert (refunds["added"], refunds["removed"], refunds["changed"]) == (0, 1, 0)
    assert refunds["examples"]["removed"] == [
        {"id": 1, "order_id": 101, "amount_cents": 2500, "reason": "damaged"}
    ]


def test_collateral_damage_is_detected_with_a_structured_diff() -> None:
    calls = [LOOKUP, REFUND, ("delete_customer", {"customer_id": 2})]
    check = NoCollateralChanges(name="collateral", except_tables=("messages",))
    result = grade_check(check, calls, volatile_columns=VOLATILE)
    assert result.passed is False
    assert result.detail == {
        "expected": {
            "tables": ["customers", "kv", "mcpgym_counters", "orders", "refunds"],
            "equal_to": "reference end state",
            "ignored_columns": {"refunds": ["created_at"]},
            "except_tables": ["messages"],
        },
        "found": {"differing_tables": ["customers"]},
        "diff": {
            "customers": {
                "key": ["id"],
                "added": 0,
                "removed": 1,
                "changed": 0,
                "examples": {
                    "added": [],
                    "removed": [{"id": 2, "name": "Grace Hopper", "email": "grace@example.com"}],
                    "changed": [],
                },
            }
        },
    }


def test_excepted_tables_are_not_compared() -> None:
    calls = [LOOKUP, REFUND, ("delete_customer", {"customer_id": 2})]
    check = NoCollateralChanges(name="collateral", except_tables=("messages", "customers"))
    assert grade_check(check, calls, volatile_columns=VOLATILE).passed is True


def test_counters_are_part_of_the_state() -> None:
    # no refund: the counters table never gets created in the final state
    check = NoCollateralChanges(name="collateral", except_tables=("orders", "refunds"))
    result = grade_check(check, [LOOKUP])
    assert result.passed is False
    assert result.detail["diff"] == {
        "mcpgym_counters": {
            "key": ["name"],
            "added": 0,
            "removed": 1,
            "changed": 0,
            "examples": {"added": [], "removed": [{"name": "refund", "value": 1}], "changed": []},
            "missing_in_final": True,
        }
    }


def test_tables_without_primary_key_compare_as_multisets() -> None:
    # band hard: the reference sends one message "We refunded $25.00."
    body = "We refunded $25.00."
    message = ("send_message", {"order_id": 101, "body": body})
    check = StateMatchesReference(
        name="messages", tables=("messages",), ignore_columns={"messages": ("sent_at",)}
    )
    assert grade_check(check, [LOOKUP, REFUND, message], band="hard").passed is True
    twice = grade_check(check, [LOOKUP, REFUND, message, message], band="hard")
    assert twice.passed is False
    assert twice.detail["diff"] == {
        "messages": {
            "key": None,
            "added": 1,
            "removed": 0,
            "changed": 0,
            "examples": {"added": [{"order_id": 101, "body": body}], "removed": [], "changed": []},
        }
    }


def test_examples_are_capped_at_five_but_counts_are_complete() -> None:
    calls = [LOOKUP, REFUND] + [
        ("send_message", {"order_id": 101, "body": f"note {i}"}) for i in range(7)
    ]
    check = StateMatchesReference(name="messages", tables=("messages",))
    result = grade_check(check, calls)
    diff = result.detail["diff"]["messages"]
    assert diff["added"] == 7
    assert [row["body"] for row in diff["examples"]["added"]] == [f"note {i}" for i in range(5)]


def test_unknown_table_is_an_evaluation_error() -> None:
    result = grade_check(StateMatchesReference(name="s", tables=("refundz",)), [REFUND])
    assert result.error == (
        "table `refundz` exists in neither the final nor the reference database; tables: "
        "customers, kv, mcpgym_counters, messages, orders, refunds"
    )


def test_unknown_ignored_column_is_an_evaluation_error() -> None:
    check = StateMatchesReference(
        name="s", tables=("refunds",), ignore_columns={"refunds": ("created",)}
    )
    result = grade_check(check, [REFUND])
    assert result.error == (
        "ignored column(s) `created` do not exist in table `refunds`; its columns: "
        "amount_cents, created_at, id, order_id, reason"
    )


def test_ignore_columns_naming_an_unknown_table_is_an_evaluation_error() -> None:
    check = NoCollateralChanges(name="c", ignore_columns={"refundz": ("created_at",)})
    assert grade_check(check, [REFUND]).error is not None


def test_empty_table_list_is_an_evaluation_error() -> None:
    result = grade_check(StateMatchesReference(name="s", tables=()), [REFUND])
    assert result.error == "`tables` is empty; name the tables to compare"


REFUNDED = {"refunded": "SELECT order_id, SUM(amount_cents) FROM refunds GROUP BY order_id"}


def test_same_rows_compares_an_excepted_table_in_the_form_that_matters() -> None:
    """`same_rows`: the refunds table is excepted (ids, times and the split may differ) but
    what was refunded per order must equal the reference's (issue 9 §4: a ledger journal
    churned and reversed nets to nothing row by row yet is collateral)."""
    check = NoCollateralChanges(
        name="collateral",
        except_tables=("refunds", "orders", "mcpgym_counters"),
        same_rows=REFUNDED,
    )
    assert grade_check(check, [LOOKUP, REFUND, LOOKUP], volatile_columns=VOLATILE).passed
    result = grade_check(check, [LOOKUP], volatile_columns=VOLATILE)
    assert result.passed is False
    assert result.detail["found"]["differing_queries"] == ["refunded"]
    diff = result.detail["query_diff"]["refunded"]
    assert (diff["added"], diff["removed"]) == (0, 1)
    assert result.detail["diff"] == {}  # every table compared is equal: only the query differs


def test_a_failing_same_rows_query_is_an_evaluation_error() -> None:
    check = NoCollateralChanges(name="c", same_rows={"bad": "SELECT nope FROM refunds"})
    error = grade_check(check, [REFUND]).error
    assert error is not None and "same_rows query `bad`" in error


def test_same_rows_left_empty_keeps_the_rubric_digest() -> None:
    """Rubrics signed before `same_rows` existed keep their digest (and sign-off)."""
    from mcpgym_grading import Rubric

    rubric = Rubric(checks=(NoCollateralChanges(name="c"),))
    assert "same_rows" not in rubric.canonical_json()
    with_rows = Rubric(checks=(NoCollateralChanges(name="c", same_rows=REFUNDED),))
    assert with_rows.digest() != rubric.digest()
