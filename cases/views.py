"""The case picker's list (public: it shows what the library's home page shows)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from cases.picker import picker_context


@require_GET
def case_pick(request: HttpRequest) -> HttpResponse:
    return render(request, "cases/_case_picker.html#picker_results", picker_context(request.GET))
