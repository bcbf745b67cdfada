"""Pages. Thin: reads come from QuerySets and selectors, writes from services."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from cases.models import Case
from jurors.models import Persona


def home(request: HttpRequest) -> HttpResponse:
    cases = Case.objects.playable().order_by("title")
    jurors = Persona.objects.jury()
    return render(request, "home.html", {"cases": cases, "jurors": jurors})


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
