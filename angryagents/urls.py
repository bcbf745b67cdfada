from django.contrib import admin
from django.urls import include, path

from angryagents import media

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("deliberation.review.urls")),
    path("", include("deliberation.rooms.urls")),
    path("", include("deliberation.experiments.urls")),
    path("", include("deliberation.urls")),
    path("", include("cases.urls")),
    path("media/narration/<path:path>", media.narration_audio, name="narration_audio"),
]
