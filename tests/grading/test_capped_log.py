"""Log checks over a capped tool-call log: a capped argument never silently matches or clears."""

from __future__ import annotations

from mcpgym_grading import AnswerMatch, CalledBefore, ToolCalled, ToolNotCalled

from .episodes import grade_check

# Tools refuse strings over 20,000 characters, but 17,000 four-byte characters are 68 KB
# of JSON: an accepted call over the default 64 KiB log value cap.
HUGE = "\N{GRINNING FACE}" * 17_000
PADDED = ("send_message", {"order_id": 101, "body": "Your refund is on its way. " + HUGE[:-100]})
LOOKUP = ("get_order", {"order_id": 101})


def test_a_call_with_capped_arguments_never_matches_expected_arguments() -> None:
    check = ToolCalled(name="c", tool="send_message", arguments={"order_id": 101})
    result = grade_check(check, [PADDED])
    assert result.passed is False
    assert result.detail["found"]["matching_calls"] == 0
    assert result.detail["found"]["capped_steps"] == [1]
    assert "not counted" in result.detail["found"]["capped"]


def test_a_call_with_capped_arguments_still_counts_as_a_call_of_its_tool() -> None:
    assert grade_check(ToolCalled(name="c", tool="send_message"), [PADDED]).passed is True


def test_padding_arguments_past_the_cap_does_not_evade_a_forbidden_call() -> None:
    # Without the cap this call (order 101) would not match the forbidden order 102 and the
    # check would pass; with the cap its arguments are unknown, so it may be the forbidden one.
    check = ToolNotCalled(name="n", tool="send_message", arguments={"order_id": 102})
    result = grade_check(check, [PADDED])
    assert result.passed is False
    assert result.detail["found"]["capped_steps"] == [1]


def test_a_capped_call_may_be_the_one_that_had_to_come_second() -> None:
    check = CalledBefore(
        name="b", first="get_order", then="send_message", then_arguments={"order_id": 101}
    )
    assert grade_check(check, [LOOKUP, PADDED]).passed is True
    result = grade_check(check, [PADDED, LOOKUP])
    assert (result.passed, result.detail["found"]["then_step"]) == (False, 1)


def test_a_capped_answer_neither_matches_nor_clears() -> None:
    shotgun = "refund of 10 dollars " + HUGE[:-100]
    for negate in (False, True):
        check = AnswerMatch(name="a", expected="10", normalize="token", negate=negate)
        result = grade_check(check, [], answer=shotgun)
        assert result.passed is False
        assert "log value cap" in result.detail["reason"]
