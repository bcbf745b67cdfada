"""The product's URLs plus one view that crashes, to see the 500 page (tests only)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from angryagents.urls import urlpatterns as product


def crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug with a secret in its message: sk-live-do-not-show")


urlpatterns = [path("crash/", crash), *product]
