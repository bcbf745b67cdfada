"""Who moved whom: the influence graph of a deliberation and its drawing, in plain Python.

An edge from speaker A to listener B carries the sum of B's conviction deltas over every speech
A made (positive: A pushed B towards guilty). ``layout`` places the seats on a circle and turns
the strongest edges into curved arrows; a template draws the result as SVG, so the page needs no
JavaScript and prints as it shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from deliberation.review.moments import STILL, Speech, signed

SIZE = 600  # the drawing's square viewBox
RING = 210  # radius of the circle the seats sit on
NODE_MIN, NODE_MAX = 14.0, 26.0  # a seat's radius grows with how much it moved others
WIDTH_MIN, WIDTH_MAX = 1.0, 9.0  # an arrow's width grows with the size of the push
BEND = 0.18  # how far an arrow bows from the straight line, as a share of its length
DRAWN = 24  # at most this many arrows: past that the drawing is a hairball


@dataclass(frozen=True)
class Edge:
    speaker: int
    listener: int
    net: float  # sum of the listener's deltas over the speaker's speeches
    speeches: int  # how many of the speaker's speeches the listener reacted to
    persuaded: int  # how many of them the listener said persuaded them
    speaker_name: str = ""
    listener_name: str = ""

    @property
    def size(self) -> float:
        return abs(self.net)

    @property
    def direction(self) -> str:
        return "guilty" if self.net > 0 else "not_guilty"

    @property
    def change(self) -> str:
        return signed(self.net)


def influence_edges(speeches: list[Speech]) -> list[Edge]:
    """Every speaker-to-listener pair that moved at all, strongest first (then by seats).

    A seat is drawn under the name of whoever holds it: what the AI juror said for a person's
    empty seat (``Speech.stood_in``) is not hers, so it pushes nobody from her seat and persuades
    nobody in her name."""
    sums: dict[tuple[int, int], list[float]] = {}
    names: dict[int, str] = {}
    for speech in speeches:
        if speech.stood_in:
            continue
        names.setdefault(speech.seat, speech.name)
        for reaction in speech.reactions:
            if reaction.seat == speech.seat:
                continue
            names.setdefault(reaction.seat, reaction.name)
            acc = sums.setdefault((speech.seat, reaction.seat), [0.0, 0, 0])
            acc[0] += reaction.delta
            acc[1] += 1
            acc[2] += 1 if reaction.persuaded else 0
    edges = [
        Edge(
            speaker=a,
            listener=b,
            net=net,
            speeches=int(count),
            persuaded=int(won),
            speaker_name=names.get(a, ""),
            listener_name=names.get(b, ""),
        )
        for (a, b), (net, count, won) in sums.items()
        if abs(net) >= STILL
    ]
    return sorted(edges, key=lambda e: (-e.size, e.speaker, e.listener))


def influence_of(edges: list[Edge]) -> dict[int, float]:
    """Each speaker's total pull on the others (the sizes of their outgoing edges)."""
    total: dict[int, float] = {}
    for edge in edges:
        total[edge.speaker] = total.get(edge.speaker, 0.0) + edge.size
    return total


@dataclass(frozen=True)
class NodeShape:
    seat: int
    name: str
    x: float
    y: float
    r: float
    label_x: float
    label_y: float
    anchor: str  # text-anchor for the name outside the circle
    pull: float  # the seat's total influence on others
    participant: bool


@dataclass(frozen=True)
class ArrowShape:
    edge: Edge
    path: str  # an SVG path: a quadratic curve from the speaker's rim to the listener's rim
    width: float


@dataclass(frozen=True)
class Drawing:
    size: int
    nodes: tuple[NodeShape, ...]
    arrows: tuple[ArrowShape, ...]
    hidden: int  # edges left out of the drawing (they stay in the list beside it)


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def _scaled(value: float, top: float, low: float, high: float) -> float:
    return low + (high - low) * (value / top) if top > 0 else low


def layout(
    seats: dict[int, str], edges: list[Edge], *, participants: frozenset[int] = frozenset(), drawn: int = DRAWN
) -> Drawing:
    """Seats clockwise from the top in seat order; the ``drawn`` strongest edges as arrows."""
    centre = SIZE / 2
    pull = influence_of(edges)
    most = max(pull.values(), default=0.0)
    order = sorted(seats)
    nodes: dict[int, NodeShape] = {}
    for index, seat in enumerate(order):
        angle = -math.pi / 2 + 2 * math.pi * index / max(len(order), 1)
        cos, sin = math.cos(angle), math.sin(angle)
        r = _scaled(pull.get(seat, 0.0), most, NODE_MIN, NODE_MAX)
        label = RING + NODE_MAX + 10
        anchor = "middle" if abs(cos) < 0.3 else "start" if cos > 0 else "end"
        nodes[seat] = NodeShape(
            seat=seat,
            name=seats[seat],
            x=round(centre + RING * cos, 1),
            y=round(centre + RING * sin, 1),
            r=round(r, 1),
            label_x=round(centre + label * cos, 1),
            label_y=round(centre + label * sin + (12 if sin > 0.3 else 0 if sin > -0.3 else -4), 1),
            anchor=anchor,
            pull=pull.get(seat, 0.0),
            participant=seat in participants,
        )
    shown = [e for e in edges if e.speaker in nodes and e.listener in nodes][:drawn]
    strongest = max((e.size for e in shown), default=0.0)
    arrows = tuple(
        ArrowShape(
            edge=e,
            path=_curve(nodes[e.speaker], nodes[e.listener]),
            width=round(_scaled(e.size, strongest, WIDTH_MIN, WIDTH_MAX), 1),
        )
        for e in shown
    )
    return Drawing(size=SIZE, nodes=tuple(nodes[s] for s in order), arrows=arrows, hidden=len(edges) - len(shown))


def _curve(a: NodeShape, b: NodeShape) -> str:
    """A bow from ``a``'s rim to just outside ``b``'s rim, bent to the right of the direction of travel
    so that A→B and B→A never lie on top of each other."""
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    mx, my = (a.x + b.x) / 2 - uy * BEND * length, (a.y + b.y) / 2 + ux * BEND * length
    start = _towards_point(a.x, a.y, mx, my, a.r + 2)
    end = _towards_point(b.x, b.y, mx, my, b.r + 4)  # leave room for the arrowhead
    return f"M{_fmt(start[0])},{_fmt(start[1])} Q{_fmt(mx)},{_fmt(my)} {_fmt(end[0])},{_fmt(end[1])}"


def _towards_point(x: float, y: float, tx: float, ty: float, distance: float) -> tuple[float, float]:
    dx, dy = tx - x, ty - y
    length = math.hypot(dx, dy) or 1.0
    return x + dx / length * distance, y + dy / length * distance
