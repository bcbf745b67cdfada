"""``manage.py narrate``: one line to a WAV file with the active engine."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command

from deliberation.management.commands import narrate
from deliberation.narration import engines as narration
from tests.conftest import need
from tests.deliberation.elevenlabs_server import SECONDS_PER_WORD, UNAUTHORIZED, ElevenLabsServer

LINE = "Members of the jury. Let us begin."


def _narrate(out: Path, text: str = LINE) -> tuple[str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command("narrate", text, out=str(out), stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


def test_narrate_with_espeak_writes_a_wav_and_prints_engine_and_duration(settings: Any, tmp_path: Path) -> None:
    binary = shutil.which("espeak-ng")
    need(binary is not None, "espeak-ng is not installed (apt-get install espeak-ng)")
    settings.ELEVENLABS_API_KEY = ""
    settings.ANGRY_NARRATION = "auto"
    out = tmp_path / "line.wav"
    stdout, _ = _narrate(out)
    duration = narration.wav_duration(out.read_bytes())
    assert "engine: espeak" in stdout
    assert f"duration: {duration:.2f} s" in stdout
    assert 0.5 < duration < 20


def test_narrate_with_elevenlabs_wraps_the_pcm_it_asked_for(elevenlabs: ElevenLabsServer, tmp_path: Path) -> None:
    out = tmp_path / "nested" / "line.wav"
    stdout, _ = _narrate(out)
    expected = len(LINE.split()) * SECONDS_PER_WORD
    assert "engine: elevenlabs" in stdout
    assert f"duration: {expected:.2f} s" in stdout
    assert narration.wav_duration(out.read_bytes()) == pytest.approx(expected, abs=1e-3)
    assert elevenlabs.requests[0].query["output_format"].startswith("pcm_")


def test_narrate_reports_a_failed_engine_and_uses_the_next(
    elevenlabs: ElevenLabsServer, settings: Any, tmp_path: Path
) -> None:
    need(shutil.which("espeak-ng") is not None, "espeak-ng is not installed (apt-get install espeak-ng)")
    elevenlabs.script(UNAUTHORIZED)
    stdout, stderr = _narrate(tmp_path / "line.wav")
    assert "elevenlabs failed: ElevenLabs answered HTTP 401: Invalid API key" in stderr
    assert "engine: espeak" in stdout


def test_narrate_fails_when_every_engine_fails(elevenlabs: ElevenLabsServer, settings: Any, tmp_path: Path) -> None:
    settings.ANGRY_ESPEAK_PATH = "/nonexistent/espeak-ng"
    elevenlabs.script(UNAUTHORIZED)
    out = tmp_path / "line.wav"
    with pytest.raises(CommandError, match=narrate.ERROR_ALL_FAILED):
        _narrate(out)
    assert not out.exists()


def test_narrate_in_text_only_mode_exits_1_saying_so(tmp_path: Path) -> None:
    out = tmp_path / "line.wav"
    env = {**os.environ, "ANGRY_NARRATION": "text", "ELEVENLABS_API_KEY": ""}
    done = subprocess.run(
        [sys.executable, str(Path(django_settings.BASE_DIR) / "manage.py"), "narrate", LINE, "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert narrate.ERROR_TEXT_ONLY in done.stderr
    assert not out.exists()


def test_narrate_refuses_a_line_too_long_to_speak(tmp_path: Path) -> None:
    from django.core.management.base import CommandError

    from deliberation.narration.engines import ERROR_TOO_LONG, MAX_SPOKEN_CHARS

    text = "word " * (MAX_SPOKEN_CHARS // 4)
    out = tmp_path / "long.wav"
    with pytest.raises(CommandError) as excinfo:
        _narrate(out, text)
    assert str(excinfo.value) == ERROR_TOO_LONG.format(length=len(" ".join(text.split())), limit=MAX_SPOKEN_CHARS)
    assert not out.exists()
