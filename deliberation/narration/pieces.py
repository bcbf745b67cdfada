"""The judge speaks as it renders: a line is cut into pieces that are voiced one after another.

The courtroom starts playing the first piece while the rest are still being synthesized, so the
time to first sound is the time to voice a short opening phrase, not the whole line (a case
presentation runs to a minute of speech). Each piece goes down the same chain of engines as a
whole line (ElevenLabs through the SDK's streaming call, then espeak-ng); the whole line's audio,
kept for replays and transcripts, is the pieces joined.

Rules for cutting (``pieces_of``):
- a line of at most ``SHORT_LINE_WORDS`` words is one piece (a vote announcement starts as fast
  whole as cut, and one request costs less than two);
- the text is cut after sentence ends (``.``, ``!``, ``?``, ``;``, ``:``) followed by a space;
- the first piece is kept short (at most ``FIRST_PIECE_WORDS`` words, cut at a comma when there is
  one in reach) because it alone decides how soon the voice starts;
- a piece of fewer than ``MIN_PIECE_WORDS`` words joins the next, so the voice does not stutter;
- joined back with single spaces, the pieces give the line exactly.

This module touches no database; ``narration_services`` stores each piece and tells the room.
"""

from __future__ import annotations

import io
import re
import wave
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from deliberation.narration.engines import (
    ERROR_TOO_LONG,
    MAX_SPOKEN_CHARS,
    TEXT,
    Attempt,
    CacheLookup,
    Engine,
    Rendering,
    cache_key,
    cached_rendering,
    voice_with,
    wav_duration,
)

SHORT_LINE_WORDS = 20
FIRST_PIECE_WORDS = 8
MIN_PIECE_WORDS = 4
SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
ERROR_PIECE_LOST = "Piece {index} of {count} could not be voiced by any engine; the rest of the line is shown as text."
ERROR_JOIN = "The pieces could not be joined into one recording ({error}); the line was voiced again whole."


@dataclass(frozen=True)
class Piece:
    """One voiced piece: its index, its audio, and where its words sit in the line's text."""

    index: int
    text: str
    start: int
    end: int
    engine: str
    wav: bytes
    duration_seconds: float


# Called as each piece is voiced, in order: (piece, number of pieces in the line).
PieceSink = Callable[[Piece, int], None]


def pieces_of(text: str) -> list[str]:
    """Cut a line into the pieces it is voiced in (see the module's rules)."""
    words = " ".join(text.split())
    if not words:
        return []
    if len(words.split(" ")) <= SHORT_LINE_WORDS:
        return [words]
    sentences = [part for part in SENTENCE_END.split(words) if part]
    first, rest = _short_opening(sentences[0])
    if rest:
        sentences[0:1] = [first, rest]
    pieces: list[str] = []
    carry = ""
    for sentence in sentences:
        candidate = f"{carry} {sentence}".strip()
        if len(candidate.split()) < MIN_PIECE_WORDS:
            carry = candidate
            continue
        pieces.append(candidate)
        carry = ""
    if carry:
        if pieces:
            pieces[-1] = f"{pieces[-1]} {carry}"
        else:
            pieces.append(carry)
    return pieces


def _short_opening(sentence: str) -> tuple[str, str]:
    """The sentence's opening phrase of at most ``FIRST_PIECE_WORDS`` words, and what follows."""
    words = sentence.split(" ")
    if len(words) <= FIRST_PIECE_WORDS:
        return sentence, ""
    cut = FIRST_PIECE_WORDS
    for position in range(FIRST_PIECE_WORDS, MIN_PIECE_WORDS - 1, -1):
        if words[position - 1].endswith(","):
            cut = position
            break
    return " ".join(words[:cut]), " ".join(words[cut:])


def join_wavs(wavs: Sequence[bytes]) -> bytes:
    """One WAV of the pieces in order; ``wave.Error`` when their formats differ."""
    params = None
    frames: list[bytes] = []
    for wav in wavs:
        with wave.open(io.BytesIO(wav), "rb") as source:
            shape = (source.getnchannels(), source.getsampwidth(), source.getframerate())
            if params is None:
                params = shape
            elif shape != params:
                raise wave.Error(f"format {shape} after {params}")
            frames.append(source.readframes(source.getnframes()))
    if params is None:
        raise wave.Error("no pieces")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(params[0])
        out.setsampwidth(params[1])
        out.setframerate(params[2])
        out.writeframes(b"".join(frames))
    return buffer.getvalue()


def render_in_pieces(
    text: str,
    engines: Sequence[Engine],
    *,
    lookup: CacheLookup | None = None,
    on_piece: PieceSink | None = None,
) -> Rendering:
    """Voice ``text`` piece by piece, handing each piece to ``on_piece`` as soon as it exists.

    The first engine that voices the first piece speaks the whole line; a later piece it fails
    on goes down the rest of the chain. A line already stored in some engine's voice is returned
    at once as cached (no pieces). Never raises; every failure is an ``Attempt``.
    """
    attempts: list[Attempt] = []
    if len(text) > MAX_SPOKEN_CHARS:
        attempts.append(
            Attempt(engine=TEXT, ok=False, error=ERROR_TOO_LONG.format(length=len(text), limit=MAX_SPOKEN_CHARS))
        )
        return Rendering(engine=TEXT, attempts=tuple(attempts))
    usable: list[Engine] = []
    for engine in engines:
        reason = engine.unavailable_reason()
        if reason:
            attempts.append(Attempt(engine=engine.name, ok=False, error=reason))
            continue
        key = cache_key(text=text, voice=engine.voice, engine=engine.name)
        duration = lookup(engine, key) if lookup is not None else None
        if duration is not None and not usable:
            return cached_rendering(engine, key, duration, attempts)
        usable.append(engine)

    parts = pieces_of(text)
    line = " ".join(parts)
    voiced: list[Piece] = []
    speaker: Engine | None = None
    offset = 0
    for index, part in enumerate(parts):
        start = line.index(part, offset)
        offset = start + len(part)
        order = usable if speaker is None else [speaker] + [e for e in usable if e is not speaker]
        for engine in order:
            result = voice_with(engine, part, attempts)
            if result is None:
                continue
            if speaker is None:
                speaker = engine
                usable = usable[usable.index(engine) :]
            piece = Piece(index, part, start, offset, engine.name, result[0], result[1])
            voiced.append(piece)
            if on_piece is not None and len(parts) > 1:
                on_piece(piece, len(parts))
            break
        else:
            if speaker is not None:
                attempts.append(
                    Attempt(
                        engine=speaker.name, ok=False, error=ERROR_PIECE_LOST.format(index=index + 1, count=len(parts))
                    )
                )
            break
    if speaker is None:
        return Rendering(engine=TEXT, attempts=tuple(attempts))

    try:
        wav = join_wavs([piece.wav for piece in voiced])
    except wave.Error as exc:
        attempts.append(Attempt(engine=speaker.name, ok=False, error=ERROR_JOIN.format(error=exc)))
        again = voice_with(speaker, line, attempts)
        if again is None:
            return Rendering(engine=TEXT, attempts=tuple(attempts))
        wav = again[0]
    attempts.append(Attempt(engine=speaker.name, ok=True))
    return Rendering(
        engine=speaker.name,
        voice=speaker.voice,
        cache_key=cache_key(text=text, voice=speaker.voice, engine=speaker.name),
        wav=wav,
        duration_seconds=wav_duration(wav),
        attempts=tuple(attempts),
    )
