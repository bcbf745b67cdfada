"""The judge's voice: engines, fall-through, caching and the text-only mode."""

from __future__ import annotations

import io
import shutil
import wave
from typing import Any

import pytest
from django.core.files.storage import default_storage

from deliberation.models import Narration, NarrationKind, NarrationStatus
from deliberation.narration import engines as narration
from deliberation.narration import services as narration_services
from tests.conftest import need
from tests.deliberation.elevenlabs_server import (
    SECONDS_PER_WORD,
    SERVER_ERROR,
    SLOW,
    UNAUTHORIZED,
    ElevenLabsServer,
    pcm_for,
)

LINE = "The current vote stands at 7 for guilty, 5 for not guilty. The jury remains divided."
ABSENT_ESPEAK = "/nonexistent/espeak-ng"


@pytest.fixture
def no_espeak(settings: Any) -> None:
    settings.ANGRY_ESPEAK_PATH = ABSENT_ESPEAK


@pytest.fixture
def espeak(settings: Any) -> str:
    binary = shutil.which("espeak-ng")
    need(binary is not None, "espeak-ng is not installed (apt-get install espeak-ng)")
    settings.ANGRY_ESPEAK_PATH = binary
    return str(binary)


def _wav(data: bytes) -> wave.Wave_read:
    return wave.open(io.BytesIO(data), "rb")


def _render(text: str = LINE) -> Narration:
    created = Narration.objects.create(kind=NarrationKind.VOTE, text=text)
    rendered = narration_services.narration_render(narration_id=created.pk)
    assert rendered is not None
    return rendered


def test_espeak_renders_a_sentence_to_a_valid_wav_of_plausible_duration(espeak: str) -> None:
    engine = narration.EspeakEngine(binary=espeak)
    short = engine.synthesize("Let us begin.")
    long = engine.synthesize(LINE)
    with _wav(long) as audio:
        assert audio.getnchannels() == 1
        assert audio.getsampwidth() == 2
        assert audio.getnframes() > 0
    assert 0.5 < narration.wav_duration(long) < 20
    assert narration.wav_duration(short) < narration.wav_duration(long)


def test_espeak_reads_a_line_starting_with_a_dash_as_text(espeak: str) -> None:
    wav = narration.EspeakEngine(binary=espeak).synthesize("-v is not an option here")
    assert narration.wav_duration(wav) > 0.5


def test_elevenlabs_pcm_is_wrapped_in_a_wav_whose_duration_is_samples_over_rate(
    elevenlabs: ElevenLabsServer,
) -> None:
    engine = narration.config_from_settings().elevenlabs
    wav = engine.synthesize(LINE)
    expected_pcm = pcm_for(LINE, narration.ELEVENLABS_SAMPLE_RATE)
    with _wav(wav) as audio:
        assert audio.getframerate() == narration.ELEVENLABS_SAMPLE_RATE
        assert audio.getnchannels() == 1
        assert audio.readframes(audio.getnframes()) == expected_pcm
    words = len(LINE.split())
    assert narration.wav_duration(wav) == pytest.approx(words * SECONDS_PER_WORD, abs=1e-3)


def test_elevenlabs_request_carries_the_voice_model_settings_and_key(
    elevenlabs: ElevenLabsServer, settings: Any
) -> None:
    settings.ELEVENLABS_VOICE_ID = "judge-voice"
    narration.config_from_settings().elevenlabs.synthesize("Order in the court.")
    [sent] = elevenlabs.requests
    assert sent.voice_id == "judge-voice"
    assert sent.query["output_format"] == f"pcm_{narration.ELEVENLABS_SAMPLE_RATE}"
    assert sent.headers["xi-api-key"] == "local-test-key"
    assert sent.body["text"] == "Order in the court."
    assert sent.body["model_id"] == "eleven_multilingual_v2"
    assert sent.body["voice_settings"] == {"stability": 0.7, "similarity_boost": 0.8, "style": 0.5}


@pytest.mark.django_db
def test_a_narration_rendered_by_elevenlabs_is_stored_as_a_ready_wav(elevenlabs: ElevenLabsServer) -> None:
    rendered = _render()
    assert rendered.status == NarrationStatus.READY
    assert rendered.engine == narration.ELEVENLABS
    assert rendered.audio.name == f"narration/{rendered.cache_key}.wav"
    assert rendered.cache_key == narration.cache_key(text=LINE, voice=rendered.voice, engine=narration.ELEVENLABS)
    assert rendered.duration_seconds == pytest.approx(len(LINE.split()) * SECONDS_PER_WORD, abs=1e-3)
    assert rendered.attempts == [{"engine": "elevenlabs", "ok": True, "error": "", "cached": False}]
    assert rendered.rendered_at is not None
    with default_storage.open(rendered.audio.name, "rb") as stored:
        assert narration.wav_duration(stored.read()) == pytest.approx(rendered.duration_seconds)


FAILURES = [
    (UNAUTHORIZED, "ElevenLabs answered HTTP 401: Invalid API key"),
    (SERVER_ERROR, "ElevenLabs answered HTTP 500: An internal server error occurred."),
    (SLOW, narration.ERROR_ELEVENLABS_TIMEOUT.format(timeout=0.5)),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("behaviour", "error"), FAILURES)
def test_an_elevenlabs_failure_falls_through_to_espeak_and_is_recorded(
    elevenlabs: ElevenLabsServer, espeak: str, behaviour: str, error: str
) -> None:
    elevenlabs.script(behaviour)
    rendered = _render()
    assert rendered.status == NarrationStatus.READY
    assert rendered.engine == narration.ESPEAK
    assert rendered.attempts == [
        {"engine": "elevenlabs", "ok": False, "error": error, "cached": False},
        {"engine": "espeak", "ok": True, "error": "", "cached": False},
    ]
    assert 0.5 < rendered.duration_seconds < 20


@pytest.mark.django_db
@pytest.mark.parametrize(("behaviour", "error"), FAILURES)
def test_an_elevenlabs_failure_without_espeak_leaves_the_words_only(
    elevenlabs: ElevenLabsServer, no_espeak: None, behaviour: str, error: str
) -> None:
    elevenlabs.script(behaviour)
    rendered = _render()
    assert rendered.status == NarrationStatus.TEXT_ONLY
    assert rendered.engine == narration.TEXT
    assert not rendered.audio
    assert rendered.duration_seconds is None
    assert rendered.attempts == [{"engine": "elevenlabs", "ok": False, "error": error, "cached": False}]


@pytest.mark.django_db
def test_a_cache_hit_reuses_the_audio_without_calling_the_engine(elevenlabs: ElevenLabsServer, settings: Any) -> None:
    settings.ELEVENLABS_TIMEOUT = 10  # on a loaded machine a piece may take over the fixture's 0.5 s:
    first = _render()  # the line would then be espeak's, and the second render ask ElevenLabs again
    assert first.engine == "elevenlabs", first.attempts
    voiced = len(elevenlabs.requests)
    second = _render()
    assert voiced >= 1
    assert len(elevenlabs.requests) == voiced
    assert second.status == NarrationStatus.READY
    assert second.audio.name == first.audio.name
    assert second.cache_key == first.cache_key
    assert second.duration_seconds == pytest.approx(first.duration_seconds)
    assert second.attempts == [{"engine": "elevenlabs", "ok": True, "error": "", "cached": True}]


@pytest.mark.django_db
def test_another_text_or_voice_setting_is_synthesized_anew(elevenlabs: ElevenLabsServer, settings: Any) -> None:
    first = _render()
    _render("Let us begin.")
    settings.ELEVENLABS_STABILITY = 0.3
    third = _render()
    assert len(elevenlabs.requests) == 3
    assert third.cache_key != first.cache_key
    assert elevenlabs.requests[2].body["voice_settings"]["stability"] == 0.3


@pytest.mark.django_db
def test_rendering_a_narration_twice_synthesizes_it_once(elevenlabs: ElevenLabsServer) -> None:
    created = Narration.objects.create(kind=NarrationKind.LINE, text=LINE)
    narration_services.narration_render(narration_id=created.pk)
    again = narration_services.narration_render(narration_id=created.pk)
    assert len(elevenlabs.requests) == 1
    assert again is not None and again.attempts[0]["cached"] is False


@pytest.mark.django_db
def test_text_only_mode_when_no_engine_is_available(settings: Any, no_espeak: None) -> None:
    settings.ELEVENLABS_API_KEY = ""
    settings.ANGRY_NARRATION = "auto"
    assert narration.active_engine() == narration.TEXT
    rendered = _render()
    assert rendered.status == NarrationStatus.TEXT_ONLY
    assert rendered.engine == narration.TEXT
    assert rendered.attempts == []
    assert not rendered.audio


@pytest.mark.django_db
def test_a_requested_engine_that_cannot_run_is_recorded(settings: Any, no_espeak: None) -> None:
    settings.ELEVENLABS_API_KEY = ""
    settings.ANGRY_NARRATION = "elevenlabs"
    rendered = _render()
    assert rendered.status == NarrationStatus.TEXT_ONLY
    assert rendered.attempts == [
        {"engine": "elevenlabs", "ok": False, "error": narration.ERROR_NO_API_KEY, "cached": False}
    ]


@pytest.mark.django_db
def test_a_request_renders_after_commit(
    elevenlabs: ElevenLabsServer, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.ANGRY_TASKS = "sync"  # run the task in this thread, inside the test's database
    with django_capture_on_commit_callbacks(execute=True):
        created = narration_services.narration_request_vote(
            deliberation_id=None, round_number=3, guilty=7, not_guilty=5
        )
        assert elevenlabs.requests == []
    created.refresh_from_db()
    assert created.status == NarrationStatus.READY
    assert created.round_number == 3
    assert created.text == LINE
    assert elevenlabs.requests[0].body["text"] == LINE


@pytest.mark.parametrize(
    ("mode", "key", "espeak_path", "expected"),
    [
        ("auto", "k", ABSENT_ESPEAK, narration.ELEVENLABS),
        ("auto", "", None, narration.ESPEAK),
        ("auto", "", ABSENT_ESPEAK, narration.TEXT),
        ("espeak", "k", None, narration.ESPEAK),
        ("elevenlabs", "", None, narration.ESPEAK),
        ("text", "k", None, narration.TEXT),
    ],
)
def test_active_engine_follows_the_mode_the_key_and_espeak(
    settings: Any, mode: str, key: str, espeak_path: str | None, expected: str
) -> None:
    if espeak_path is None:
        need(shutil.which("espeak-ng") is not None, "espeak-ng is not installed (apt-get install espeak-ng)")
    settings.ANGRY_NARRATION = mode
    settings.ELEVENLABS_API_KEY = key
    settings.ANGRY_ESPEAK_PATH = espeak_path or ""
    assert narration.active_engine() == expected
    status = narration.engine_status()
    assert status.engine == expected
    assert status.mode == mode


def test_engine_status_tells_the_curator_how_to_get_a_voice(settings: Any, no_espeak: None) -> None:
    settings.ELEVENLABS_API_KEY = ""
    settings.ANGRY_NARRATION = "auto"
    assert "install espeak-ng" in narration.engine_status().summary
    settings.ELEVENLABS_API_KEY = "k"
    assert "eleven_multilingual_v2" in narration.engine_status().summary


@pytest.mark.django_db
def test_a_damaged_cached_file_is_synthesized_again(elevenlabs: ElevenLabsServer) -> None:
    first = _render()
    with default_storage.open(first.audio.name, "wb") as damaged:
        damaged.write(b"not a wav")
    second = _render()
    assert len(elevenlabs.requests) == 2
    assert second.status == NarrationStatus.READY
    assert second.attempts[-1]["cached"] is False


@pytest.mark.django_db
def test_audio_that_cannot_be_stored_marks_the_narration_failed(
    elevenlabs: ElevenLabsServer, settings: Any, tmp_path: Any
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("media root is a file, so nothing can be stored under it")
    settings.MEDIA_ROOT = blocker
    rendered = _render()
    assert rendered.status == NarrationStatus.FAILED
    assert not rendered.audio
    assert rendered.attempts[0] == {"engine": "elevenlabs", "ok": True, "error": "", "cached": False}
    assert rendered.attempts[1]["error"].startswith(narration_services.ERROR_STORE_FAILED.split("{")[0])


@pytest.mark.django_db
def test_the_celery_task_renders_once_however_often_it_is_delivered(elevenlabs: ElevenLabsServer) -> None:
    from deliberation import tasks

    created = Narration.objects.create(kind=NarrationKind.LINE, text=LINE)
    tasks.narration_render.apply(args=(created.pk,)).get()
    tasks.narration_render.apply(args=(created.pk,)).get()
    created.refresh_from_db()
    assert created.status == NarrationStatus.READY
    assert len(elevenlabs.requests) == 1
    assert tasks.narration_render.time_limit == tasks.NARRATION_TIME_LIMIT
    assert tasks.narration_render.max_retries == 3


@pytest.mark.django_db
def test_a_line_too_long_to_speak_is_shown_as_text_and_never_sent_to_a_voice(elevenlabs: ElevenLabsServer) -> None:
    text = "The jury will now hear the whole record read aloud. " * (narration.MAX_SPOKEN_CHARS // 40)
    rendered = _render(text)
    assert rendered.status == NarrationStatus.TEXT_ONLY
    assert not rendered.audio
    assert elevenlabs.requests == []
    assert "shown as text, not spoken" in rendered.attempts[0]["error"]
