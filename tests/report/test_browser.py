"""The report opened in headless Chromium (Debian's ``chromium``, driven by Playwright).

Checks what a reader sees: the charts are drawn (SVG bars with non-zero boxes, as many
as the data has, heights in proportion to the figures), every in-page link has a target,
following an episode link opens and shows its transcript, and the hostile run's HTML and
script (model output) are shown as text, never run. Skipped, saying why, where Chromium
is missing or cannot start (no browser is ever downloaded).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_clients.measure import run_metrics
from mcpgym_clients.measure.report._charts import PLOT_HEIGHT
from mcpgym_clients.runstore import RunStore

from .agents import PAYLOAD
from .conftest import BANDS, TASKS, Campaign

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def report(campaign: Campaign, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    result = CliRunner().invoke(
        app,
        [
            "report",
            campaign.reference,
            "--vs",
            campaign.hostile,
            "--store",
            str(campaign.store),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out)
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"Debian's chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
        )
    sync_api = pytest.importorskip("playwright.sync_api", reason="PyPI playwright is not installed")
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh --user-data-dir
    with sync_api.sync_playwright() as pw:
        try:
            context = pw.chromium.launch_persistent_context(
                str(profile),
                executable_path=str(CHROMIUM),
                headless=True,
                args=FLAGS,
                viewport={"width": 1280, "height": 900},
            )
        except sync_api.Error as exc:
            pytest.skip(f"{CHROMIUM} cannot start here: {str(exc).splitlines()[0]}")
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser: Any, report: Path) -> Iterator[Any]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(report.as_uri())
    yield page
    page.close()
    assert errors == []  # no script error on the page
    assert all(url.startswith("file://") for url in requests), requests  # nothing fetched


def test_charts_draw_one_bar_per_group_and_series_in_proportion_to_the_figures(
    page: Any, campaign: Campaign
) -> None:
    with RunStore(campaign.store) as store:
        metrics = run_metrics(store, campaign.reference)
    chart = page.locator("#chart-by_band-mean_score")
    bars = chart.locator("rect.bar")
    assert bars.count() == len(BANDS) * 2  # the agent and its null baseline, per band
    boxes = [bars.nth(i).bounding_box() for i in range(bars.count())]
    assert all(b is not None and b["width"] > 0 and b["height"] > 0 for b in boxes)
    for i, band in enumerate(BANDS):  # bars come band by band: agent, then baseline
        agent_box, base_box = boxes[2 * i], boxes[2 * i + 1]
        expected = metrics["by_band"][band]["mean_score"] * PLOT_HEIGHT
        assert agent_box["height"] == pytest.approx(expected, abs=1.0)
        expected = metrics["baseline"]["by_band"][band]["mean_score"] * PLOT_HEIGHT
        assert base_box["height"] == pytest.approx(expected, abs=1.0)
        assert base_box["height"] < agent_box["height"]  # null does worse than the reference
    families = page.locator("#chart-by_family-pass_rate rect.bar")
    assert families.count() == len(TASKS) * 2
    whiskers = chart.locator("path.whisker")
    assert whiskers.count() == len(BANDS) * 2
    # the comparison (A = the --vs hostile run, B = the reference; delta = B - A > 0): one
    # delta bar per band and per family, drawn above the zero line
    for anchor, n in (("#chart-delta-by_band", len(BANDS)), ("#chart-delta-by_family", len(TASKS))):
        deltas = page.locator(f"{anchor} rect.bar")
        assert deltas.count() == n
        axis = page.locator(f"{anchor} line.axis").bounding_box()
        for i in range(n):
            box = deltas.nth(i).bounding_box()
            assert box["height"] > 0
            assert box["y"] + box["height"] == pytest.approx(axis["y"], abs=1.0)


def test_every_in_page_link_has_a_target_and_nothing_is_external(page: Any) -> None:
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    assert len(hrefs) > 50
    assert [h for h in hrefs if not h.startswith("#")] == []
    missing = page.evaluate(
        "hrefs => hrefs.filter(h => !document.getElementById(decodeURIComponent(h.slice(1))))",
        hrefs,
    )
    assert missing == []
    assert page.locator("[src]").count() == 0  # no image, script or frame from anywhere


def test_clicking_an_episode_link_opens_and_shows_its_transcript(page: Any) -> None:
    link = page.locator("#index-run a").nth(5)
    target = link.get_attribute("href")[1:]
    details = page.locator(f"details#{target}")
    assert details.evaluate("d => d.open") is False
    link.click()
    assert details.evaluate("d => d.open") is True
    assert page.evaluate("location.hash") == f"#{target}"
    box = details.bounding_box()
    assert -1 <= box["y"] < page.viewport_size["height"]  # scrolled into view
    assert details.locator("table.grade tr").count() > 1  # the grade, check by check
    assert details.locator(".msg").count() >= 2  # the transcript
    assert details.locator(".msg pre").first.is_visible()


def test_a_newly_solved_variant_links_to_the_vs_runs_episode(page: Any) -> None:
    # A = the --vs hostile run, B = the reference: what hostile failed, B newly solved
    rows = page.locator("#newly-solved + details table tbody tr")
    assert (
        rows.count() == 8
    )  # the hostile agent fails every odd seed: 2 families x 2 bands x 2 epochs
    link = rows.first.locator("td").nth(2).locator("a")
    target = link.get_attribute("href")[1:]
    link.click()
    details = page.locator(f"details#{target}")
    assert details.evaluate("d => d.open") is True
    assert "hostile" in details.locator("summary").inner_text()
    assert details.locator(".chk.fail").count() >= 1


def test_model_output_is_shown_as_text_and_never_runs(page: Any) -> None:
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("#injected-img, #injected-link").count() == 0
    assert page.locator("script").count() == 1  # only the report's own
    transcript = page.locator("details.episode", has_text="window.__pwned").first
    transcript.locator("summary").click()
    texts = transcript.locator(".msg.assistant pre").all_inner_texts()
    assert PAYLOAD in texts


def test_opening_the_file_at_an_episode_anchor_opens_that_transcript(
    browser: Any, report: Path
) -> None:
    first = browser.new_page()
    first.goto(report.as_uri())
    target = first.locator("#index-B a").last.get_attribute("href")
    first.close()
    page = browser.new_page()  # a fresh load, straight at the anchor
    try:
        page.goto(report.as_uri() + target)
        details = page.locator(f"details{target}")
        assert details.evaluate("d => d.open") is True
        assert -1 <= details.bounding_box()["y"] < page.viewport_size["height"]
    finally:
        page.close()
