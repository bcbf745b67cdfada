from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cases.models import Case
from jurors.models import Persona


def home(request: HttpRequest) -> HttpResponse:
    cases = Case.objects.playable()
    jurors = Persona.objects.jury()
    return render(request, "home.html", {"cases": cases, "jurors": jurors})
