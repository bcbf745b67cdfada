from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from angryagents import media

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("deliberation.review.urls")),
    path("", include("deliberation.rooms.class_urls")),
    path("", include("deliberation.rooms.urls")),
    path("", include("deliberation.experiments.urls")),
    path("", include("deliberation.urls")),
    path("", include("cases.urls")),
    # Browsers ask for /favicon.ico on pages without an icon link (the admin, exports): no 404.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("media/narration/<path:path>", media.narration_audio, name="narration_audio"),
]
