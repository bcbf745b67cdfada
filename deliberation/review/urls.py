from django.urls import path

import deliberation.converters  # noqa: F401  (the "token" path converter)
from deliberation.review import views

app_name = "review"

urlpatterns = [
    path("deliberations/", views.deliberation_list, name="list"),
    path("deliberations/<token:public_id>/", views.transcript, name="transcript"),
    path("deliberations/<token:public_id>/export.md", views.export, {"fmt": "md"}, name="export_md"),
    path("deliberations/<token:public_id>/export.json", views.export, {"fmt": "json"}, name="export_json"),
    path("deliberations/<token:public_id>/summary.txt", views.export, {"fmt": "summary"}, name="export_summary"),
    path("deliberations/<token:public_id>/debrief/", views.debrief, name="debrief"),
    path("deliberations/<token:public_id>/debrief.csv", views.debrief_csv, name="debrief_csv"),
    path("deliberations/<token:public_id>/delete/", views.delete, name="delete"),
    path("deliberations/<token:public_id>/share/", views.share_create, name="share_create"),
    path("deliberations/<token:public_id>/share/revoke/", views.share_revoke, name="share_revoke"),
    path("shared/<token:token>/", views.shared_transcript, name="shared"),
    path("shared/<token:token>/export.md", views.shared_export, {"fmt": "md"}, name="shared_export_md"),
    path("shared/<token:token>/export.json", views.shared_export, {"fmt": "json"}, name="shared_export_json"),
    path("shared/<token:token>/summary.txt", views.shared_export, {"fmt": "summary"}, name="shared_export_summary"),
    path("shared/<token:token>/debrief/", views.shared_debrief, name="shared_debrief"),
    path("shared/<token:token>/debrief.csv", views.shared_debrief_csv, name="shared_debrief_csv"),
]
