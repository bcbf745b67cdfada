"""Narration audio served with DEBUG off (Django's own media helper only serves under DEBUG).

Only ``MEDIA_ROOT/narration/`` is served: the judge's voice, which every page of a game plays.
Everything else kept under MEDIA_ROOT (uploaded import files) is never served. The path is
resolved with Django's ``safe_join``, so no ``..`` leaves the folder.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe
from django.views.static import serve

PUBLIC_FOLDER = "narration"
CACHE_SECONDS = 86_400  # a narration file's name is the hash of what it says: it never changes


@require_safe
def narration_audio(request: HttpRequest, path: str) -> HttpResponse:
    """A narration file, or 404 (unknown file, a folder, a name the file system refuses such as one
    too long, anything outside ``narration/``)."""
    try:
        response = serve(request, path, document_root=Path(settings.MEDIA_ROOT) / PUBLIC_FOLDER)
    except OSError as exc:  # ENAMETOOLONG and kin: no such file can exist
        raise Http404("No such narration.") from exc
    response["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return response
