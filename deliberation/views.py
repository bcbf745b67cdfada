"""Pages. Thin: reads come from QuerySets and selectors, writes from services.

The case library (home), starting a deliberation, and health. The courtroom and the verdict
page live in ``court_views``.
"""

from __future__ import annotations

import random
import re

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from angryagents.identity import browser_key
from cases.models import Case, ContentNote
from deliberation import services
from jurors.models import Persona

CASES_PER_PAGE = 12
ERROR_NO_CASE = "No playable case matches those filters."


def offence_label(category: str) -> str:
    """Old Bailey's camelCase categories as words: "violentTheft" -> "Violent theft"."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", category).lower()
    return words[:1].upper() + words[1:]


def filtered_cases(params: dict[str, object]) -> QuerySet[Case]:
    """Playable cases matching a search, an offence category, and none of the excluded notes."""
    cases = Case.objects.playable().order_by("title")
    query = str(params.get("q") or "").strip()
    if query:
        cases = cases.filter(Q(title__icontains=query) | Q(summary__icontains=query))
    offence = str(params.get("offence") or "")
    if offence:
        cases = cases.filter(offence_category=offence)
    for note in params.get("exclude") or []:
        if note in ContentNote.values:
            # JSON text match works on SQLite and PostgreSQL alike ("contains" does not on SQLite).
            cases = cases.exclude(content_notes__icontains=f'"{note}"')
    return cases


def _filter_params(request: HttpRequest) -> dict[str, object]:
    source = request.GET if request.method == "GET" else request.POST
    return {"q": source.get("q", ""), "offence": source.get("offence", ""), "exclude": source.getlist("exclude")}


def home(request: HttpRequest) -> HttpResponse:
    params = _filter_params(request)
    page = Paginator(filtered_cases(params), CASES_PER_PAGE).get_page(request.GET.get("page"))
    categories = (
        Case.objects.playable()
        .exclude(offence_category="")
        .order_by("offence_category")
        .values_list("offence_category", flat=True)
        .distinct()
    )
    querystring = request.GET.copy()
    querystring.pop("page", None)
    context = {
        "page": page,
        "params": params,
        "offences": [(c, offence_label(c)) for c in categories],
        "notes": ContentNote.choices,
        "querystring": querystring.urlencode(),
        "jurors": Persona.objects.jury(),
    }
    if request.htmx and request.htmx.target == "case-results":
        return render(request, "home.html#case_results", context)
    return render(request, "home.html", context)


def _session_key(request: HttpRequest) -> str:
    return browser_key(request)


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Start a deliberation of the chosen case (or a random one) with this browser in seat 7."""
    slug = request.POST.get("case", "")
    if slug == "random":
        ids = list(filtered_cases(_filter_params(request)).values_list("pk", flat=True))
        if not ids:
            messages.error(request, ERROR_NO_CASE)
            return redirect("home")
        case = Case.objects.get(pk=random.SystemRandom().choice(ids))
    else:
        case = get_object_or_404(Case.objects.playable(), slug=slug)
    try:
        deliberation = services.deliberation_start(case=case, host_session_key=_session_key(request))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("home")
    return redirect("court", public_id=deliberation.public_id)


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
