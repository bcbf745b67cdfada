"""Pages for reviewing past deliberations. Thin: reads from review.selectors, writes from services.

Who may read what (decided in ``deliberation.access``, inside each page's QuerySet, the same rule
as the courtroom, the rooms and the websocket); pages are addressed by ``Deliberation.public_id``:

- A deliberation played by people in the browser is private: one with a host session
  (``Deliberation.host_session_key``), with any seat held through a browser session or an agent
  token (``Seat.session_key`` / ``Seat.token_hash``), or a room. Its transcript, replay and exports
  are visible to its host's browser, its participants' browsers (``Seat.session_key`` equal to
  the browser's key, ``angryagents.identity.browser_key``) and staff. Everyone else gets 404,
  never 403, so that ids cannot be probed, and may read it only through an active share link
  ``/shared/<token>/`` (the browser that opened it is then let in wherever the game is addressed);
  once the owner revokes the link, the link answers 404 too.
- A deliberation with no people (``manage.py deliberate`` runs, experiment runs) is public.
- The list at ``/deliberations/`` shows only what the viewer may read.
- The debrief (``/deliberations/<pk>/debrief/`` and its ``debrief.csv``, and the same under a
  share link) answers to the transcript's rule, and exists only once the deliberation reached its
  own verdict: before that it is a 404 for everyone.
- Sharing and revoking are for the host's session and staff; deleting is for staff (curators).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST

from angryagents.identity import browser_key
from deliberation.access import Viewer, deliberation_for, remember_share
from deliberation.charts import conviction_chart
from deliberation.game_settings import GameSettings
from deliberation.minds.factory import engine_label
from deliberation.models import Deliberation, Verdict
from deliberation.review import exports
from deliberation.review.debrief import Debrief, build_debrief, contributions_csv, has_debrief
from deliberation.review.failures import causes_in_words
from deliberation.review.reflection import reflection_context
from deliberation.review.selectors import (
    PER_PAGE,
    UNFINISHED,
    Transcript,
    build_transcript,
    deliberation_shared,
    deliberation_visible,
    deliberations_listed,
    list_filter_choices,
)
from deliberation.rooms.state import is_room
from deliberation.services import review as review_services

MESSAGE_DELETED = "Deliberation {pk} on “{title}” was deleted."
MESSAGE_SHARED = "A read-only link is ready; anyone who has it can read this transcript."
MESSAGE_REVOKED = "The share link was revoked; it no longer opens the transcript."
ERROR_NOT_CURATOR = "Only a curator can delete a deliberation."
ERROR_NOT_OWNER = "Only whoever hosted this deliberation, or a curator, can share it."
ERROR_NO_DEBRIEF_YET = "There is no debrief before the verdict."


def _is_owner(request: HttpRequest, deliberation: Deliberation) -> bool:
    if request.user.is_staff:
        return True
    if request.user.is_authenticated and deliberation.owner_id == request.user.pk:
        return True  # made while logged in: the account is its host in any browser
    key = browser_key(request, create=False)
    return bool(key) and bool(deliberation.host_session_key) and deliberation.host_session_key == key


def _fetch(request: HttpRequest, public_id: str) -> Deliberation:
    """The deliberation if this request may read it; 404 alike for unknown and private ids."""
    try:
        return deliberation_visible(public_id, Viewer.of(request))
    except Deliberation.DoesNotExist:
        raise Http404("No such deliberation.") from None


def deliberation_list(request: HttpRequest) -> HttpResponse:
    filters = {key: request.GET.get(key, "").strip() for key in ("case", "verdict", "engine")}
    viewer = Viewer.of(request)
    page = Paginator(deliberations_listed(viewer=viewer, **filters), PER_PAGE).get_page(request.GET.get("page"))
    verdicts = [*Verdict.choices, (UNFINISHED, "No verdict yet")]
    choices = list_filter_choices(viewer)
    engines = [(engine, engine_label(engine)) for engine in choices["engines"]]
    rows = [(d, engine_label(d.engine)) for d in page.object_list]
    return render(
        request,
        "review/list.html",
        {
            "page": page,
            "rows": rows,
            "filters": filters,
            "verdicts": verdicts,
            "cases": choices["cases"],
            "engines": engines,
        },
    )


def _replay_round(request: HttpRequest, transcript: Transcript) -> int:
    last = transcript.last_round
    try:
        number = int(request.GET.get("round", last))
    except ValueError:
        number = last
    return max(0, min(number, last))


def _page(request: HttpRequest, deliberation: Deliberation, *, token: str | None) -> HttpResponse:
    # The host (and a curator) read hidden messages, marked; everyone else never sees them.
    transcript = build_transcript(deliberation, show_hidden=token is None and _is_owner(request, deliberation))
    current = _replay_round(request, transcript)
    if token:
        base = reverse("review:shared", args=[token])
        export_urls = {fmt: reverse(f"review:shared_export_{fmt}", args=[token]) for fmt in ("md", "json", "summary")}
    else:
        base = reverse("review:transcript", args=[deliberation.public_id])
        export_urls = {
            fmt: reverse(f"review:export_{fmt}", args=[deliberation.public_id]) for fmt in ("md", "json", "summary")
        }
    owner = token is None and _is_owner(request, deliberation)
    if has_debrief(transcript):
        debrief_url = (
            reverse("review:shared_debrief", args=[token])
            if token
            else reverse("review:debrief", args=[deliberation.public_id])
        )
    else:
        debrief_url = ""
    context: dict[str, Any] = {
        "d": deliberation,
        "t": transcript,
        "engine": engine_label(deliberation.engine),
        "game_lines": GameSettings.of(deliberation).lines(room=is_room(deliberation)),
        "figure_engines": [engine_label(e) for e in transcript.totals["engines"]],
        "failure_causes": causes_in_words(transcript.totals["failures_by_cause"]),
        "read_only": token is not None,
        "base_url": base,
        "export_urls": export_urls,
        "replay": transcript.round(current),
        "current": current,
        "previous": current - 1 if current > 0 else None,
        "next": current + 1 if current < transcript.last_round else None,
        "box": transcript.jury_box(current),
        "replay_chart": conviction_chart(
            transcript.snapshots_up_to(current),
            names=transcript.names(),
            participants=transcript.participants(),
            chart_id="replay-chart",
        ),
        "is_owner": owner,
        "debrief_url": debrief_url,
        "live_url": reverse("court", args=[deliberation.public_id])
        if not deliberation.is_finished and not deliberation.room_code
        else "",
        "can_delete": token is None and request.user.is_staff,
        **reflection_context(transcript),
        "share_url": request.build_absolute_uri(reverse("review:shared", args=[deliberation.share_token]))
        if owner and deliberation.share_token
        else "",
    }
    if request.htmx and request.htmx.target == "replay":
        response = render(request, "review/transcript.html#replay", context)
    else:
        response = render(request, "review/transcript.html", context)
    # One URL answers with the page or with the replay panel: caches must tell the two apart.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def transcript(request: HttpRequest, public_id: str) -> HttpResponse:
    return _page(request, _fetch(request, public_id), token=None)


def shared_transcript(request: HttpRequest, token: str) -> HttpResponse:
    try:
        deliberation = deliberation_shared(token)
    except Deliberation.DoesNotExist:
        raise Http404("This link is not valid, or it was revoked.") from None
    remember_share(request, token)  # the same browser may now watch the game live (``deliberation.access``)
    response = _page(request, deliberation, token=token)
    response["Referrer-Policy"] = "no-referrer"  # the token is the key: never pass it on in a Referer
    response["X-Robots-Tag"] = "noindex"
    return response


def _export_response(deliberation: Deliberation, fmt: str) -> HttpResponse:
    content_type, extension = exports.FORMATS[fmt]
    body = exports.render(build_transcript(deliberation), fmt)
    response = HttpResponse(body, content_type=content_type)
    name = f"deliberation-{deliberation.pk}{'-summary' if fmt == 'summary' else ''}.{extension}"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def export(request: HttpRequest, public_id: str, fmt: str) -> HttpResponse:
    return _export_response(_fetch(request, public_id), fmt)


def shared_export(request: HttpRequest, token: str, fmt: str) -> HttpResponse:
    try:
        deliberation = deliberation_shared(token)
    except Deliberation.DoesNotExist:
        raise Http404("This link is not valid, or it was revoked.") from None
    response = _export_response(deliberation, fmt)
    response["Referrer-Policy"] = "no-referrer"
    return response


def delete(request: HttpRequest, public_id: str) -> HttpResponse:
    """A curator confirms (GET), then deletes (POST); a reader who is not one is refused with 403,
    anyone who may not read it gets 404 (the one access rule)."""
    deliberation = deliberation_for(request, public_id, live=False)
    if not request.user.is_staff:
        raise PermissionDenied(ERROR_NOT_CURATOR)
    pk = deliberation.pk
    if request.method == "POST":
        try:
            review_services.deliberation_delete(deliberation_id=pk)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return redirect("review:transcript", public_id=public_id)
        except Deliberation.DoesNotExist:
            raise Http404("No such deliberation.") from None
        messages.success(request, MESSAGE_DELETED.format(pk=pk, title=deliberation.case.title))
        return redirect("review:list")
    return render(request, "review/delete.html", {"d": deliberation, "engine": engine_label(deliberation.engine)})


def _owned(request: HttpRequest, public_id: str) -> Deliberation:
    """Readable (else 404) and owned (else 403): a participant who is not the host may read, not share."""
    deliberation = _fetch(request, public_id)
    if not _is_owner(request, deliberation):
        raise PermissionDenied(ERROR_NOT_OWNER)
    return deliberation


@require_POST
def share_create(request: HttpRequest, public_id: str) -> HttpResponse:
    deliberation = _owned(request, public_id)
    review_services.share_link_create(deliberation_id=deliberation.pk)
    messages.success(request, MESSAGE_SHARED)
    return redirect(reverse("review:transcript", args=[public_id]) + "#share")


@require_POST
def share_revoke(request: HttpRequest, public_id: str) -> HttpResponse:
    deliberation = _owned(request, public_id)
    review_services.share_link_revoke(deliberation_id=deliberation.pk)
    messages.success(request, MESSAGE_REVOKED)
    return redirect(reverse("review:transcript", args=[public_id]) + "#share")


def _debrief_of(deliberation: Deliberation) -> Debrief:
    """The debrief, or 404 while the deliberation has not reached its own verdict."""
    built = build_transcript(deliberation)
    if not has_debrief(built):
        raise Http404(ERROR_NO_DEBRIEF_YET)
    return build_debrief(built)


def _debrief_page(request: HttpRequest, deliberation: Deliberation, *, token: str | None) -> HttpResponse:
    debrief_data = _debrief_of(deliberation)
    if token:
        urls = {
            "transcript": reverse("review:shared", args=[token]),
            "csv": reverse("review:shared_debrief_csv", args=[token]),
        }
    else:
        urls = {
            "transcript": reverse("review:transcript", args=[deliberation.public_id]),
            "csv": reverse("review:debrief_csv", args=[deliberation.public_id]),
        }
    context = {"d": deliberation, "b": debrief_data, "urls": urls, "read_only": token is not None}
    return render(request, "review/debrief.html", context)


def _debrief_csv(deliberation: Deliberation) -> HttpResponse:
    response = HttpResponse(contributions_csv(_debrief_of(deliberation)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="deliberation-{deliberation.public_id}-contributions.csv"'
    return response


def debrief(request: HttpRequest, public_id: str) -> HttpResponse:
    """What moved the jury, after the verdict; the transcript's access rule (404 for strangers)."""
    return _debrief_page(request, _fetch(request, public_id), token=None)


def debrief_csv(request: HttpRequest, public_id: str) -> HttpResponse:
    return _debrief_csv(_fetch(request, public_id))


def _shared(token: str) -> Deliberation:
    try:
        return deliberation_shared(token)
    except Deliberation.DoesNotExist:
        raise Http404("This link is not valid, or it was revoked.") from None


def shared_debrief(request: HttpRequest, token: str) -> HttpResponse:
    response = _debrief_page(request, _shared(token), token=token)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


def shared_debrief_csv(request: HttpRequest, token: str) -> HttpResponse:
    response = _debrief_csv(_shared(token))
    response["Referrer-Policy"] = "no-referrer"
    return response
