"""The transcript page: every turn, reactions, flips where they happened, the judge, the figures."""

from __future__ import annotations

import re
from html import unescape

from django.core.files.base import ContentFile
from django.urls import reverse

from deliberation.models import BallotKind, Narration, NarrationKind, NarrationStatus, Turn, TurnKind, Vote
from tests.deliberation.review.conftest import SPECIAL, write_deliberation


def _page(client, deliberation, query: str = "") -> str:
    response = client.get(reverse("review:transcript", args=[deliberation.public_id]) + query)
    assert response.status_code == 200
    return response.content.decode()


def _article(html: str, turn: Turn) -> str:
    start = html.index(f'id="turn-{turn.sequence}"')
    return html[start : html.index("</article>", start)]


def test_the_transcript_lives_at_deliberations_public_id(finished):
    assert reverse("review:transcript", args=[finished.public_id]) == f"/deliberations/{finished.public_id}/"
    assert str(finished.pk) != finished.public_id and len(finished.public_id) == 16


def test_every_turn_is_shown_with_speaker_target_and_argument_type(client, finished):
    html = _page(client, finished)
    speeches = list(finished.turns.filter(kind=TurnKind.SPEECH))
    assert speeches
    seats = {s.number: s for s in finished.seats.all()}
    for turn in finished.turns.all():
        article = unescape(_article(html, turn))
        assert turn.speaker_name in article
        assert turn.content in article
        if turn.argument_type:
            assert turn.argument_type in article
        if turn.target_seat:
            assert f"→ {seats[turn.target_seat].display_name}" in article


def test_listeners_reactions_are_folded_under_each_speech(client, finished):
    html = _page(client, finished)
    turn = finished.turns.filter(kind=TurnKind.SPEECH).first()
    article = unescape(_article(html, turn))
    folded = article[article.index("<details") : article.index("</details>")]
    assert "<details open" not in article
    assert f"{len(turn.reactions)} listeners" in folded
    for reaction in turn.reactions:
        assert reaction["thought"] in folded


def test_vote_flips_are_marked_on_the_speech_that_closed_their_round(client, finished):
    html = _page(client, finished)
    flipped = [t for t in finished.turns.all() if t.flips]
    assert flipped, "seed 3 changes votes"
    seats = {s.number: s for s in finished.seats.all()}
    for turn in finished.turns.all():
        article = _article(html, turn)
        if turn.flips:
            assert "Votes changed as this round ended" in article
            for flip in turn.flips:
                assert seats[flip["seat"]].display_name in article
        else:
            assert "Votes changed" not in article


def test_a_participants_cast_vote_is_marked_in_its_round(client, db):
    deliberation = write_deliberation(rounds=3)
    Vote.objects.create(
        deliberation=deliberation,
        round_number=2,
        seat_number=7,
        value="not_guilty",
        previous="guilty",
        ballot=BallotKind.CAST,
    )
    html = _page(client, deliberation)
    round_two = html[html.index('id="round-2"') : html.index('id="round-3"')]
    assert "Seat 7 cast a vote: guilty → not guilty" in unescape(round_two)


def test_foreperson_lines_and_engine_notes_are_set_apart_from_speeches(client, finished):
    Turn.objects.create(
        deliberation=finished,
        round_number=1,
        sequence=999,
        kind=TurnKind.NOTE,
        speaker_name="Court clerk",
        content="The round could not be completed.",
    )
    html = _page(client, finished)
    foreperson = finished.turns.filter(kind=TurnKind.PROCESS).first()
    assert 'class="turn turn-foreperson"' in html[html.index(f'id="turn-{foreperson.sequence}"') - 60 :][:200]
    assert 'class="turn turn-note" id="turn-999"' in html


def test_the_judges_narrations_are_read_with_audio_when_there_is_some(client, finished, settings):
    narrations = list(finished.narrations.all())
    assert narrations
    with_audio = Narration(
        deliberation=finished,
        round_number=1,
        kind=NarrationKind.LINE,
        text="Order in court.",
        status=NarrationStatus.READY,
    )
    with_audio.audio.save("order.mp3", ContentFile(b"ID3"), save=True)
    html = unescape(_page(client, finished))
    for narration in narrations:
        assert narration.text in html
    assert f'<audio controls preload="none" src="{with_audio.audio.url}"' in html
    assert html.count("<audio") == sum(1 for n in [*narrations, with_audio] if n.audio)


def test_the_conviction_timeline_and_the_tally_round_by_round_are_shown(client, finished):
    html = _page(client, finished)
    assert '<svg class="chart"' in html and 'class="band"' in html
    assert html.count('class="juror-line"') == 12
    assert 'class="flip"' in html
    tally = html[html.index("Tally by round") :]
    for number in range(finished.round_number + 1):
        assert f'<a href="#round-{number}">{number}</a>' in tally


def test_the_runs_figures_are_summed_over_its_rounds(client, db):
    deliberation = write_deliberation(rounds=4, engine="openai/gpt-4o-mini")
    html = _page(client, deliberation)
    figures = html[html.index("The run's figures") :]
    assert re.search(r"<dt>Model calls</dt><dd>12</dd>", figures)
    assert "1000 prompt, 40 completion" in figures  # 100+200+300+400 prompt tokens, 10 completion each
    assert "<dd>20 ms</dd>" in figures
    assert "openai/gpt-4o-mini" in figures


def test_the_offline_engine_is_called_by_its_name(client, finished):
    assert "the offline engine" in _page(client, finished)


def test_turn_content_is_shown_as_text_not_markup(client, finished):
    turn = finished.turns.filter(kind=TurnKind.SPEECH).first()
    Turn.objects.filter(pk=turn.pk).update(content=SPECIAL)
    html = _page(client, finished)
    assert "<script>alert" not in html
    assert unescape(_article(html, turn)).count(SPECIAL) == 1


def test_an_unknown_deliberation_is_not_found(client, db):
    assert client.get(reverse("review:transcript", args=["no-such-public-id"])).status_code == 404


def test_a_flip_reads_in_plain_words(client, db):
    deliberation = write_deliberation(rounds=1)  # seat 1 goes from guilty to not guilty in round 1
    assert "Juror Name 1 guilty → not guilty" in unescape(_page(client, deliberation))
