from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("deliberation.review.urls")),
    path("", include("deliberation.rooms.urls")),
    path("", include("deliberation.experiments.urls")),
    path("", include("deliberation.urls")),
    *static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT),
]
