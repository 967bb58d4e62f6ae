"""The values the gate's leak mutants write: the variant's params, not the rubric's role specs."""

from __future__ import annotations

from mcpgym_clients.instrument.controls import mutants, task_values
from mcpgym_ledger import environment as ledger


def test_role_specs_are_no_task_values() -> None:
    params = {
        "invoice_number": "INV-2026-0151",
        "note_roles": '[["INV-2026-0151", ["not written off", "escalat*"]]]',
        "amounts": [100, 200],
    }
    assert task_values(params) == ["INV-2026-0151", 100, 200]


def test_leak_mutants_write_no_cue_words() -> None:
    """write-off-bad-debt hard's roles param binds the invoice to "not written off": leaked,
    those words were read as a claim of the write-off the band did not make, and the gate
    blamed the decision checks for missing the leak's look-alike forms."""
    variant = ledger.variant("write-off-bad-debt", "hard", 0)
    assert "written off" in variant.params["note_roles"]
    leaks = [calls for label, calls in mutants(ledger, variant) if label.startswith("leak-text")]
    assert leaks
    texts = [str(a) for calls in leaks for _, args in calls for a in args.values()]
    assert not any("not written off" in t for t in texts)
