"""Pages. Thin: reads come from QuerySets and selectors, writes from services.

The case library (home), starting a deliberation, and health. The courtroom and the verdict
page live in ``court_views``.
"""

from __future__ import annotations

import random

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from angryagents.identity import browser_key
from cases.keyset import CURSOR_PARAM
from cases.library import LibraryQuery, featured_cases, library_cases, library_facets, library_page
from cases.models import Case, ContentNote
from deliberation import services
from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS
from deliberation.game_settings import GameSettings, GameSettingsForm
from deliberation.minds.factory import OFFLINE
from jurors.models import Persona

CASES_PER_PAGE = 12
SETTINGS_SUMMARY = "{engine} engine, up to {rounds} rounds, narration and meters on"
START_FORM = "start-form"  # the home page's one form, which every case's button submits
ERROR_NO_CASE = "No playable case matches those filters."


def _library_query(request: HttpRequest) -> LibraryQuery:
    return LibraryQuery.from_params(request.GET if request.method == "GET" else request.POST)


def home(request: HttpRequest, settings_form: GameSettingsForm | None = None) -> HttpResponse:
    """The case library: curated cases first, then search, filters and pages (fixed query count).

    Above it the game settings, which every case's "Start deliberating" button sends along."""
    query = _library_query(request)
    facets = library_facets()
    page = library_page(
        query,
        cursor=request.GET.get(CURSOR_PARAM),
        per_page=CASES_PER_PAGE,
        # the whole library: its size is already known (cached), no count at all
        total=None if query.narrowed else facets["total"],
    )
    querystring = request.GET.copy()
    for stale in (CURSOR_PARAM, "page"):
        querystring.pop(stale, None)
    featured = [] if query.narrowed or page.number > 1 else list(featured_cases())
    context = {
        "page": page,
        "params": query,
        "featured": featured,
        "featured_ids": {case.pk for case in featured},
        "notes": ContentNote.choices,
        "querystring": querystring.urlencode(),
        "rule_sets": RULE_SETS.values(),
        "rules_choice": request.GET.get("rules") if request.GET.get("rules") in RULE_SETS else DEFAULT_RULES,
        **facets,
    }
    if request.htmx and request.htmx.target == "case-results":
        return render(request, "home.html#case_results", context)
    context["jurors"] = Persona.objects.jury()
    settings_form = settings_form or GameSettingsForm(form_id=START_FORM)
    defaults = GameSettings.defaults()
    context["settings_form"] = settings_form
    context["settings_summary"] = SETTINGS_SUMMARY.format(
        engine="offline" if defaults.engine == OFFLINE else defaults.engine, rounds=defaults.max_rounds
    )
    status = 400 if settings_form.is_bound and settings_form.errors else 200
    return render(request, "home.html", context, status=status)


def _session_key(request: HttpRequest) -> str:
    return browser_key(request)


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Start a deliberation of the chosen case (or a random one) with this browser in seat 7,
    with the game settings sent beside it (defaults for any not sent). Settings refused: the
    home page again, with the values as typed and a message by each field (status 400)."""
    settings_form = GameSettingsForm.submitted(request.POST, form_id=START_FORM)
    if not settings_form.is_valid():
        return home(request, settings_form)
    game = settings_form.game_settings()
    slug = request.POST.get("case", "")
    if slug == "random":
        ids = list(library_cases(_library_query(request)).order_by().values_list("pk", flat=True))
        if not ids:
            messages.error(request, ERROR_NO_CASE)
            return redirect("home")
        case = Case.objects.get(pk=random.SystemRandom().choice(ids))
    else:
        case = get_object_or_404(Case.objects.playable(), slug=slug)
    try:
        deliberation = services.deliberation_start(
            case=case,
            host_session_key=_session_key(request),
            engine=game.engine,
            max_rounds=game.max_rounds,
            options={
                **game.to_settings(),
                "rules": request.POST.get("rules") or DEFAULT_RULES,
                # The trial before the first ballot: each case's box names that case ("random" for the dice).
                **({"trial": True} if slug in request.POST.getlist("trial") else {}),
            },
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("home")
    return redirect("court", public_id=deliberation.public_id)


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
