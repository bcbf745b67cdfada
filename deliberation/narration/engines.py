"""The judge's voice: a chain of speech engines, tried in order, ending in text only.

- **ElevenLabs** through its official SDK when ``ELEVENLABS_API_KEY`` is set. We ask for raw
  16-bit PCM and wrap it in a WAV header ourselves, so every engine yields the same format
  and a duration can be read without decoding MP3.
- **espeak-ng** when the binary is installed: offline, robotic, always there.
- **Text only** otherwise: the courtroom shows the judge's words without sound.

A failing engine falls through to the next and the failure is kept as an ``Attempt``; nothing
here raises into the game. This module touches no database: ``deliberation.narration.services``
stores the audio and caches it by ``cache_key(text, voice, engine)``.

``ANGRY_NARRATION`` picks the chain: ``auto`` (ElevenLabs if a key is set, then espeak-ng),
``elevenlabs`` (ElevenLabs first, espeak-ng as fallback), ``espeak`` or ``text``.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import tempfile
import wave
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings

ELEVENLABS = "elevenlabs"
ESPEAK = "espeak"
TEXT = "text"

# pcm_22050 is offered on every ElevenLabs plan (44.1 kHz needs a Pro subscription).
ELEVENLABS_SAMPLE_RATE = 22050
ESPEAK_TIMEOUT_SECONDS = 60.0

ERROR_NO_API_KEY = "ELEVENLABS_API_KEY is not set."
ERROR_NO_ESPEAK = "espeak-ng is not installed (apt-get install espeak-ng)."
ERROR_ELEVENLABS_HTTP = "ElevenLabs answered HTTP {status}: {message}"
ERROR_ELEVENLABS_TIMEOUT = "ElevenLabs did not answer within {timeout:g} s."
ERROR_ELEVENLABS_UNREACHABLE = "Could not reach ElevenLabs: {error}"
ERROR_NO_AUDIO = "{engine} returned no audio."
ERROR_ESPEAK_FAILED = "espeak-ng exited with status {code}: {stderr}"
ERROR_ESPEAK_TIMEOUT = "espeak-ng did not finish within {timeout:g} s."
ERROR_BAD_WAV = "{engine} produced an unreadable WAV file: {error}"
ERROR_UNEXPECTED = "{engine} failed unexpectedly: {error}"


class SynthesisError(Exception):
    """An engine could not turn the text into audio; the message is kept in the attempts."""


@dataclass(frozen=True)
class Attempt:
    engine: str
    ok: bool
    error: str = ""
    cached: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Rendering:
    """The outcome of one pass down the chain. ``wav`` is None when it ended in text only."""

    engine: str
    voice: str = ""
    cache_key: str = ""
    wav: bytes | None = None
    duration_seconds: float | None = None
    cached: bool = False
    attempts: tuple[Attempt, ...] = field(default_factory=tuple)

    @property
    def has_audio(self) -> bool:
        return self.engine != TEXT


class Engine(Protocol):
    name: str

    @property
    def voice(self) -> str:
        """Everything that changes the sound besides the text; part of the cache key."""
        ...

    def unavailable_reason(self) -> str:
        """Empty when the engine can be tried, else why not."""
        ...

    def synthesize(self, text: str) -> bytes:
        """A complete WAV file, or ``SynthesisError``."""
        ...


def cache_key(*, text: str, voice: str, engine: str) -> str:
    """sha256 over (engine, voice, text); the same line in the same voice is synthesized once."""
    digest = hashlib.sha256()
    for part in (engine, voice, text):
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")  # a separator, so ("ab", "c") and ("a", "bc") differ
    return digest.hexdigest()


def wav_from_pcm(pcm: bytes, *, sample_rate: int, channels: int = 1, sample_width: int = 2) -> bytes:
    """Wrap raw little-endian PCM in a WAV header."""
    frame = channels * sample_width
    pcm = pcm[: len(pcm) - len(pcm) % frame]  # a cut-off last sample would make the file invalid
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(sample_width)
        out.setframerate(sample_rate)
        out.writeframes(pcm)
    return buffer.getvalue()


def wav_duration(wav: bytes) -> float:
    """Seconds of audio in a WAV file (frames over frame rate); ``wave.Error`` if it is not one."""
    with wave.open(io.BytesIO(wav), "rb") as source:
        rate = source.getframerate()
        if rate <= 0:
            raise wave.Error("frame rate is zero")
        return source.getnframes() / rate


@dataclass(frozen=True)
class ElevenLabsEngine:
    api_key: str
    voice_id: str
    model_id: str
    stability: float
    similarity: float
    style: float
    timeout: float
    base_url: str = ""
    sample_rate: int = ELEVENLABS_SAMPLE_RATE
    name: str = ELEVENLABS

    @property
    def voice(self) -> str:
        tone = f"s{self.stability:g}:b{self.similarity:g}:y{self.style:g}"
        return f"{self.voice_id}:{self.model_id}:{tone}:{self.sample_rate}"

    def unavailable_reason(self) -> str:
        return "" if self.api_key else ERROR_NO_API_KEY

    def synthesize(self, text: str) -> bytes:
        # Imported here: the SDK is large and only needed when a key is set.
        import httpx
        from elevenlabs import VoiceSettings
        from elevenlabs.client import ElevenLabs
        from elevenlabs.core.api_error import ApiError

        client = ElevenLabs(api_key=self.api_key, base_url=self.base_url or None, timeout=self.timeout)
        try:
            # The SDK's streaming call: audio arrives as it is generated, piece by piece of a line.
            chunks = client.text_to_speech.stream(
                self.voice_id,
                text=text,
                model_id=self.model_id,
                output_format=f"pcm_{self.sample_rate}",
                voice_settings=VoiceSettings(
                    stability=self.stability, similarity_boost=self.similarity, style=self.style
                ),
                # The chain is our retry: a failing voice falls through rather than stalling the room.
                request_options={"max_retries": 0},
            )
            pcm = b"".join(chunks)
        except ApiError as exc:
            raise SynthesisError(
                ERROR_ELEVENLABS_HTTP.format(status=exc.status_code, message=_api_error_message(exc.body))
            ) from exc
        except httpx.TimeoutException as exc:
            raise SynthesisError(ERROR_ELEVENLABS_TIMEOUT.format(timeout=self.timeout)) from exc
        except httpx.HTTPError as exc:
            raise SynthesisError(ERROR_ELEVENLABS_UNREACHABLE.format(error=exc)) from exc
        if len(pcm) < 2:
            raise SynthesisError(ERROR_NO_AUDIO.format(engine="ElevenLabs"))
        return wav_from_pcm(pcm, sample_rate=self.sample_rate)


def _api_error_message(body: Any) -> str:
    """ElevenLabs errors look like {"detail": {"status": ..., "message": ...}}; keep the message."""
    if isinstance(body, dict):
        detail = body.get("detail", body)
        if isinstance(detail, dict):
            return str(detail.get("message") or detail.get("status") or detail)
        return str(detail)
    return str(body)[:300]


@dataclass(frozen=True)
class EspeakEngine:
    binary: str
    espeak_voice: str = "en-gb"
    speed: int = 150  # words per minute; espeak's 175 sounds hurried for a judge
    pitch: int = 35
    timeout: float = ESPEAK_TIMEOUT_SECONDS
    name: str = ESPEAK

    @property
    def voice(self) -> str:
        return f"{self.espeak_voice}:s{self.speed}:p{self.pitch}"

    def unavailable_reason(self) -> str:
        return "" if self.binary and shutil.which(self.binary) else ERROR_NO_ESPEAK

    def synthesize(self, text: str) -> bytes:
        with tempfile.TemporaryDirectory(prefix="narration-") as folder:
            out = Path(folder) / "line.wav"
            # The text goes through stdin so a line that starts with "-" is never read as an option.
            command = [self.binary, "-v", self.espeak_voice, "-s", str(self.speed), "-p", str(self.pitch)]
            command += ["-w", str(out), "--stdin"]
            try:
                done = subprocess.run(command, input=text.encode("utf-8"), capture_output=True, timeout=self.timeout)
            except subprocess.TimeoutExpired as exc:
                raise SynthesisError(ERROR_ESPEAK_TIMEOUT.format(timeout=self.timeout)) from exc
            except OSError as exc:
                raise SynthesisError(ERROR_ESPEAK_FAILED.format(code="?", stderr=exc)) from exc
            if done.returncode != 0:
                stderr = done.stderr.decode("utf-8", "replace").strip()[:300]
                raise SynthesisError(ERROR_ESPEAK_FAILED.format(code=done.returncode, stderr=stderr))
            wav = out.read_bytes() if out.exists() else b""
        try:
            if wav_duration(wav) <= 0:
                raise SynthesisError(ERROR_NO_AUDIO.format(engine="espeak-ng"))
        except (wave.Error, EOFError) as exc:
            raise SynthesisError(ERROR_BAD_WAV.format(engine="espeak-ng", error=exc)) from exc
        return wav


@dataclass(frozen=True)
class NarrationConfig:
    mode: str
    elevenlabs: ElevenLabsEngine
    espeak: EspeakEngine


def config_from_settings() -> NarrationConfig:
    """Read the engines' settings now (not at import), so a changed setting applies to the next line."""
    espeak_binary = getattr(settings, "ANGRY_ESPEAK_PATH", "") or shutil.which("espeak-ng") or ""
    return NarrationConfig(
        mode=settings.ANGRY_NARRATION,
        elevenlabs=ElevenLabsEngine(
            api_key=settings.ELEVENLABS_API_KEY,
            voice_id=settings.ELEVENLABS_VOICE_ID,
            model_id=settings.ELEVENLABS_MODEL_ID,
            stability=settings.ELEVENLABS_STABILITY,
            similarity=settings.ELEVENLABS_SIMILARITY,
            style=settings.ELEVENLABS_STYLE,
            timeout=settings.ELEVENLABS_TIMEOUT,
            base_url=settings.ELEVENLABS_BASE_URL,
        ),
        espeak=EspeakEngine(
            binary=espeak_binary,
            espeak_voice=getattr(settings, "ANGRY_ESPEAK_VOICE", "en-gb"),
            speed=int(getattr(settings, "ANGRY_ESPEAK_SPEED", 150)),
            pitch=int(getattr(settings, "ANGRY_ESPEAK_PITCH", 35)),
        ),
    )


def engine_chain(config: NarrationConfig | None = None) -> list[Engine]:
    """The engines to try, best first. An engine the mode names is kept even when unusable, so
    its absence is recorded; a mere fallback is left out when it cannot run."""
    config = config or config_from_settings()
    eleven, espeak = config.elevenlabs, config.espeak
    if config.mode == TEXT:
        return []
    if config.mode == ESPEAK:
        return [espeak]
    chain: list[Engine] = []
    if config.mode == ELEVENLABS or not eleven.unavailable_reason():
        chain.append(eleven)
    if not espeak.unavailable_reason():
        chain.append(espeak)
    return chain


def active_engine(config: NarrationConfig | None = None) -> str:
    """The engine the next line would be spoken with: elevenlabs, espeak or text."""
    for engine in engine_chain(config):
        if not engine.unavailable_reason():
            return engine.name
    return TEXT


@dataclass(frozen=True)
class EngineStatus:
    engine: str
    mode: str
    summary: str


def engine_status(config: NarrationConfig | None = None) -> EngineStatus:
    """A one-line account of the judge's voice for the curator (admin index, status pages)."""
    config = config or config_from_settings()
    engine = active_engine(config)
    eleven, espeak = config.elevenlabs, config.espeak
    if engine == ELEVENLABS:
        summary = (
            f"ElevenLabs, voice {eleven.voice_id} with {eleven.model_id} (stability {eleven.stability:g}, "
            f"similarity {eleven.similarity:g}, style {eleven.style:g})"
        )
        if not espeak.unavailable_reason() and config.mode != ESPEAK:
            summary += "; espeak-ng as fallback"
    elif engine == ESPEAK:
        summary = f"espeak-ng ({espeak.espeak_voice}) at {espeak.binary}"
        if config.mode == ELEVENLABS:
            summary += f"; ElevenLabs unusable: {eleven.unavailable_reason()}"
        elif config.mode == "auto":
            summary += "; set ELEVENLABS_API_KEY for ElevenLabs"
    elif config.mode == TEXT:
        summary = "Text only (ANGRY_NARRATION=text)"
    else:
        summary = "Text only: set ELEVENLABS_API_KEY or install espeak-ng"
    return EngineStatus(engine=engine, mode=config.mode, summary=summary)


# Given an engine and a cache key, the duration of audio already stored under that key, or None.
CacheLookup = Callable[[Engine, str], "float | None"]


def voice_with(engine: Engine, text: str, attempts: list[Attempt]) -> tuple[bytes, float] | None:
    """One engine's audio for ``text`` and its duration, or None with the failure kept in ``attempts``."""
    try:
        wav = engine.synthesize(text)
        return wav, wav_duration(wav)
    except SynthesisError as exc:
        attempts.append(Attempt(engine=engine.name, ok=False, error=str(exc)))
    except Exception as exc:  # a broken engine must not break the game; record and move on
        error = ERROR_UNEXPECTED.format(engine=engine.name, error=f"{type(exc).__name__}: {exc}")
        attempts.append(Attempt(engine=engine.name, ok=False, error=error))
    return None


def cached_rendering(engine: Engine, key: str, duration: float, attempts: list[Attempt]) -> Rendering:
    """The line is already stored in this engine's voice: nothing to synthesize."""
    attempts.append(Attempt(engine=engine.name, ok=True, cached=True))
    return Rendering(
        engine=engine.name,
        voice=engine.voice,
        cache_key=key,
        duration_seconds=duration,
        cached=True,
        attempts=tuple(attempts),
    )


MAX_SPOKEN_CHARS = 6000  # about six minutes of speech; a longer line is shown, not spoken
ERROR_TOO_LONG = "The line has {length} characters; lines over {limit} are shown as text, not spoken."


def render(text: str, engines: Sequence[Engine], *, lookup: CacheLookup | None = None) -> Rendering:
    """Try each engine in turn; the first that yields audio (or has it cached) wins.

    Never raises: every failure, expected or not, becomes an ``Attempt`` and the chain moves on.
    A line longer than ``MAX_SPOKEN_CHARS`` is not synthesized at all (it would fill the disk).
    """
    attempts: list[Attempt] = []
    if len(text) > MAX_SPOKEN_CHARS:
        engines = ()
        attempts.append(
            Attempt(engine=TEXT, ok=False, error=ERROR_TOO_LONG.format(length=len(text), limit=MAX_SPOKEN_CHARS))
        )
    for engine in engines:
        reason = engine.unavailable_reason()
        if reason:
            attempts.append(Attempt(engine=engine.name, ok=False, error=reason))
            continue
        key = cache_key(text=text, voice=engine.voice, engine=engine.name)
        duration = lookup(engine, key) if lookup is not None else None
        if duration is not None:
            return cached_rendering(engine, key, duration, attempts)
        voiced = voice_with(engine, text, attempts)
        if voiced is None:
            continue
        wav, duration = voiced
        attempts.append(Attempt(engine=engine.name, ok=True))
        return Rendering(
            engine=engine.name,
            voice=engine.voice,
            cache_key=key,
            wav=wav,
            duration_seconds=duration,
            attempts=tuple(attempts),
        )
    return Rendering(engine=TEXT, attempts=tuple(attempts))
