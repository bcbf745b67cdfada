"""The transcript's reflection: contradictions, changes of mind with reasons, and the argument map."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from deliberation import services
from deliberation.models import Phase, Turn, TurnKind
from deliberation.review.moments import VoteChange
from deliberation.review.reflection import argument_map, changes_of_mind, contradictions, links

NAMES = {1: "Ada", 2: "Ben", 3: "Cy"}


def speech(sequence: int, round_number: int, seat: int, position: str, target: int | None = None, flips=()) -> Turn:
    return Turn(
        sequence=sequence,
        round_number=round_number,
        kind=TurnKind.SPEECH,
        seat_number=seat,
        speaker_name=NAMES[seat],
        target_seat=target,
        position=position,
        content="...",
        flips=list(flips),
    )


def test_arguing_the_other_side_without_a_vote_change_is_a_contradiction_and_with_one_is_not():
    turns = [
        speech(1, 1, 1, "guilty"),
        speech(2, 2, 1, "not_guilty"),  # no flip: a contradiction
        speech(3, 2, 2, "guilty", flips=[{"seat": 2, "from": "guilty", "to": "not_guilty", "reason": "moved by Ada"}]),
        speech(4, 3, 2, "not_guilty"),  # Ben changed his vote in round 2: a change of mind
    ]
    changes = [VoteChange(2, 2, "guilty", "not_guilty", name="Ben")]
    found = contradictions(turns, NAMES, changes)
    assert [(c.seat, c.before_round, c.round_number, c.sequence) for c in found] == [(1, 1, 2, 2)]
    assert (
        found[0].text
        == "Ada argued not guilty in round 2 after arguing guilty in round 1, without changing their vote."
    )
    changes = changes_of_mind([VoteChange(2, 2, "guilty", "not_guilty", name="Ben", reason="moved by Ada")])
    assert [c.text for c in changes] == ["Ben changed their vote from guilty to not guilty: moved by Ada."]


def test_a_juror_who_changed_their_vote_in_the_round_of_their_speech_argued_with_their_vote():
    """A flip carried by an earlier speech of the same round (a person's, heard first), then the
    juror's own speech for their new side: the transcript lists it as a change of vote, not as a
    contradiction."""
    turns = [
        speech(1, 4, 3, "guilty"),
        speech(2, 5, 1, "not_guilty", flips=[{"seat": 3, "from": "guilty", "to": "not_guilty"}]),
        speech(3, 5, 3, "not_guilty"),
    ]
    changes = [VoteChange(5, 3, "guilty", "not_guilty", name="Cy")]
    assert contradictions(turns, NAMES, changes) == []


def test_a_persons_own_change_of_vote_is_no_contradiction_and_a_change_the_other_way_does_not_excuse_one():
    """A person's cast vote leaves no flip on any turn: the changes of vote are the record."""
    turns = [speech(1, 1, 2, "guilty"), speech(2, 3, 2, "not_guilty")]
    assert contradictions(turns, NAMES, [VoteChange(2, 2, "guilty", "not_guilty", name="Ben")]) == []
    wrong_way = [VoteChange(2, 2, "not_guilty", "guilty", name="Ben")]
    assert [c.seat for c in contradictions(turns, NAMES, wrong_way)] == [2]


def test_an_answer_supports_the_side_its_target_argued_last_or_else_attacks_it():
    turns = [
        speech(1, 1, 1, "guilty"),
        speech(2, 1, 2, "guilty", target=1),  # supports Ada
        speech(3, 1, 3, "not_guilty", target=1),  # attacks Ada
        speech(4, 2, 3, "not_guilty", target=1),  # attacks Ada again
        speech(5, 2, 1, "guilty", target=2),  # Ben argued guilty: supports
    ]
    found = {(link.speaker, link.answered): (link.supports, link.attacks, link.stance) for link in links(turns, NAMES)}
    assert found == {(2, 1): (1, 0, "supporting"), (3, 1): (0, 2, "attacking"), (1, 2): (1, 0, "supporting")}
    drawn = argument_map(turns, NAMES)
    assert (drawn.links[0].link.speaker, drawn.links[0].link.answered) == (3, 1)  # most answers first
    assert drawn.links[0].width > drawn.links[1].width


def test_a_juror_answered_before_speaking_is_judged_by_their_vote():
    turns = [speech(1, 1, 2, "not_guilty", target=1)]
    assert links(turns, NAMES, {0: {1: "not_guilty"}})[0].stance == "supporting"
    assert links(turns, NAMES, {0: {1: "guilty"}})[0].stance == "attacking"


@pytest.mark.django_db
def test_the_transcript_page_draws_the_argument_map_and_gives_each_change_of_mind_its_reason(client, robbery):
    deliberation = services.deliberation_start(
        case=robbery, seed=3, player_side="none", host_plays=False, options={"turn_mode": "reply-chain"}
    )
    while deliberation.phase == Phase.DELIBERATION:
        assert services.round_run(deliberation_id=deliberation.pk)
        deliberation.refresh_from_db()
    page = client.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert '<svg class="argmap"' in page
    assert "Turns: reply-chain. What a model juror sees: window-and-summary." in page
    answered = Turn.objects.filter(deliberation=deliberation, kind=TurnKind.SPEECH, target_seat__isnull=False)
    pairs = {(t.seat_number, t.target_seat) for t in answered if t.target_seat != t.seat_number}
    drawn = set(re.findall(r'data-from="(\d+)" data-to="(\d+)"', page))
    assert drawn == {(str(a), str(b)) for a, b in pairs}
    flips = [f for t in deliberation.turns.all() for f in t.flips]
    assert flips and all(f["reason"] for f in flips)
    assert all(escape(f["reason"]) in page for f in flips)
