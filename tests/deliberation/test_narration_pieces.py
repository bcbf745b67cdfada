"""The judge speaks as it renders: long lines are voiced in pieces and the room hears the first
piece while the rest is still being synthesized."""

from __future__ import annotations

import io
import shutil
import wave
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.files.storage import default_storage

from deliberation.models import Deliberation, Narration, NarrationKind, NarrationStatus
from deliberation.narration import engines as narration
from deliberation.narration import pieces as narration_pieces
from deliberation.narration import services as narration_services
from deliberation.narration.pieces import FIRST_PIECE_WORDS, MIN_PIECE_WORDS, SHORT_LINE_WORDS, pieces_of
from deliberation.services.broadcast import group_name
from tests.conftest import need
from tests.deliberation.elevenlabs_server import SECONDS_PER_WORD, SERVER_ERROR, ElevenLabsServer, pcm_for
from tests.factories import CaseFactory

PRESENTATION = (
    "Members of the jury, the defendant James Holloway stands charged with robbery, contrary to section eight "
    "of the Theft Act. The prosecution says that on the night of the fourteenth of March he threatened a "
    "shopkeeper with a knife and took the till's takings. He denies it. You have heard the evidence. Consider "
    "it carefully, and return a verdict on which you all agree."
)


def _words(text: str) -> int:
    return len(text.split())


def test_a_short_line_is_one_piece() -> None:
    line = "The current vote stands at 7 for guilty, 5 for not guilty. The jury remains divided."
    assert _words(line) <= SHORT_LINE_WORDS
    assert pieces_of(line) == [line]


def test_a_long_line_is_cut_into_pieces_that_join_back_into_the_line() -> None:
    pieces = pieces_of(PRESENTATION)
    assert len(pieces) >= 4
    assert " ".join(pieces) == " ".join(PRESENTATION.split())


def test_the_first_piece_is_a_short_opening_cut_at_a_comma_when_one_is_in_reach() -> None:
    first = pieces_of(PRESENTATION)[0]
    assert first == "Members of the jury,"
    assert _words(first) <= FIRST_PIECE_WORDS


def test_without_a_comma_the_opening_is_cut_after_the_first_piece_words() -> None:
    line = " ".join(f"word{i}" for i in range(40)) + "."
    first = pieces_of(line)[0]
    assert _words(first) == FIRST_PIECE_WORDS


def test_a_fragment_shorter_than_the_minimum_joins_the_next_piece() -> None:
    line = (
        "Stop. The jury will now retire to consider its verdict in this case, and it will take as long as it "
        "needs. Thank you all. The court rises until the jury returns with its decision on the charge."
    )
    pieces = pieces_of(line)
    assert all(_words(piece) >= MIN_PIECE_WORDS for piece in pieces)
    assert pieces[0].startswith("Stop. The jury")


def test_an_empty_line_has_no_pieces() -> None:
    assert pieces_of("   ") == []


def _wav(seconds: float, rate: int = 22050) -> bytes:
    return narration.wav_from_pcm(b"\x00\x00" * round(seconds * rate), sample_rate=rate)


def test_joined_pieces_last_as_long_as_the_pieces_together() -> None:
    joined = narration_pieces.join_wavs([_wav(0.5), _wav(0.25), _wav(1.0)])
    assert narration.wav_duration(joined) == pytest.approx(1.75, abs=1e-3)


def test_pieces_of_different_formats_are_not_joined() -> None:
    with pytest.raises(wave.Error):
        narration_pieces.join_wavs([_wav(0.5, rate=22050), _wav(0.5, rate=16000)])


def test_elevenlabs_voices_each_piece_through_its_streaming_call_in_order(elevenlabs: ElevenLabsServer) -> None:
    seen: list[tuple[int, int, str]] = []
    rendering = narration_pieces.render_in_pieces(
        PRESENTATION,
        narration.engine_chain(),
        on_piece=lambda piece, count: seen.append((piece.index, count, piece.text)),
    )
    pieces = pieces_of(PRESENTATION)
    assert [index for index, _, _ in seen] == list(range(len(pieces)))
    assert [text for _, _, text in seen] == pieces
    assert [request.body["text"] for request in elevenlabs.requests] == pieces
    assert all(request.stream for request in elevenlabs.requests)
    assert rendering.engine == narration.ELEVENLABS
    assert rendering.duration_seconds == pytest.approx(_words(PRESENTATION) * SECONDS_PER_WORD, abs=0.01)
    assert rendering.cache_key == narration.cache_key(
        text=" ".join(pieces), voice=rendering.voice, engine=narration.ELEVENLABS
    )


def test_each_piece_knows_which_words_it_speaks(elevenlabs: ElevenLabsServer) -> None:
    line = " ".join(PRESENTATION.split())
    spans: list[tuple[int, int, str]] = []
    narration_pieces.render_in_pieces(
        PRESENTATION,
        narration.engine_chain(),
        on_piece=lambda piece, _: spans.append((piece.start, piece.end, piece.text)),
    )
    assert all(line[start:end] == text for start, end, text in spans)
    assert spans[-1][1] == len(line)


@pytest.fixture
def espeak(settings: Any) -> str:
    binary = shutil.which("espeak-ng")
    need(binary is not None, "espeak-ng is not installed (apt-get install espeak-ng)")
    settings.ANGRY_ESPEAK_PATH = binary
    return str(binary)


def test_a_piece_elevenlabs_fails_on_is_voiced_by_espeak_and_the_failure_kept(
    elevenlabs: ElevenLabsServer, espeak: str
) -> None:
    elevenlabs.script("ok", SERVER_ERROR)
    engines: list[str] = []
    rendering = narration_pieces.render_in_pieces(
        PRESENTATION, narration.engine_chain(), on_piece=lambda piece, _: engines.append(piece.engine)
    )
    assert engines[:3] == [narration.ELEVENLABS, narration.ESPEAK, narration.ELEVENLABS]
    assert rendering.engine == narration.ELEVENLABS
    assert {
        "engine": "elevenlabs",
        "ok": False,
        "error": "ElevenLabs answered HTTP 500: An internal server error occurred.",
        "cached": False,
    } in [attempt.as_dict() for attempt in rendering.attempts]


def test_espeak_alone_voices_a_long_line_in_pieces(settings: Any, espeak: str) -> None:
    settings.ANGRY_NARRATION = narration.ESPEAK
    durations: list[float] = []
    rendering = narration_pieces.render_in_pieces(
        PRESENTATION, narration.engine_chain(), on_piece=lambda piece, _: durations.append(piece.duration_seconds)
    )
    assert len(durations) == len(pieces_of(PRESENTATION))
    assert rendering.engine == narration.ESPEAK
    assert rendering.duration_seconds == pytest.approx(sum(durations), abs=0.01)


def _listen(deliberation_id: int) -> tuple[Any, str]:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group_name(deliberation_id), channel)
    return layer, channel


def _messages(layer: Any, channel: str, count: int) -> list[dict[str, Any]]:
    """The next ``count`` messages, read in one event loop (the Redis layer keeps its receive
    buffer per loop: reading each in a loop of its own would hand back the first again)."""

    async def read() -> list[dict[str, Any]]:
        return [await layer.receive(channel) for _ in range(count)]

    return async_to_sync(read)()


@pytest.mark.django_db(transaction=True)
def test_the_room_hears_the_first_piece_before_the_line_is_finished(
    elevenlabs: ElevenLabsServer, readable_layer: None
) -> None:
    deliberation = Deliberation.objects.create(case=CaseFactory())
    created = Narration.objects.create(deliberation=deliberation, kind=NarrationKind.PRESENTATION, text=PRESENTATION)
    layer, channel = _listen(deliberation.pk)
    rendered = narration_services.narration_render(narration_id=created.pk)
    assert rendered is not None and rendered.status == NarrationStatus.READY

    count = len(pieces_of(PRESENTATION))
    messages = _messages(layer, channel, count + 1)
    assert [message["event"] for message in messages] == ["narration"] * (count + 1)
    first = messages[0]["html"]
    assert 'data-speaking="1"' in first
    assert first.count('class="judge-audio"') == 1
    assert 'data-start="0"' in first
    assert messages[count - 1]["html"].count('class="judge-audio"') == count
    last = messages[count]["html"]
    assert "data-speaking" not in last
    assert last.count('class="judge-audio"') == count


@pytest.mark.django_db
def test_a_finished_line_keeps_its_pieces_and_the_whole_recording(elevenlabs: ElevenLabsServer) -> None:
    created = Narration.objects.create(kind=NarrationKind.PRESENTATION, text=PRESENTATION)
    rendered = narration_services.narration_render(narration_id=created.pk)
    assert rendered is not None
    assert len(rendered.pieces) == len(pieces_of(PRESENTATION))
    assert rendered.audio.name == f"narration/{rendered.cache_key}.wav"
    total = 0.0
    for piece in rendered.pieces:
        with default_storage.open(piece["audio"], "rb") as stored:
            total += narration.wav_duration(stored.read())
    assert rendered.duration_seconds == pytest.approx(total, abs=0.01)
    assert [entry["index"] for entry in rendered.playlist] == list(range(len(rendered.pieces)))


@pytest.mark.django_db
def test_a_line_that_ends_in_text_only_drops_its_pieces(elevenlabs: ElevenLabsServer, settings: Any) -> None:
    settings.ANGRY_ESPEAK_PATH = "/nonexistent/espeak-ng"
    elevenlabs.script("ok", "ok", SERVER_ERROR, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR)
    created = Narration.objects.create(kind=NarrationKind.PRESENTATION, text=PRESENTATION)
    rendered = narration_services.narration_render(narration_id=created.pk)
    assert rendered is not None
    # Two pieces were voiced; the third failed everywhere, so the rest of the line is words only.
    assert rendered.status == NarrationStatus.READY
    assert rendered.duration_seconds == pytest.approx(
        sum(_words(piece) for piece in pieces_of(PRESENTATION)[:2]) * SECONDS_PER_WORD, abs=0.01
    )
    errors = [attempt["error"] for attempt in rendered.attempts if not attempt["ok"]]
    assert narration_pieces.ERROR_PIECE_LOST.format(index=3, count=len(pieces_of(PRESENTATION))) in errors


def test_the_local_server_streams_pcm_in_chunks() -> None:
    import httpx

    with ElevenLabsServer() as server:
        with httpx.stream(
            "POST",
            f"{server.base_url}/v1/text-to-speech/v/stream?output_format=pcm_22050",
            headers={"xi-api-key": "k"},
            json={"text": PRESENTATION},
        ) as answer:
            assert answer.headers["transfer-encoding"] == "chunked"
            chunks = list(answer.iter_raw())
    assert b"".join(chunks) == pcm_for(PRESENTATION, 22050)
    assert io.BytesIO(b"".join(chunks)).getbuffer().nbytes > 4096
