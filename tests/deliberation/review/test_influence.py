"""The influence graph: who moved whom, summed per speaker and listener, and its drawing."""

from __future__ import annotations

import re

import pytest

from deliberation.review.influence import SIZE, WIDTH_MAX, WIDTH_MIN, influence_edges, influence_of, layout
from deliberation.review.moments import Reaction, Speech


def speech(sequence: int, seat: int, *reactions: Reaction) -> Speech:
    return Speech(sequence=sequence, round=1, seat=seat, name=f"Juror {seat}", text="", reactions=reactions)


SPEECHES = [
    speech(1, 8, Reaction(3, -0.20, persuaded=True), Reaction(4, 0.05)),
    speech(2, 8, Reaction(3, -0.10), Reaction(4, -0.05)),  # 8 -> 4 cancels out: no edge
    speech(3, 3, Reaction(8, 0.02)),
]


def test_an_edge_sums_the_listeners_deltas_over_all_the_speakers_speeches():
    edges = {(e.speaker, e.listener): e for e in influence_edges(SPEECHES)}
    assert set(edges) == {(8, 3), (3, 8)}
    assert edges[8, 3].net == pytest.approx(-0.30)
    assert (edges[8, 3].speeches, edges[8, 3].persuaded) == (2, 1)
    assert edges[8, 3].direction == "not_guilty" and edges[3, 8].direction == "guilty"


def test_edges_come_strongest_first_and_a_speakers_pull_is_the_sum_of_its_edges():
    edges = influence_edges(SPEECHES)
    assert [(e.speaker, e.listener) for e in edges] == [(8, 3), (3, 8)]
    assert influence_of(edges) == pytest.approx({8: 0.30, 3: 0.02})


def test_a_speaker_is_never_an_edge_to_themselves():
    assert influence_edges([speech(1, 5, Reaction(5, 0.4))]) == []


def test_the_drawing_puts_every_seat_inside_the_picture_and_the_first_at_the_top():
    seats = {n: f"Juror {n}" for n in range(1, 13)}
    drawing = layout(seats, influence_edges(SPEECHES), participants=frozenset({7}))
    assert [n.seat for n in drawing.nodes] == list(range(1, 13))
    assert all(0 < n.x < SIZE and 0 < n.y < SIZE for n in drawing.nodes)
    top = drawing.nodes[0]
    assert top.x == SIZE / 2 and top.y == min(n.y for n in drawing.nodes)
    assert [n.seat for n in drawing.nodes if n.participant] == [7]
    by_seat = {n.seat: n for n in drawing.nodes}
    assert by_seat[8].r > by_seat[3].r > by_seat[1].r == by_seat[12].r  # bigger pull, bigger seat


def test_the_strongest_arrow_is_widest_and_only_the_strongest_few_are_drawn():
    seats = {n: f"Juror {n}" for n in range(1, 13)}
    many = [speech(n, n, *(Reaction(m, 0.01 * n) for m in range(1, 13) if m != n)) for n in range(1, 13)]
    edges = influence_edges(many)
    drawing = layout(seats, edges, drawn=10)
    assert len(drawing.arrows) == 10 and drawing.hidden == len(edges) - 10 == 122
    widths = [a.width for a in drawing.arrows]
    assert widths[0] == WIDTH_MAX and widths == sorted(widths, reverse=True) and widths[-1] >= WIDTH_MIN
    assert all(re.fullmatch(r"M[\d.]+,[\d.]+ Q[\d.-]+,[\d.-]+ [\d.]+,[\d.]+", a.path) for a in drawing.arrows)


def test_arrows_between_the_same_two_seats_bow_apart():
    seats = {3: "Three", 8: "Eight"}
    drawing = layout(seats, influence_edges(SPEECHES))
    paths = {(a.edge.speaker, a.edge.listener): a.path for a in drawing.arrows}
    control = lambda path: path.split(" ")[1]  # noqa: E731
    assert control(paths[8, 3]) != control(paths[3, 8])
