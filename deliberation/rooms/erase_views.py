"""A teacher takes a class's data away, then deletes it: the archive to download, and the delete of a
class or a room with everything its people wrote, after a page that says what goes.

Thin: counts and deletes in ``services.retention``, exports in ``review.exports``. Only the class's
teacher (``access.class_for``) or the room's host sees these pages; to anyone else they are 404 or
403 as the rest of the class and room pages are.
"""

from __future__ import annotations

import io
import zipfile

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from angryagents.identity import browser_key
from deliberation.access import class_for
from deliberation.models import ClassSession, Deliberation
from deliberation.review import exports
from deliberation.review.selectors import build_transcript, deliberation_for_review
from deliberation.rooms import class_selectors, services, throttle
from deliberation.services import retention

MESSAGE_CLASS_DELETED = "The class “{name}” was deleted: {rooms} room{s} and everything said in them."
MESSAGE_ROOM_DELETED = "Room {code} was deleted with everything said in it."
ARCHIVE_README = """{name}

Downloaded from 12 Angry Agents before the class was deleted.

- contributions.csv: every student's arguments in the rooms that reached a verdict, with what
  each drew from the jury, and their moves as counsel at the trial (one row per argument or move;
  the columns of the class debrief's sheet).
- room-<code>.md: each room's whole transcript, as its Markdown export.
- room-<code>.json: the same, machine-readable (the JSON export).
"""


def _class_name(session: ClassSession) -> str:
    return session.name or session.case.title


def _archive(session: ClassSession) -> bytes:
    """A zip of the class: the contributions sheet and every room's transcript (Markdown, JSON)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", ARCHIVE_README.format(name=_class_name(session)))
        groups = class_selectors.class_debriefs(session)
        archive.writestr("contributions.csv", class_selectors.class_contributions_csv(groups))
        for pk in retention.class_room_ids(session.pk):
            transcript = build_transcript(deliberation_for_review(pk))
            code = transcript.deliberation.room_code or transcript.deliberation.public_id
            archive.writestr(f"room-{code}.md", exports.render(transcript, "md"))
            archive.writestr(f"room-{code}.json", exports.render(transcript, "json"))
    return buffer.getvalue()


@require_GET
def class_archive(request: HttpRequest, public_id: str) -> HttpResponse:
    session = class_for(request, public_id)
    response = HttpResponse(_archive(session), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="class-{session.public_id}.zip"'
    return response


@require_http_methods(["GET", "POST"])
def class_delete(request: HttpRequest, public_id: str) -> HttpResponse:
    """The teacher sees what goes and downloads it (GET), then deletes the class (POST)."""
    session = class_for(request, public_id)
    name = _class_name(session)
    if request.method == "POST":
        gone = retention.class_erase(class_id=session.pk)
        s = "" if gone.rooms == 1 else "s"
        messages.success(request, MESSAGE_CLASS_DELETED.format(name=name, rooms=gone.rooms, s=s))
        return redirect("my_rooms")
    rooms = retention.class_room_ids(session.pk)
    codes = list(Deliberation.objects.filter(pk__in=rooms).order_by("pk").values_list("room_code", flat=True))
    context = {"session": session, "name": name, "contents": retention.contents_of(rooms), "codes": codes}
    return render(request, "rooms/class_delete.html", context)


@require_http_methods(["GET", "POST"])
def room_delete(request: HttpRequest, code: str) -> HttpResponse:
    """The room's host sees what goes, with its exports to download (GET), then deletes it (POST)."""
    found = throttle.visible_room(request, code)
    user_id = request.user.pk if request.user.is_authenticated else None
    key = services.acting_key(found, browser_key(request), user_id)
    if not services.is_host(found, key):
        raise PermissionDenied(services.ERROR_NOT_HOST.format(action="delete the room"))
    session = ClassSession.objects.filter(rooms=found).only("public_id", "name").first()
    if request.method == "POST":
        retention.deliberations_erase(deliberation_ids=[found.pk])
        messages.success(request, MESSAGE_ROOM_DELETED.format(code=found.room_code))
        return redirect("class_page", public_id=session.public_id) if session else redirect("my_rooms")
    context = {"room": found, "class_session": session, "contents": retention.contents_of([found.pk])}
    return render(request, "rooms/room_delete.html", context)
