"""The conviction timeline as a self-contained SVG: one line per juror, the undecided band shaded.

Pure Python, no Django: it takes plain numbers and returns markup whose every piece of text is
escaped here, so a page may include it as it is. Conviction runs from 0 (not guilty, bottom)
to 1 (guilty, top); rounds run left to right, round 0 being the first ballot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

# Twelve line colours, each at least 3:1 against the chart's white ground (graphics contrast).
PALETTE = (
    "#1b4f8a",
    "#b0171f",
    "#2e7d32",
    "#6a1b9a",
    "#9a4d00",
    "#00695c",
    "#ad1457",
    "#5d4037",
    "#455a64",
    "#6b6a10",
    "#283593",
    "#c43e00",
)
# Seats 7-12 are dashed so that two lines of similar hue stay apart.
DASHES = ("", "", "", "", "", "", "6 3", "6 3", "6 3", "6 3", "6 3", "6 3")
BAND = (0.4, 0.6)


@dataclass(frozen=True)
class Line:
    seat: int
    label: str
    points: list[tuple[int, float]] = field(default_factory=list)  # (round, conviction), rounds ascending


@dataclass(frozen=True)
class Flip:
    round: int
    seat: int
    to: str  # "guilty" or "not_guilty"


def colour(seat: int) -> str:
    return PALETTE[(seat - 1) % len(PALETTE)]


def dash(seat: int) -> str:
    return DASHES[(seat - 1) % len(DASHES)]


def _ticks(max_round: int) -> list[int]:
    step = 1 if max_round <= 12 else 2 if max_round <= 24 else 5 if max_round <= 60 else 10
    return list(range(0, max_round + 1, step))


def conviction_chart(
    lines: list[Line],
    *,
    flips: Sequence[Flip] = (),
    max_round: int,
    up_to: int | None = None,
    width: int = 760,
    height: int = 300,
    title: str = "Conviction by round",
) -> str:
    """SVG markup of the timeline; with ``up_to`` only rounds up to it are drawn (the replay).

    The x axis always spans the whole deliberation so that stepping through a replay grows
    the lines in place instead of rescaling them.
    """
    left, right, top, bottom = 64, 16, 14, 38
    plot_w, plot_h = width - left - right, height - top - bottom
    span = max(max_round, 1)
    shown = max_round if up_to is None else max(0, min(up_to, max_round))

    def x(round_number: int) -> float:
        return left + plot_w * round_number / span

    def y(conviction: float) -> float:
        return top + plot_h * (1.0 - min(max(conviction, 0.0), 1.0))

    out: list[str] = [
        f'<svg class="conviction-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-labelledby="chart-title">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#ffffff" stroke="#8f7f69"/>',
        f'<rect class="band" x="{left}" y="{y(BAND[1]):.1f}" width="{plot_w}" height="{y(BAND[0]) - y(BAND[1]):.1f}" '
        f'fill="#efe4d2"><title>Undecided: conviction between {BAND[0]} and {BAND[1]}</title></rect>',
        f'<line x1="{left}" x2="{left + plot_w}" y1="{y(0.5):.1f}" y2="{y(0.5):.1f}" stroke="#b9a98f" '
        f'stroke-dasharray="2 3"/>',
    ]
    for value, text in ((1.0, "guilty 1.0"), (BAND[1], "0.6"), (BAND[0], "0.4"), (0.0, "not guilty 0")):
        out.append(
            f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="11" fill="#5a4f42">'
            f"{escape(text)}</text>"
        )
    for tick in _ticks(max_round):
        out.append(
            f'<text x="{x(tick):.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11" fill="#5a4f42">'
            f"{tick}</text>"
        )
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle" font-size="12" fill="#1f1a14">'
        "Round (0 = first ballot)</text>"
    )
    if up_to is not None and max_round > 0:
        out.append(
            f'<line class="now" x1="{x(shown):.1f}" x2="{x(shown):.1f}" y1="{top}" y2="{top + plot_h}" '
            'stroke="#1f1a14" stroke-width="1.5"/>'
        )
    for line in lines:
        points = [(r, c) for r, c in line.points if r <= shown]
        if not points:
            continue
        stroke = colour(line.seat)
        label = escape(line.label)
        if len(points) == 1:
            r, c = points[0]
            out.append(f'<circle cx="{x(r):.1f}" cy="{y(c):.1f}" r="3" fill="{stroke}"><title>{label}</title></circle>')
            continue
        path = " ".join(f"{x(r):.1f},{y(c):.1f}" for r, c in points)
        dashing = f' stroke-dasharray="{dash(line.seat)}"' if dash(line.seat) else ""
        out.append(
            f'<polyline class="juror-line" data-seat="{line.seat}" points="{path}" fill="none" stroke="{stroke}" '
            f'stroke-width="2" stroke-linejoin="round"{dashing}><title>{label}</title></polyline>'
        )
    where = {(line.seat, r): c for line in lines for r, c in line.points}
    names = {line.seat: line.label for line in lines}
    for flip in flips:
        if flip.round > shown or (flip.seat, flip.round) not in where:
            continue
        conviction = where[(flip.seat, flip.round)]
        verdict = "guilty" if flip.to == "guilty" else "not guilty"
        note = escape(f"{names.get(flip.seat, f'Seat {flip.seat}')} changed to {verdict} in round {flip.round}")
        out.append(
            f'<circle class="flip" data-seat="{flip.seat}" data-round="{flip.round}" cx="{x(flip.round):.1f}" '
            f'cy="{y(conviction):.1f}" r="5.5" fill="#ffffff" stroke="{colour(flip.seat)}" stroke-width="3">'
            f"<title>{note}</title></circle>"
        )
    out.append("</svg>")
    return "\n".join(out)
