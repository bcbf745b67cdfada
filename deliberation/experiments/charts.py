"""Geometry of the experiment page's two server-rendered SVG charts (the templates draw them).

* the histogram of vote changes per run (one bar per count, zero-run counts included);
* agreement with the real verdict by offence category (horizontal bars, 0-100%).
"""

from __future__ import annotations

from dataclasses import dataclass

HIST_WIDTH = 640
HIST_HEIGHT = 240
HIST_MARGIN_LEFT = 44
HIST_MARGIN_BOTTOM = 36
HIST_MARGIN_TOP = 16
BAR_GAP = 4

CAT_WIDTH = 640
CAT_ROW = 30
CAT_LABEL = 150
CAT_TOP = 10


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value_label: str
    title: str
    label_x: float = 0.0
    label_y: float = 0.0
    value_x: float = 0.0
    value_y: float = 0.0


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    bars: list[Bar]
    ticks: list[Tick]
    axis_x0: float
    axis_x1: float
    axis_y0: float
    axis_y1: float
    reference: float | None = None  # a vertical line (category chart: 50%)


def nice_step(value: int) -> int:
    """A round tick step giving at most five ticks above zero up to ``value``."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if value <= step * factor * 5:
                return step * factor
        step *= 10


def vote_change_histogram(distribution: dict[str, int]) -> Chart | None:
    """Bars for 0 .. the largest number of vote changes seen, height = runs with that many."""
    counts = {int(k): int(v) for k, v in distribution.items()}
    if not counts:
        return None
    step = nice_step(max(counts.values()))
    top = step * max(1, -(-max(counts.values()) // step))
    slots = max(counts) + 1
    plot_w = HIST_WIDTH - HIST_MARGIN_LEFT - 8
    plot_h = HIST_HEIGHT - HIST_MARGIN_BOTTOM - HIST_MARGIN_TOP
    slot = plot_w / slots
    bottom = HIST_MARGIN_TOP + plot_h
    bars = []
    for changes in range(slots):
        runs = counts.get(changes, 0)
        height = plot_h * runs / top
        x = HIST_MARGIN_LEFT + changes * slot + BAR_GAP / 2
        bars.append(
            Bar(
                x=round(x, 1),
                y=round(bottom - height, 1),
                width=round(max(1.0, slot - BAR_GAP), 1),
                height=round(height, 1),
                label=str(changes),
                value_label=str(runs) if runs else "",
                title=f"{runs} run{'s' if runs != 1 else ''} with {changes} vote change{'s' if changes != 1 else ''}",
                label_x=round(x + (slot - BAR_GAP) / 2, 1),
                label_y=bottom + 16,
                value_x=round(x + (slot - BAR_GAP) / 2, 1),
                value_y=round(bottom - height - 4, 1),
            )
        )
    ticks = [Tick(position=round(bottom - plot_h * v / top, 1), label=str(v)) for v in range(0, top + 1, step)]
    return Chart(HIST_WIDTH, HIST_HEIGHT, bars, ticks, HIST_MARGIN_LEFT, HIST_WIDTH - 8, bottom, HIST_MARGIN_TOP)


def category_agreement(agreement: dict[str, float | None], runs: dict[str, int]) -> Chart | None:
    """One horizontal bar per offence category: the share of runs agreeing with the real jury."""
    rows = [(name, value) for name, value in sorted(agreement.items()) if value is not None]
    if not rows:
        return None
    plot_w = CAT_WIDTH - CAT_LABEL - 60
    height = CAT_TOP + CAT_ROW * len(rows) + 30
    bars = []
    for i, (name, value) in enumerate(rows):
        y = CAT_TOP + i * CAT_ROW
        width = plot_w * value
        count = runs.get(name, 0)
        bars.append(
            Bar(
                x=CAT_LABEL,
                y=y + 4,
                width=round(width, 1),
                height=CAT_ROW - 8,
                label=name,
                value_label=f"{value * 100:.0f}%",
                title=f"{name}: {value * 100:.0f}% of {count} run{'s' if count != 1 else ''} agree with the real jury",
                label_x=CAT_LABEL - 8,
                label_y=y + CAT_ROW / 2 + 5,
                value_x=round(CAT_LABEL + width + 6, 1),
                value_y=y + CAT_ROW / 2 + 5,
            )
        )
    bottom = CAT_TOP + CAT_ROW * len(rows)
    ticks = [Tick(position=round(CAT_LABEL + plot_w * i / 4, 1), label=f"{25 * i}%") for i in range(5)]
    return Chart(
        CAT_WIDTH,
        height,
        bars,
        ticks,
        CAT_LABEL,
        CAT_LABEL + plot_w,
        bottom,
        CAT_TOP,
        reference=round(CAT_LABEL + plot_w * 0.5, 1),
    )
