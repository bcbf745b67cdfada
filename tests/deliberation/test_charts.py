"""The conviction chart: a pure function from snapshots to SVG markup."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from deliberation.charts import BAND_HIGH, BAND_LOW, NO_DATA, Point, conviction_chart, flips, series

SVG = "{http://www.w3.org/2000/svg}"


def _parse(markup: str) -> ET.Element:
    return ET.fromstring(markup.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def _snapshots() -> list[dict]:
    rows = []
    for seat in range(1, 13):
        for round_number in range(4):
            conviction = 0.7 - 0.1 * round_number if seat == 3 else 0.3 + 0.01 * seat
            vote = "guilty" if conviction >= 0.5 else "not_guilty"
            rows.append({"round_number": round_number, "seat_number": seat, "conviction": conviction, "vote": vote})
    return rows


def test_chart_draws_one_line_per_juror_and_parses_as_svg():
    root = _parse(conviction_chart(_snapshots(), names={3: "Marcus"}))
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 12


def test_chart_shades_the_hysteresis_band_between_its_bounds():
    root = _parse(conviction_chart(_snapshots()))
    band = root.find(f".//{SVG}rect[@class='band']")
    assert band is not None
    assert f"{BAND_LOW}-{BAND_HIGH}" in band.find(f"{SVG}title").text


def test_only_the_juror_who_changed_vote_gets_a_flip_ring():
    root = _parse(conviction_chart(_snapshots(), names={3: "Marcus"}))
    rings = root.findall(f".//{SVG}circle[@class='flip']")
    assert len(rings) == 1
    assert "Marcus changed vote to not guilty in round 2" in rings[0].find(f"{SVG}title").text


def test_flips_are_read_from_consecutive_votes():
    points = [Point(0, 1, 0.7, "guilty"), Point(1, 1, 0.45, "guilty"), Point(2, 1, 0.3, "not_guilty")]
    assert flips(points) == [points[2]]


def test_series_orders_each_seat_by_round_whatever_the_input_order():
    rows = list(reversed(_snapshots()))
    assert [p.round_number for p in series(rows)[5]] == [0, 1, 2, 3]


def test_chart_names_jurors_in_its_legend_and_escapes_them():
    markup = conviction_chart(_snapshots(), names={1: "<b>Ann</b>"})
    assert "&lt;b&gt;Ann&lt;/b&gt;" in markup
    assert "<b>" not in markup


def test_empty_history_says_so():
    assert NO_DATA in conviction_chart([])


def _with_participant(seat: int) -> list[dict]:
    """The snapshots with ``seat`` held by a person: the engine pins their conviction to their vote."""
    rows = [r for r in _snapshots() if r["seat_number"] != seat]
    rows += [{"round_number": n, "seat_number": seat, "conviction": 0.0, "vote": "not_guilty"} for n in range(4)]
    return rows


def test_a_participant_gets_no_conviction_line_only_a_legend_entry_with_their_vote():
    root = _parse(conviction_chart(_with_participant(7), names={7: "Ada"}, participants={7}))
    assert len(root.findall(f".//{SVG}polyline")) == 11
    assert root.find(f".//{SVG}g[@data-seat='7'][@class='juror-line']") is None
    entry = root.find(f".//{SVG}g[@class='legend-item participant'][@data-seat='7']")
    assert entry is not None and entry.find(f"{SVG}text").text == "7. Ada: not guilty"
    assert "Not charted: seat 7" in root.find(f"{SVG}desc").text


def test_without_participants_every_seat_is_a_line():
    root = _parse(conviction_chart(_with_participant(7)))
    assert len(root.findall(f".//{SVG}polyline")) == 12
    assert root.find(f".//{SVG}g[@class='legend-item participant']") is None
