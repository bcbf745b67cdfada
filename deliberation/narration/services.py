"""Writes for the judge's voice: render a narration asked for, store its audio once.

The game services ask for a narration (``deliberation.services.narration``, re-exported here);
this module, above them, renders it in the background task and pushes it to the courtroom.

Audio lives in the default storage under ``narration/<cache_key>.wav``; the key covers the text,
the voice and the engine, so a line already spoken in the same voice is reused, never synthesized
again. Rendering runs in a background task and never raises: a narration ends ``ready`` (audio),
``text_only`` (every engine failed or none is installed) or ``failed`` (the audio could not be
stored); the courtroom shows the words in every case.
"""

from __future__ import annotations

import logging

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from deliberation.models import Narration, NarrationStatus
from deliberation.narration.engines import TEXT, Attempt, Engine, Rendering, engine_chain, wav_duration
from deliberation.narration.pieces import Piece, render_in_pieces
from deliberation.services.broadcast import publish
from deliberation.services.narration import narration_request as narration_request
from deliberation.services.narration import narration_request_presentation as narration_request_presentation
from deliberation.services.narration import narration_request_verdict as narration_request_verdict
from deliberation.services.narration import narration_request_vote as narration_request_vote

logger = logging.getLogger(__name__)

AUDIO_FOLDER = "narration"
ERROR_STORE_FAILED = "The audio could not be stored: {error}"


def audio_name(cache_key: str) -> str:
    return f"{AUDIO_FOLDER}/{cache_key}.wav"


def piece_name(narration: Narration, index: int) -> str:
    """Where a piece is kept: by narration and index, so a second run of the same narration overwrites it."""
    return f"{AUDIO_FOLDER}/pieces/{narration.pk}-{index}.wav"


def _stored_duration(engine: Engine, key: str) -> float | None:
    """The cache: audio already stored under this key, whichever narration produced it."""
    name = audio_name(key)
    if not default_storage.exists(name):
        return None
    try:
        with default_storage.open(name, "rb") as stored:
            return wav_duration(stored.read())
    except Exception:  # a damaged file is re-synthesized rather than served
        logger.warning("cached narration audio %s is unreadable; rendering again", name, exc_info=True)
        return None


def _store(rendering: Rendering) -> str:
    name = audio_name(rendering.cache_key)
    if rendering.cached or rendering.wav is None:
        return name
    if default_storage.exists(name):  # another worker rendered the same line meanwhile
        return name
    return default_storage.save(name, ContentFile(rendering.wav))


def narration_render(*, narration_id: int) -> Narration | None:
    """Render a pending narration with the first engine that works, and store its audio.

    Safe to run twice: only a pending narration is rendered, and the result is written only if
    it is still pending. Never raises for an engine failure; the attempts say what was tried.
    No transaction is open while an engine speaks.
    """
    narration = Narration.objects.filter(pk=narration_id).first()
    if narration is None or narration.status != NarrationStatus.PENDING:
        return narration

    try:
        rendering = render_in_pieces(
            narration.text, engine_chain(), lookup=_stored_duration, on_piece=_piece_keeper(narration)
        )
    except Exception as exc:  # render() guards each engine; this is the last line of defence
        logger.exception("narration %s: rendering failed", narration_id)
        error = Attempt(engine="", ok=False, error=f"{type(exc).__name__}: {exc}")
        rendering = Rendering(engine=TEXT, attempts=(error,))
        status = NarrationStatus.FAILED
    else:
        status = NarrationStatus.READY if rendering.has_audio else NarrationStatus.TEXT_ONLY
    attempts = [attempt.as_dict() for attempt in rendering.attempts]
    audio = ""
    if rendering.has_audio:
        try:
            audio = _store(rendering)
        except Exception as exc:  # a full disk must not stop the deliberation
            logger.exception("narration %s: storing audio failed", narration_id)
            attempts.append(
                Attempt(engine=rendering.engine, ok=False, error=ERROR_STORE_FAILED.format(error=exc)).as_dict()
            )
            status = NarrationStatus.FAILED

    with transaction.atomic():
        narration = Narration.objects.select_for_update().filter(pk=narration_id).first()
        if narration is None or narration.status != NarrationStatus.PENDING:
            return narration
        narration.status = status
        narration.engine = rendering.engine
        narration.voice = rendering.voice[:100] if audio else ""
        narration.cache_key = rendering.cache_key if audio else ""
        narration.audio.name = audio or ""
        narration.duration_seconds = rendering.duration_seconds if audio else None
        narration.attempts = attempts
        narration.pieces = narration.pieces if audio else []
        narration.rendered_at = timezone.now()
        narration.full_clean()
        narration.save()
        transaction.on_commit(lambda: _narration_rendered(narration_id))
    return narration


def _piece_keeper(narration: Narration):  # type: ignore[no-untyped-def]
    """Store each piece as it is voiced and tell the room, so the courtroom starts playing it
    while the rest of the line renders. A piece that cannot be stored is skipped, not fatal."""
    kept: list[dict[str, object]] = []

    def keep(piece: Piece, count: int) -> None:
        name = piece_name(narration, piece.index)
        try:
            if default_storage.exists(name):
                default_storage.delete(name)
            name = default_storage.save(name, ContentFile(piece.wav))
        except Exception:
            logger.exception("narration %s: storing piece %s failed", narration.pk, piece.index)
            return
        kept.append(
            {"audio": name, "duration": round(piece.duration_seconds, 3), "start": piece.start, "end": piece.end}
        )
        updated = Narration.objects.filter(pk=narration.pk, status=NarrationStatus.PENDING).update(pieces=list(kept))
        if updated:
            _narration_rendered(narration.pk)

    return keep


def _narration_rendered(narration_id: int) -> None:
    """Tell the courtroom a narration is ready (audio or text only): the judge's partial is pushed."""
    deliberation_id = Narration.objects.filter(pk=narration_id).values_list("deliberation_id", flat=True).first()
    if deliberation_id is not None:
        publish(deliberation_id, "narration", {"narration_id": narration_id})
