"""Server-side SVG geometry for the report's bar charts (bars with confidence-interval whiskers).

The template draws what these functions compute: every coordinate is in SVG user units
(pixels at 100 % zoom), the y axis grows downwards as in SVG. No JavaScript is needed to
see a chart, and nothing is fetched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH_PER_GROUP = 64.0
"""Least horizontal room of one group of bars (px); groups widen to fill `TARGET_WIDTH`."""
TARGET_WIDTH = 580.0
"""Width a chart fills when it has few groups (px): two charts side by side fill the page."""
MAX_BAR_WIDTH = 44.0
"""Widest a single bar is drawn (px), however much room its group has."""
ZERO_BAR_HEIGHT = 2.0
"""Height of the bar of a value of 0 (px): a visible stub on the axis, outlined."""
PLOT_HEIGHT = 160.0
"""Height of the plotting area (px)."""
MARGIN_LEFT, MARGIN_TOP, MARGIN_BOTTOM, MARGIN_RIGHT = 44.0, 12.0, 112.0, 120.0
"""Room for the y-axis ticks, above the plot, and below and right of it for the (slanted)
group labels (px)."""


@dataclass(frozen=True)
class Series:
    """One series of a chart: its name (legend) and CSS class (colour)."""

    name: str
    css: str


@dataclass(frozen=True)
class Bar:
    """One bar: ``value`` and its interval ``ci`` (``[lo, hi]``) in data units, or ``None``.

    Attributes:
        label: the tooltip text. x, width: horizontal place (px). y, height: the bar's
            rectangle (px). whisker: ``(y_lo, y_hi)`` in px, or ``None``. series: index
            into the chart's series. text, text_y: the value label and its baseline (px).
    """

    label: str
    series: int
    x: float
    width: float
    y: float
    height: float
    whisker: tuple[float, float] | None
    text: str = ""
    """The value printed above the bar (``0%`` included, so a zero is never invisible)."""
    text_y: float = 0.0
    zero: bool = False
    """The value is 0: drawn as an outlined stub of `ZERO_BAR_HEIGHT`."""


@dataclass(frozen=True)
class Tick:
    """An axis tick: its label and vertical position (px)."""

    label: str
    y: float


@dataclass
class BarChart:
    """A grouped bar chart ready to draw.

    Attributes:
        title: caption. series: legend entries. groups: ``(label, centre_x)`` of each group.
        bars: every drawn bar (a ``None`` value gives no bar). ticks: y-axis ticks.
        zero_y: the y of the value 0 (the baseline of the bars). width, height: the SVG size.
        plot_left, plot_right: the plot's horizontal extent. anchor: the chart's in-page id.
    """

    title: str
    series: list[Series]
    groups: list[tuple[str, float]] = field(default_factory=list)
    bars: list[Bar] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)
    zero_y: float = 0.0
    width: float = 0.0
    height: float = 0.0
    plot_left: float = MARGIN_LEFT
    plot_right: float = 0.0
    anchor: str = ""

    @property
    def label_y(self) -> float:
        """Where the group labels start: just below the plotting area (px)."""
        return MARGIN_TOP + PLOT_HEIGHT + 14.0


Point = tuple[float | None, Sequence[float] | None]
"""A value and its ``[lo, hi]`` interval (either may be ``None``)."""


def bar_chart(
    title: str,
    series: Sequence[Series],
    groups: Sequence[tuple[str, Sequence[Point]]],
    *,
    lo: float = 0.0,
    hi: float = 1.0,
    percent: bool = False,
    anchor: str = "",
    target_width: float = TARGET_WIDTH,
) -> BarChart:
    """Lay out a grouped bar chart with whiskers over the value range ``[lo, hi]``.

    Args:
        title: the caption. series: one entry per bar of a group.
        groups: ``(label, points)`` with one ``(value, [lo, hi] | None)`` point per series;
            values outside ``[lo, hi]`` are clipped to the plot.
        lo, hi: the y range (``lo < 0`` for deltas: bars then grow from 0 up or down).
        percent: label the ticks as percentages. anchor: the chart's in-page id.
        target_width: the width (px) a chart with few groups spreads them over; with many
            groups each gets at least `WIDTH_PER_GROUP`.

    Raises:
        ValueError: ``lo >= hi``, or a group whose point count differs from the series count.
    """
    if lo >= hi:
        raise ValueError(f"empty y range [{lo}, {hi}]")
    n = len(series)
    room = target_width - MARGIN_LEFT - MARGIN_RIGHT - 8.0
    per_group = max(WIDTH_PER_GROUP, room / max(len(groups), 1))
    plot_right = MARGIN_LEFT + per_group * max(len(groups), 1) + 8.0
    chart = BarChart(
        title=title,
        series=list(series),
        width=plot_right + MARGIN_RIGHT,
        height=MARGIN_TOP + PLOT_HEIGHT + MARGIN_BOTTOM,
        plot_right=plot_right,
        anchor=anchor,
    )

    def y_of(v: float) -> float:
        v = min(max(v, lo), hi)
        return MARGIN_TOP + (hi - v) / (hi - lo) * PLOT_HEIGHT

    chart.zero_y = y_of(0.0 if lo <= 0.0 <= hi else lo)
    steps = 4
    for i in range(steps + 1):
        v = lo + (hi - lo) * i / steps
        if percent:
            text = f"{v * 100:+.0f}%" if lo < 0 else f"{v * 100:.0f}%"
        else:
            text = f"{v:+g}" if lo < 0 else f"{v:g}"
        chart.ticks.append(Tick(text, y_of(v)))
    bar_w = min((per_group - 16.0) / max(n, 1), MAX_BAR_WIDTH)
    fmt = (lambda v: f"{v * 100:.0f}%") if percent else (lambda v: f"{v:.2f}")
    for gi, (label, points) in enumerate(groups):
        if len(points) != n:
            raise ValueError(f"group {label!r} has {len(points)} points for {n} series")
        centre = MARGIN_LEFT + gi * per_group + 8.0 + (per_group - 16.0) / 2
        left = centre - bar_w * n / 2
        chart.groups.append((label, centre))
        for si, (value, ci) in enumerate(points):
            if value is None:
                continue
            top, bottom = sorted((y_of(value), chart.zero_y))
            whisker = None
            if ci is not None and len(ci) == 2:
                whisker = (y_of(ci[0]), y_of(ci[1]))
            tip_fmt = (lambda v: f"{v * 100:.1f}%") if percent else (lambda v: f"{v:.3f}")
            tip = f"{label} · {series[si].name}: {tip_fmt(value)}"
            if ci is not None and len(ci) == 2:
                tip += f" [{tip_fmt(ci[0])}, {tip_fmt(ci[1])}]"
            zero = value == 0.0
            height = ZERO_BAR_HEIGHT if zero else max(bottom - top, 0.75)
            if zero and lo < 0.0:
                top = chart.zero_y - ZERO_BAR_HEIGHT / 2
            elif zero:
                top = chart.zero_y - ZERO_BAR_HEIGHT
            above = min([top, *(whisker or ())])
            below_zero = value < 0.0
            chart.bars.append(
                Bar(
                    label=tip,
                    series=si,
                    x=left + si * bar_w + 1.0,
                    width=bar_w - 2.0,
                    y=top,
                    height=height,
                    whisker=whisker,
                    text=fmt(value),
                    text_y=(max([top + height, *(whisker or ())]) + 10.0)
                    if below_zero
                    else above - 3.0,
                    zero=zero,
                )
            )
    return chart
