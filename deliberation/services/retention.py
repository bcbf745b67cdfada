"""A school's data, kept as long as the school wants: deleting rooms and classes with everything
their people wrote, and deleting what has outlived the retention setting.

What goes with a deliberation: its seats (the names people typed), turns (everything said, and the
judge's and foreperson's lines), votes, conviction snapshots, round figures and narrations, and the
narration audio no other narration shares (audio is cached by text and voice). A class takes its
rooms with it. Who may call these is the caller's check (a class's teacher, a room's host, the
scheduled sweep); the functions guarantee the delete is whole and closes the pages still open on
what went.

A round may be running while its room is deleted: the round's worker then finds no deliberation to
store into and discards the round (``services.rounds``), so a teacher never waits for a pause.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, QuerySet
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from deliberation.models import ClassSession, Deliberation, Narration, Seat, SeatKind, Turn, TurnKind, Vote
from deliberation.services.broadcast import access_changed

logger = logging.getLogger(__name__)

PEOPLE = (SeatKind.HUMAN, SeatKind.AGENT)


@dataclass(frozen=True)
class Contents:
    """What a delete takes with it, counted for the page that asks the teacher to confirm."""

    rooms: int
    people: int  # seats a person or an agent sat in (their names as typed)
    people_speeches: int  # what those people said themselves
    turns: int  # every line of the transcripts: people, AI jurors, the judge, the foreperson
    votes: int
    narrations: int  # the judge's spoken lines, with their audio

    @property
    def empty(self) -> bool:
        return not (self.rooms or self.turns or self.votes)


def contents_of(deliberation_ids: list[int]) -> Contents:
    """Counts of what deleting these deliberations deletes (six queries, however many rooms)."""
    people = Seat.objects.filter(deliberation_id__in=deliberation_ids, kind__in=PEOPLE)
    by_people = Seat.objects.filter(
        deliberation_id=OuterRef("deliberation_id"), number=OuterRef("seat_number"), kind__in=PEOPLE
    )
    speeches = Turn.objects.filter(deliberation_id__in=deliberation_ids, kind=TurnKind.SPEECH, stood_in=False).filter(
        Exists(by_people)
    )
    return Contents(
        rooms=Deliberation.objects.filter(pk__in=deliberation_ids).count(),
        people=people.count(),
        people_speeches=speeches.count(),
        turns=Turn.objects.filter(deliberation_id__in=deliberation_ids).count(),
        votes=Vote.objects.filter(deliberation_id__in=deliberation_ids).count(),
        narrations=Narration.objects.filter(deliberation_id__in=deliberation_ids).count(),
    )


def class_room_ids(class_id: int) -> list[int]:
    return list(Deliberation.objects.filter(class_sessions=class_id).order_by("pk").values_list("pk", flat=True))


def _audio_of(deliberation_ids: list[int]) -> tuple[set[str], set[str]]:
    """The narrations' audio (shared by cache key) and their pieces (each narration's own)."""
    shared: set[str] = set()
    own: set[str] = set()
    for audio, pieces in Narration.objects.filter(deliberation_id__in=deliberation_ids).values_list("audio", "pieces"):
        if audio:
            shared.add(audio)
        own.update(piece["audio"] for piece in pieces or [] if piece.get("audio"))
    return shared, own


def _forget_audio(shared: set[str], own: set[str]) -> None:
    """After commit: delete the pieces, and the cached audio no remaining narration plays."""
    still_played = set(Narration.objects.filter(audio__in=shared).values_list("audio", flat=True))
    for name in sorted(own | (shared - still_played)):
        try:
            default_storage.delete(name)
        except OSError:  # already gone, or a read-only storage: the rows are what matters
            logger.warning("could not delete narration audio %s", name)


@transaction.atomic
def deliberations_erase(*, deliberation_ids: list[int]) -> int:
    """Delete these deliberations with everything in them; close every page still open on them.

    Idempotent (ids already gone are skipped); returns how many were deleted."""
    ids = list(Deliberation.objects.filter(pk__in=deliberation_ids).values_list("pk", flat=True))
    if not ids:
        return 0
    shared, own = _audio_of(ids)
    for pk in ids:
        access_changed(pk)  # after commit, each open socket asks again, finds nothing and closes
    Deliberation.objects.filter(pk__in=ids).delete()
    transaction.on_commit(lambda: _forget_audio(shared, own))
    return len(ids)


@transaction.atomic
def class_erase(*, class_id: int) -> Contents:
    """Delete a class, every room in it and everything they hold; what went, counted."""
    ClassSession.objects.select_for_update().filter(pk=class_id).first()
    rooms = class_room_ids(class_id)
    gone = contents_of(rooms)
    deliberations_erase(deliberation_ids=rooms)
    ClassSession.objects.filter(pk=class_id).delete()
    return gone


def last_activity() -> Greatest:
    """When a deliberation last changed: made, started, finished, or its latest line."""
    return Greatest(
        "created_at",
        Coalesce("started_at", "created_at"),
        Coalesce("finished_at", "created_at"),
        Coalesce(Max("turns__created_at"), "created_at"),
    )


def expired(*, days: int, now: datetime | None = None) -> tuple[QuerySet[ClassSession], QuerySet[Deliberation]]:
    """Classes and deliberations untouched for more than ``days``: classes none of whose rooms
    moved since, and deliberations outside any experiment (experiment runs have no people and go
    with their experiment) and outside any class still kept."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    quiet = Deliberation.objects.filter(experiment__isnull=True).annotate(last=last_activity())
    recent = quiet.filter(last__gte=cutoff)
    classes = ClassSession.objects.filter(created_at__lt=cutoff).exclude(rooms__in=recent.values("pk"))
    kept_classes = ClassSession.objects.exclude(pk__in=classes.values("pk"))
    deliberations = quiet.filter(last__lt=cutoff).exclude(class_sessions__in=kept_classes)
    return classes, deliberations


def expired_erase(*, days: int, now: datetime | None = None) -> dict[str, int]:
    """Delete what ``expired`` finds, a class or a deliberation per transaction (a long sweep never
    holds the database); returns what went."""
    classes, deliberations = expired(days=days, now=now)
    gone = {"classes": 0, "deliberations": 0}
    for class_id in list(classes.values_list("pk", flat=True)):
        gone["deliberations"] += class_erase(class_id=class_id).rooms
        gone["classes"] += 1
    for pk in list(deliberations.values_list("pk", flat=True)):
        gone["deliberations"] += deliberations_erase(deliberation_ids=[pk])
    return gone
