"""The eval summary's and `mcpgym show`'s lines (`mcpgym_clients.summary`)."""

from __future__ import annotations


def test_show_explains_only_the_flags_it_counts() -> None:
    """Before, ``mcpgym show``'s flagged line explained an unparsed tool call after every
    count, also when only ``context_overflow`` was flagged (fix28, T11)."""
    from mcpgym_clients.summary import flag_notes

    only_overflow = flag_notes({"unparsed_tool_call": 0, "context_overflow": 2})
    assert "context window" in only_overflow and "tool call" not in only_overflow
    both = flag_notes({"unparsed_tool_call": 1, "context_overflow": 1})
    assert both.startswith(" (unparsed_tool_call: ") and "; context_overflow: " in both
    assert flag_notes({"unparsed_tool_call": 0, "context_overflow": 0}) == ""
