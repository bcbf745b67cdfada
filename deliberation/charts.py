"""Server-rendered SVG charts of a deliberation (the verdict page and the transcript use them).

``conviction_chart`` is a pure function: conviction snapshots in, SVG markup out. One line per
AI juror across the rounds, the 0.4-0.6 hysteresis band shaded (a vote only changes once a juror's
conviction leaves the band on the other side), and a ring wherever a juror's vote flipped.
Participants (people, external agents, the command line's automated player) have no conviction
the engine moves, only the vote they cast: they get no line, only a legend entry with that vote.
No script, no external library: the markup prints, scales and reads the same everywhere.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from html import escape
from itertools import pairwise
from typing import Any

from django.utils.safestring import SafeString, mark_safe

BAND_LOW = 0.4
BAND_HIGH = 0.6
# Twelve distinguishable colours, each at least 3:1 against white (WCAG graphics contrast).
PALETTE = (
    "#1f5fa6",
    "#b2361d",
    "#2a7a3b",
    "#7a3fa0",
    "#8a5a00",
    "#0f7378",
    "#b0306a",
    "#4d5a13",
    "#5b4a8f",
    "#a04a10",
    "#2d6d8c",
    "#6b3b2a",
)
NO_DATA = "No rounds have been recorded yet."


@dataclass(frozen=True)
class Point:
    round_number: int
    seat: int
    conviction: float
    vote: str


def _point(item: Any) -> Point:
    """Accept ConvictionSnapshot rows, dicts with the same keys, or Points."""
    if isinstance(item, Point):
        return item
    get = item.get if isinstance(item, Mapping) else lambda key: getattr(item, key)
    seat = get("seat_number") if not isinstance(item, Mapping) or "seat_number" in item else get("seat")
    return Point(int(get("round_number")), int(seat), float(get("conviction")), str(get("vote") or ""))


def series(snapshots: Iterable[Any]) -> dict[int, list[Point]]:
    """Each seat's points in round order."""
    lines: dict[int, list[Point]] = defaultdict(list)
    for item in snapshots:
        point = _point(item)
        lines[point.seat].append(point)
    return {seat: sorted(points, key=lambda p: p.round_number) for seat, points in sorted(lines.items())}


def flips(points: list[Point]) -> list[Point]:
    """The points at which this seat's vote differs from the round before."""
    return [b for a, b in pairwise(points) if a.vote and b.vote and a.vote != b.vote]


def colour(seat: int) -> str:
    return PALETTE[(seat - 1) % len(PALETTE)]


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def _vote_label(vote: str) -> str:
    return {"guilty": "guilty", "not_guilty": "not guilty"}.get(vote, vote or "no vote")


def conviction_chart(
    snapshots: Iterable[Any],
    *,
    names: Mapping[int, str] | None = None,
    highlight_seat: int | None = None,
    participants: Collection[int] = (),
    width: int = 760,
    height: int = 380,
    chart_id: str = "conviction-chart",
) -> SafeString:
    """SVG of every juror's conviction (0 = not guilty, 1 = guilty) over the rounds.

    ``names`` labels the lines and the legend (seat number -> name); ``highlight_seat`` is drawn
    thicker. ``participants`` are the seats held by people or agents: their snapshots carry a vote
    but no real conviction (the engine pins it to 0 or 1), so they are not drawn as lines; the
    legend lists them with their last vote. The SVG is labelled for screen readers; pages should
    also offer the numbers as a table.
    """
    everyone = series(snapshots)
    lines = {seat: points for seat, points in everyone.items() if seat not in participants}
    voters = {seat: points for seat, points in everyone.items() if seat in participants}
    names = names or {}
    title = escape("Each juror's conviction over the rounds")
    if not everyone:
        return mark_safe(
            f'<svg class="chart" role="img" viewBox="0 0 {width} 60" aria-labelledby="{chart_id}-title">'
            f'<title id="{chart_id}-title">{escape(NO_DATA)}</title>'
            f'<text x="12" y="34" fill="#5a4f42">{escape(NO_DATA)}</text></svg>'
        )
    last_round = max(p.round_number for points in everyone.values() for p in points)
    first_round = min(p.round_number for points in everyone.values() for p in points)
    legend_rows = (len(everyone) + 3) // 4
    left, right, top, bottom = 64, 16, 16, 40 + 22 * legend_rows + 8
    plot_w, plot_h = width - left - right, height - top - bottom
    span = max(last_round - first_round, 1)

    def x(round_number: int) -> float:
        return left + (round_number - first_round) / span * plot_w

    def y(conviction: float) -> float:
        return top + (1.0 - min(max(conviction, 0.0), 1.0)) * plot_h

    flip_count = sum(len(flips(points)) for points in lines.values())
    description = (
        f"{len(lines)} {'AI ' if voters else ''}jurors from round {first_round} to round {last_round}; "
        f"{flip_count} vote change{'s' if flip_count != 1 else ''} marked with rings. "
        f"The shaded band from {BAND_LOW} to {BAND_HIGH} is where jurors hold their vote."
    )
    if voters:
        who = ", ".join(f"seat {seat}" for seat in voters)
        description += f" Not charted: {who}, held by a participant whose vote is their own, not a conviction."
    out = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" preserveAspectRatio="xMidYMid meet" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" id="{chart_id}">',
        f'<title id="{chart_id}-title">{title}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
        f'<rect x="{left}" y="{_fmt(y(BAND_HIGH))}" width="{plot_w}" height="{_fmt(y(BAND_LOW) - y(BAND_HIGH))}" '
        'fill="#efe4d2" class="band"><title>Hysteresis band 0.4-0.6: votes hold here</title></rect>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        ty = _fmt(y(tick))
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{ty}" y2="{ty}" stroke="#d8cbb6" stroke-width="1"/>')
        out.append(
            f'<text x="{left - 8}" y="{ty}" text-anchor="end" dominant-baseline="middle" '
            f'font-size="12" fill="#5a4f42">{tick:.2f}</text>'
        )
    out.append(
        f'<text x="14" y="{_fmt(top + plot_h / 2)}" font-size="12" fill="#5a4f42" text-anchor="middle" '
        f'transform="rotate(-90 14 {_fmt(top + plot_h / 2)})">not guilty ← conviction → guilty</text>'
    )
    step = max(1, (last_round - first_round) // 10 + ((last_round - first_round) % 10 > 0))
    for round_number in range(first_round, last_round + 1, step):
        tx = _fmt(x(round_number))
        out.append(
            f'<text x="{tx}" y="{_fmt(top + plot_h + 16)}" text-anchor="middle" font-size="12" '
            f'fill="#5a4f42">{round_number}</text>'
        )
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{_fmt(top + plot_h + 32)}" text-anchor="middle" font-size="12" '
        'fill="#5a4f42">round</text>'
    )
    for seat, points in lines.items():
        name = escape(names.get(seat, f"Juror {seat}"))
        stroke = colour(seat)
        thick = 3.5 if seat == highlight_seat else 2
        coords = " ".join(f"{_fmt(x(p.round_number))},{_fmt(y(p.conviction))}" for p in points)
        out.append(f'<g class="juror-line" data-seat="{seat}"><title>{name} (seat {seat})</title>')
        if len(points) == 1:
            only = points[0]
            cx, cy = _fmt(x(only.round_number)), _fmt(y(only.conviction))
            out.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="{stroke}"/>')
        else:
            out.append(
                f'<polyline points="{coords}" fill="none" stroke="{stroke}" stroke-width="{thick}" '
                'stroke-linejoin="round" stroke-linecap="round"/>'
            )
        for flip in flips(points):
            out.append(
                f'<circle class="flip" cx="{_fmt(x(flip.round_number))}" cy="{_fmt(y(flip.conviction))}" r="6" '
                f'fill="#fff" stroke="{stroke}" stroke-width="2.5"><title>{name} changed vote to '
                f"{escape(_vote_label(flip.vote))} in round {flip.round_number}</title></circle>"
            )
        out.append("</g>")
    legend_top = top + plot_h + 48
    column_w = plot_w / 4
    for index, seat in enumerate(everyone):
        lx = left + (index % 4) * column_w
        ly = legend_top + (index // 4) * 22
        name = escape(names.get(seat, f"Juror {seat}"))
        if seat in voters:
            vote = escape(_vote_label(voters[seat][-1].vote))
            out.append(
                f'<g class="legend-item participant" data-seat="{seat}">'
                f'<rect x="{_fmt(lx + 5)}" y="{ly - 4}" width="8" height="8" fill="#fff" stroke="#5a4f42" '
                f'stroke-width="1.5"/><text x="{_fmt(lx + 24)}" y="{ly}" dominant-baseline="middle" '
                f'font-size="12" fill="#1f1a14">{seat}. {name}: {vote}</text>'
                f"<title>{name} (seat {seat}) is a participant: their vote, no conviction line</title></g>"
            )
            continue
        out.append(
            f'<g class="legend-item"><rect x="{_fmt(lx)}" y="{ly - 6}" width="18" height="4" fill="{colour(seat)}"/>'
            f'<text x="{_fmt(lx + 24)}" y="{ly}" dominant-baseline="middle" font-size="12" fill="#1f1a14">'
            f"{seat}. {name}</text></g>"
        )
    out.append("</svg>")
    return mark_safe("".join(out))
