"""An episode that ended on an unreadable tool call, or by the context window after its
first request, is told apart from a wrong answer: ``show`` (metrics), ``targets`` and the
report say so (issue 9 section 8)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from mcpgym_clients import RunStore
from mcpgym_clients.cli import app
from mcpgym_clients.measure import run_metrics
from mcpgym_clients.measure.report._views import episode_view
from mcpgym_clients.measure.targets import failure_targets

from .synthetic import rec, store_run

UNREAD = "<tool_call>\nget_order(7)\n</tool_call>"


def _runs(db: Path) -> str:
    wrong = rec("refund", "easy", 0, 0, 0.5, checks={"amount": "fail"})
    flagged = rec("refund", "easy", 1, 0, 0.5, checks={"amount": "fail"})
    flagged.transcript += [
        {"role": "assistant", "content": UNREAD, "mcpgym_unparsed_tool_call": True}
    ]
    flagged.error = "unparsed_tool_call: the final message looks like a tool call"
    overflow = rec("refund", "easy", 2, 0, 0.0, checks={"amount": "fail"})
    overflow.transcript += [
        {"role": "tool", "tool_call_id": "c1", "content": "{}", "mcpgym_context_overflow": True}
    ]
    overflow.termination = "max_tokens"
    overflow.error = "context window exceeded (context_overflow): ..."
    with RunStore(db) as store:
        return store_run(store, [wrong, flagged, overflow])


def test_metrics_targets_and_report_tell_an_unread_call_from_a_wrong_answer(
    tmp_path: Path,
) -> None:
    db = tmp_path / "runs.db"
    run_id = _runs(db)
    with RunStore(db) as store:
        m = run_metrics(store, run_id, resamples=50)
        targets = failure_targets(store, run_id)
        rows = store.episodes(run_id)
    assert m["flagged"] == {"unparsed_tool_call": 1, "context_overflow": 1}
    assert m["overall"]["episodes"] == 3  # still scored, as given
    by_seed = {t["seed"]: t for t in targets}
    assert by_seed[0]["flags"] == [] and by_seed[0]["group"] == "amount"
    assert by_seed[1]["flags"] == ["unparsed_tool_call"]
    assert by_seed[1]["group"] == "[unparsed_tool_call] amount"
    assert by_seed[2]["group"] == "[context_overflow] amount"
    views = {r["seed"]: episode_view(r, run_label="run") for r in rows}
    assert views[1]["flags"] == ["unparsed_tool_call"] and views[0]["flags"] == []

    shown = CliRunner().invoke(app, ["show", run_id, "--store", str(db)])
    assert shown.exit_code == 0, shown.output
    assert "flagged: unparsed_tool_call 1, context_overflow 1" in " ".join(shown.output.split())

    page = tmp_path / "report.html"
    made = CliRunner().invoke(app, ["report", run_id, "--out", str(page), "--store", str(db)])
    assert made.exit_code == 0, made.output
    html = page.read_text()
    assert "unparsed_tool_call 1, context_overflow 1 (scored as given)" in html
    assert "flagged: unparsed_tool_call</p>" in html
