"""The renderer on hand-set metrics, comparisons and episodes: what the page says and draws."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from typing import Any

import jinja2
import pytest
from markupsafe import escape

from mcpgym_clients.measure.report import render_report
from mcpgym_clients.measure.report._charts import (
    MARGIN_TOP,
    PLOT_HEIGHT,
    Series,
    bar_chart,
)
from mcpgym_clients.measure.report._views import (
    check_result,
    check_views,
    failure_heatmap,
    message_views,
)

from . import shapes
from .agents import PAYLOAD


def check(name: str, passed: bool | None, *, error: str | None = None, **detail: Any) -> dict:
    return {
        "name": name,
        "kind": "sql",
        "weight": 1.0,
        "required": True,
        "applicable": passed is not None or error is not None,
        "passed": passed,
        "detail": detail,
        "error": error,
    }


def episode(row_id: int, task: str, band: str, seed: int, checks: list[dict], **extra: Any) -> dict:
    passed = all(c["passed"] is not False and not c["error"] for c in checks)
    row = {
        "id": row_id,
        "run_id": "run-a",
        "agent": "reference",
        "variant_id": f"helpdesk/{task}@{band}#{seed}",
        "task": task,
        "band": band,
        "seed": seed,
        "epoch": 0,
        "termination": "completed",
        "scored": 1,
        "score": 1.0 if passed else 0.5,
        "passed": int(passed),
        "grade": {"checks": checks, "threshold": 0.85, "error": None},
        "transcript": [{"role": "user", "content": f"do {task}"}],
        "answer": None,
        "error": None,
        "steps": 1,
        "duration_s": 0.25,
    }
    row.update(extra)
    return row


EPISODES = [
    episode(11, "alpha", "easy", 0, [check("a1", True), check("shared", False)]),
    episode(
        12, "alpha", "hard", 0, [check("a1", False, expected=3, found=2), check("shared", True)]
    ),
    episode(13, "alpha", "hard", 1, [check("a1", None), check("shared", None, error="no table")]),
    episode(21, "beta", "easy", 0, [check("b1", True), check("shared", True)]),
    episode(22, "beta", "easy", 1, [check("b1", True)], scored=0, termination="infra_error"),
]


class Elements(HTMLParser):
    """Collects each element's attributes and the text inside elements with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []
        self.text: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.handle_data(" ")  # cells and blocks read as separate words
        ident = dict(attrs).get("id")
        if ident:
            self.text.setdefault(ident, "")
        if tag not in ("line", "rect", "path", "meta", "br", "img", "input"):
            self.open.append(ident or "")

    def handle_endtag(self, tag: str) -> None:
        self.handle_data(" ")
        if tag not in ("line", "rect", "path", "meta", "br", "img", "input") and self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        for ident in self.open:
            if ident:
                self.text[ident] += data


def parse(html: str) -> Elements:
    parser = Elements()
    parser.feed(html)
    return parser


def squash(text: str) -> str:
    return " ".join(text.split())


def test_the_summary_shows_the_figures_with_intervals_and_the_baseline_beside() -> None:
    html = render_report(shapes.metrics(), EPISODES)
    overall = squash(parse(html).text["overall"])
    assert "mean score 0.812 [0.700, 0.900] 0.250 [0.200, 0.300]" in overall
    assert "pass rate 75.0% [50.0%, 100.0%] 0.0% [0.0%, 25.0%]" in overall
    assert "pass@1 75.0% 0.0%" in overall and "pass^1 75.0% 0.0%" in overall
    by_band = squash(parse(html).text["by-band"])
    # bands easiest first whatever the dict order
    assert by_band.index("easy") < by_band.index("medium") < by_band.index("hard")
    assert "hard 2 0.500 [0.250, 0.750] 50.0% [25.0%, 75.0%] 0.250 0.0%" in by_band
    summary = squash(parse(html).text["summary"])
    assert "infra_error 1" in summary and "run run-a-null (null)" in summary


def test_a_run_without_baseline_has_one_series_and_no_baseline_column() -> None:
    html = render_report(shapes.metrics(baseline=False), EPISODES)
    doc = parse(html)
    assert "baseline" not in squash(doc.text["overall"])
    bars = [a for tag, a in doc.tags if tag == "rect" and "bar" in (a.get("class") or "")]
    assert len(bars) == 3 + 3 + 2 + 2  # mean score and pass rate, by band (3) and family (2)
    assert {a["data-series"] for a in bars} == {"0"}


def test_bars_and_whiskers_are_placed_by_value_and_interval() -> None:
    chart = bar_chart(
        "t", [Series("a", "s0"), Series("b", "s1")], [("g", [(0.5, [0.25, 1.0]), (None, None)])]
    )
    assert len(chart.bars) == 1  # no bar for a missing value
    bar = chart.bars[0]
    assert bar.height == pytest.approx(PLOT_HEIGHT / 2)
    assert bar.y == pytest.approx(MARGIN_TOP + PLOT_HEIGHT / 2)
    assert bar.whisker == pytest.approx((MARGIN_TOP + PLOT_HEIGHT * 0.75, MARGIN_TOP))
    assert chart.zero_y == pytest.approx(MARGIN_TOP + PLOT_HEIGHT)


def test_a_negative_delta_grows_down_from_the_zero_line() -> None:
    chart = bar_chart("d", [Series("B − A", "s2")], [("g", [(-0.25, [-0.5, 0.1])])], lo=-1, hi=1)
    bar = chart.bars[0]
    assert chart.zero_y == pytest.approx(MARGIN_TOP + PLOT_HEIGHT / 2)
    assert bar.y == pytest.approx(chart.zero_y)
    assert bar.height == pytest.approx(PLOT_HEIGHT / 8)
    assert [t.label for t in chart.ticks] == ["-1", "-0.5", "+0", "+0.5", "+1"]


def test_bad_chart_input_is_refused() -> None:
    with pytest.raises(ValueError, match="empty y range"):
        bar_chart("t", [Series("a", "s0")], [], lo=1.0, hi=1.0)
    with pytest.raises(ValueError, match="has 2 points for 1 series"):
        bar_chart("t", [Series("a", "s0")], [("g", [(0.1, None), (0.2, None)])])


def test_check_results_cover_pass_fail_skip_and_error() -> None:
    assert [check_result(c) for c in EPISODES[2]["grade"]["checks"]] == ["skip", "error"]
    assert [check_result(c) for c in EPISODES[1]["grade"]["checks"]] == ["fail", "pass"]


def test_the_heat_map_counts_failures_and_errors_over_applicable_checks_of_scored_episodes() -> (
    None
):
    heat = failure_heatmap(EPISODES)
    assert heat["checks"] == ["a1", "shared", "b1"]
    rows = {r["family"]: r for r in heat["rows"]}
    assert rows["alpha"]["episodes"] == 3 and rows["beta"]["episodes"] == 1  # infra_error left out
    a1, shared, b1 = rows["alpha"]["cells"]
    assert (a1["failed"], a1["n"], a1["first"]) == (1, 2, "ep-12")  # the skip is not counted
    assert (shared["failed"], shared["n"], shared["first"]) == (2, 3, "ep-11")  # error counts
    assert b1 is None  # alpha never evaluates b1
    assert rows["beta"]["cells"][1] == {
        "check": "shared",
        "failed": 0,
        "n": 1,
        "rate": 0.0,
        "first": None,
    }


def test_the_heat_map_links_to_the_first_failing_episode() -> None:
    html = render_report(shapes.metrics(), EPISODES)
    assert '<a href="#ep-12">50%</a>' in html and '<a href="#ep-11">67%</a>' in html


def test_every_episode_is_linked_from_the_index_and_has_its_grade() -> None:
    doc = parse(render_report(shapes.metrics(), EPISODES))
    links = {
        a["href"] for tag, a in doc.tags if tag == "a" and a.get("href", "").startswith("#ep-")
    }
    details = {a["id"] for tag, a in doc.tags if tag == "details"}
    assert details == {f"ep-{e['id']}" for e in EPISODES}
    assert {f"#{d}" for d in details} <= links
    graded = squash(doc.text["ep-12"])
    assert "a1 sql 1.0 yes fail 3 2" in graded and "shared sql 1.0 yes pass" in graded
    assert "no table" in squash(doc.text["ep-13"])


def test_model_output_is_escaped_everywhere_it_appears() -> None:
    hostile = episode(
        31,
        "alpha",
        "easy",
        2,
        [check("a1", False, expected="x", found=PAYLOAD)],
        answer=PAYLOAD,
        error=PAYLOAD,
        transcript=[
            {
                "role": "assistant",
                "content": PAYLOAD,
                "tool_calls": [
                    {"id": PAYLOAD, "function": {"name": PAYLOAD, "arguments": PAYLOAD}}
                ],
            },
            {
                "role": "tool",
                "tool_call_id": PAYLOAD,
                "content": [{"type": "text", "text": PAYLOAD}],
            },
        ],
    )
    html = render_report(shapes.metrics(), [*EPISODES, hostile])
    assert PAYLOAD not in html
    assert html.count(str(escape(PAYLOAD))) >= 7  # answer, error, text, call, result, check
    assert len(re.findall(r"<script", html)) == 1
    doc = parse(html)
    assert not [a for tag, a in doc.tags if a.get("id", "").startswith("injected")]
    assert not [tag for tag, _ in doc.tags if tag == "img"]


def test_the_content_security_policy_allows_only_the_reports_own_script() -> None:
    html = render_report(shapes.metrics(), EPISODES)
    script = re.search(r"<script>(.*)</script>", html, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
    assert f"script-src 'sha256-{digest}'" in csp and "default-src 'none'" in csp
    assert not re.search(r"(src|href)=\"(https?:)?//", html)  # nothing remote


def test_the_comparison_shows_deltas_flips_and_the_variants_that_changed() -> None:
    variant = {
        "variant_id": "helpdesk/alpha@hard#0",
        "family": "alpha",
        "band": "hard",
        "seed": 0,
        "epoch": 0,
        "score_a": 0.5,
        "score_b": 1.0,
        "passed_a": False,
        "passed_b": True,
        "episode_a": 12,
        "episode_b": 41,
        "changed_checks": [{"check": "a1", "a": "fail", "b": "pass"}],
    }
    comparison = {
        "run_a": "run-a",
        "run_b": "run-b",
        "forced": True,
        "lock_differences": ["lock 0123456789ab vs ba9876543210"],
        "overall": shapes.cgroup(0.125, [0.05, 0.2], 0.0004),
        "by_band": {
            "hard": shapes.cgroup(-0.25, [-0.5, 0.0], 0.5),
            "easy": shapes.cgroup(0.0, [0.0, 0.0], 1.0),
        },
        "by_family": {"alpha": shapes.cgroup(0.125, [0.05, 0.2], 0.25)},
        "newly_solved": [variant],
        "regressed": [],
    }
    b_episode = episode(41, "alpha", "hard", 0, [check("a1", True)], run_id="run-b")
    html = render_report(
        shapes.metrics(),
        EPISODES,
        comparison=comparison,
        episodes_b=[b_episode],
        run_b=shapes.run_row("run-b", "model-b"),
    )
    doc = parse(html)
    table = squash(doc.text["comparison-table"])
    assert "overall 4 0.500 0.625 +0.125 [+0.050, +0.200] 1 → 2 2 1 <0.001" in table
    assert table.index("easy") < table.index("hard")
    assert "FORCED" in doc.text["comparison"] and "lock 0123456789ab vs ba9876543210" in html
    assert '<a href="#ep-12">' in html and '<a href="#ep-41">' in html and 'id="ep-41"' in html
    assert "a1: fail → pass" in squash(doc.text["newly-solved"] + doc.text["comparison"])
    assert "No regressed variants." in html
    deltas = [a for tag, a in doc.tags if tag == "rect" and "s2" in (a.get("class") or "")]
    assert len(deltas) == 2 + 1  # by band, by family


def test_a_metrics_dict_missing_a_shown_field_is_an_error_not_a_blank() -> None:
    metrics = shapes.metrics()
    del metrics["overall"]["pass_rate"]
    with pytest.raises(jinja2.UndefinedError):
        render_report(metrics, EPISODES)


def test_long_messages_are_cut_with_a_note() -> None:
    (view,) = message_views([{"role": "tool", "content": "x" * 20_005}])
    assert len(view["text"]) == 20_000 and view["cut"] == 5


def test_long_values_are_cut_for_passed_checks_only() -> None:
    long = list(range(100))  # 390 characters of JSON
    passed, failed = check_views(
        {"checks": [check("p", True, expected=long, found=long), check("f", False, found=long)]}
    )
    assert passed["expected"] == passed["found"]
    assert passed["found"].endswith("… (190 more characters)") and len(passed["found"]) < 230
    assert failed["found"] == json.dumps(long)


def _comparison(regressed: int) -> dict[str, Any]:
    def variant(seed: int) -> dict[str, Any]:
        return {
            "variant_id": f"helpdesk/alpha@easy#{seed}",
            "family": "alpha",
            "band": "easy",
            "seed": seed,
            "epoch": 0,
            "score_a": 1.0,
            "score_b": 0.0,
            "passed_a": True,
            "passed_b": False,
            "episode_a": 11,
            "episode_b": 11,
            "changed_checks": [],
        }

    return {
        "run_a": "run-a",
        "run_b": "run-n",
        "label_a": "reference",
        "label_b": "null",
        "forced": False,
        "lock_differences": [],
        "overall": shapes.cgroup(-0.5, [-0.6, -0.4], 0.001),
        "by_band": {"easy": shapes.cgroup(-0.5, [-0.6, -0.4], 0.01)},
        "by_family": {"alpha": shapes.cgroup(-0.5, [-0.6, -0.4], 0.01)},
        "newly_solved": [],
        "regressed": [variant(s) for s in range(regressed)],
    }


def test_the_comparison_names_a_and_b_by_agent_the_right_way_round() -> None:
    html = render_report(shapes.metrics(), EPISODES, comparison=_comparison(3))
    doc = parse(html)
    assert "A = reference (run run-a), B = null (run run-n)" in squash(
        doc.text["comparison-labels"]
    )
    assert "Regressed in B (null): 3, passed by A (reference)" in squash(doc.text["regressed"])
    assert "mean A (reference)" in html and "mean B (null)" in html


@pytest.mark.parametrize(("n", "collapsed"), [(10, False), (11, True)])
def test_long_variant_lists_are_collapsed(n: int, collapsed: bool) -> None:
    html = render_report(shapes.metrics(), EPISODES, comparison=_comparison(n))
    (tag,) = re.findall(r'<details class="variants"[^>]*>', html)
    assert ("open" not in tag) is collapsed
    assert f"{n} regressed variants" in html


def test_a_zero_bar_is_drawn_visibly_with_its_value() -> None:
    chart = bar_chart("t", [Series("a", "s0")], [("g", [(0.0, None)]), ("h", [(0.5, None)])])
    zero, half = chart.bars
    assert zero.zero and zero.height >= 2.0 and zero.text == "0.00"
    assert zero.y + zero.height == pytest.approx(chart.zero_y)  # sits on the axis
    assert not half.zero and half.text == "0.50"
    html = render_report(shapes.metrics(), EPISODES)
    assert 'class="bar s1 zero"' in html  # the null baseline's 0% pass rates
    assert ">0%</text>" in html


def test_charts_with_few_groups_spread_over_the_target_width() -> None:
    few = bar_chart("t", [Series("a", "s0")], [("g", [(0.5, None)])])
    many = bar_chart("t", [Series("a", "s0")], [(f"g{i}", [(0.5, None)]) for i in range(30)])
    assert few.width == pytest.approx(580.0)
    assert many.width > 30 * 64  # every group keeps its least room


def test_the_summary_shows_tokens_cost_and_time_per_family() -> None:
    metrics = shapes.metrics()
    u = {
        "episodes": 2,
        "reported": 2,
        "requests": 4,
        "prompt_tokens": 12_000,
        "completion_tokens": 800,
        "cached_tokens": None,
        "reasoning_tokens": None,
        "total_tokens": 12_800,
        "cost_usd": 0.5,
        "tokens_per_episode": 6400.0,
        "duration_s": {"total": 3.0, "mean": 1.5, "median": 1.5, "max": 2.0},
    }
    metrics["usage"] = {"overall": u, "by_family": {"alpha": u}}
    doc = parse(render_report(metrics, EPISODES))
    table = squash(doc.text["usage-table"])
    assert "overall 2 2 4 12.0k 800 – – $0.5000 1.50s 2.00s" in table
    assert "alpha 2 2 4" in table
    index = squash(doc.text["index-run"])
    assert "0.25s" in index  # each episode's time
