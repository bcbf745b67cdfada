"""Reflection on a finished (or running) deliberation: contradictions, changes of mind, and the
argument map, all read from the stored turns in plain Python (no queries of its own).

* A **contradiction**: a juror's speech argues the other side from their previous speech while
  their vote did not change to that side in between (a changed vote is a change of mind, not a
  contradiction), by the same changes of vote as below.
* A **change of mind**: a juror's or a person's change of vote, as every page counts it
  (``review.selectors.vote_changes``), with the engine's reason for a flip.
* The **argument map**: who answered whom (a speech's target), supporting (the speech argued the
  side the one answered had argued last) or attacking (the other side), drawn as SVG on the seat
  circle of ``influence.layout``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from deliberation.models import Turn, TurnKind
from deliberation.review.influence import SIZE, NodeShape, layout
from deliberation.review.moments import VoteChange
from deliberation.review.selectors import Transcript

VotesByRound = dict[int, dict[int, str]]
SIDE = {"guilty": "guilty", "not_guilty": "not guilty"}
WIDTH_MIN, WIDTH_MAX = 1.5, 7.0
DRAWN = 30


@dataclass(frozen=True)
class Contradiction:
    round_number: int
    seat: int
    name: str
    before_round: int
    before: str
    after: str
    sequence: int

    @property
    def text(self) -> str:
        return (
            f"{self.name} argued {SIDE.get(self.after, self.after)} in round {self.round_number} after arguing "
            f"{SIDE.get(self.before, self.before)} in round {self.before_round}, without changing their vote."
        )


@dataclass(frozen=True)
class ChangeOfMind:
    round_number: int
    seat: int
    name: str
    before: str
    after: str
    reason: str

    @property
    def text(self) -> str:
        why = f": {self.reason}" if self.reason else ""
        before, after = SIDE.get(self.before, self.before), SIDE.get(self.after, self.after)
        return f"{self.name} changed their vote from {before} to {after}{why}."


@dataclass(frozen=True)
class Link:
    """Every answer from one juror to another, split by stance."""

    speaker: int
    answered: int
    supports: int
    attacks: int
    speaker_name: str = ""
    answered_name: str = ""

    @property
    def stance(self) -> str:
        return "supporting" if self.supports > self.attacks else "attacking"

    @property
    def count(self) -> int:
        return self.supports + self.attacks


@dataclass(frozen=True)
class LinkShape:
    link: Link
    path: str
    width: float


@dataclass(frozen=True)
class ArgumentMap:
    size: int
    nodes: tuple[NodeShape, ...]
    links: tuple[LinkShape, ...]
    all_links: tuple[Link, ...]


def _speeches(turns: Iterable[Turn]) -> list[Turn]:
    return [t for t in turns if t.kind == TurnKind.SPEECH and t.seat_number]


def changes_of_mind(changes: Iterable[VoteChange]) -> list[ChangeOfMind]:
    """The transcript's changes of vote (``review.selectors.vote_changes``: the one count every page
    shows), in words with the engine's reason."""
    return [ChangeOfMind(c.round, c.seat, c.name, c.before, c.after, c.reason) for c in changes]


def contradictions(turns: Iterable[Turn], names: dict[int, str], changes: Iterable[VoteChange]) -> list[Contradiction]:
    """Speeches that argue the other side from the speaker's last one while their vote did not turn
    to that side in between. ``changes`` are the changes of vote every page counts
    (``review.selectors.vote_changes``), so a speech is never called a contradiction a few lines
    above the change of vote that explains it. A change in the round of either speech counts: a
    round's changes are not ordered against its speeches, and a juror who turned in that round
    argued with their vote."""
    turned: dict[int, list[VoteChange]] = {}
    for change in changes:
        turned.setdefault(change.seat, []).append(change)
    last: dict[int, Turn] = {}
    found = []
    for turn in _speeches(turns):
        seat = turn.seat_number
        before = last.get(seat)
        if before is not None and before.position and turn.position and before.position != turn.position:
            changed = any(
                before.round_number <= c.round <= turn.round_number and c.after == turn.position
                for c in turned.get(seat, ())
            )
            if not changed:
                found.append(
                    Contradiction(
                        turn.round_number,
                        seat,
                        names.get(seat, turn.speaker_name),
                        before.round_number,
                        before.position,
                        turn.position,
                        turn.sequence,
                    )
                )
        if turn.position:
            last[seat] = turn
    return found


def links(turns: Iterable[Turn], names: dict[int, str], votes: VotesByRound | None = None) -> list[Link]:
    """Who answered whom, most answers first. A speech aimed at a juror supports them when it argues
    the side they argued last, or, before they have spoken, the side of their vote as the round
    began (``votes``: round -> seat -> vote); otherwise it attacks them."""
    votes = votes or {}
    counts: dict[tuple[int, int], list[int]] = {}
    said: dict[int, str] = {}
    for turn in _speeches(turns):
        target = turn.target_seat
        if target and target != turn.seat_number and turn.position:
            theirs = said.get(target) or votes.get(turn.round_number - 1, {}).get(target, "")
            supports = bool(theirs) and theirs == turn.position
            pair = counts.setdefault((turn.seat_number, target), [0, 0])
            pair[0 if supports else 1] += 1
        if turn.position:
            said[turn.seat_number] = turn.position
    found = [
        Link(a, b, s, x, names.get(a, f"Seat {a}"), names.get(b, f"Seat {b}")) for (a, b), (s, x) in counts.items()
    ]
    return sorted(found, key=lambda link: (-link.count, link.speaker, link.answered))


def argument_map(turns: Iterable[Turn], names: dict[int, str], votes: VotesByRound | None = None) -> ArgumentMap:
    """The map drawn on the seat circle: the ``DRAWN`` busiest answers as arrows."""
    found = links(turns, names, votes)
    base = layout(names, [])
    nodes = {node.seat: node for node in base.nodes}
    shown = [link for link in found if link.speaker in nodes and link.answered in nodes][:DRAWN]
    most = max((link.count for link in shown), default=1)
    shapes = tuple(
        LinkShape(
            link,
            _curve(nodes[link.speaker], nodes[link.answered]),
            round(WIDTH_MIN + (WIDTH_MAX - WIDTH_MIN) * (link.count - 1) / max(most - 1, 1), 1),
        )
        for link in shown
    )
    return ArgumentMap(SIZE, base.nodes, shapes, tuple(found))


def _curve(a: NodeShape, b: NodeShape, bend: float = 0.18) -> str:
    """A bow from ``a``'s rim to just outside ``b``'s, to the right of travel (A→B and B→A apart)."""
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    mx, my = (a.x + b.x) / 2 - uy * bend * length, (a.y + b.y) / 2 + ux * bend * length

    def towards(x: float, y: float, distance: float) -> tuple[float, float]:
        ex, ey = mx - x, my - y
        size = math.hypot(ex, ey) or 1.0
        return x + ex / size * distance, y + ey / size * distance

    start, end = towards(a.x, a.y, a.r + 2), towards(b.x, b.y, b.r + 4)
    return f"M{start[0]:.1f},{start[1]:.1f} Q{mx:.1f},{my:.1f} {end[0]:.1f},{end[1]:.1f}"


def reflection_context(transcript: Transcript) -> dict[str, object]:
    """The transcript page's reflection panel, from what ``build_transcript`` already fetched."""
    turns = [view.turn for r in transcript.rounds for view in r.turns]
    names = transcript.names()
    votes = {number: {seat: snap.vote for seat, snap in row.items()} for number, row in transcript.snapshots.items()}
    return {
        "argmap": argument_map(turns, names, votes),
        "contradictions": contradictions(turns, names, transcript.changes),
        "changes_of_mind": changes_of_mind(transcript.changes),
        "discharged_seats": {n for n, seat in transcript.seats.items() if seat.discharged_round},
        "format_line": format_line((transcript.deliberation.engine_state or {}).get("settings") or {}),
    }


def format_line(settings: dict[str, object]) -> str:
    """The deliberation's format in words: its turn mode and context scope."""
    mode = settings.get("turn_mode") or "weighted"
    scope = settings.get("context_scope") or "window-and-summary"
    extra = f" (n = {settings.get('last_n')})" if scope == "last-n" else ""
    return f"Turns: {mode}. What a model juror sees: {scope}{extra}."
