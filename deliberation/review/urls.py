from django.urls import path

from deliberation.review import views

app_name = "review"

urlpatterns = [
    path("deliberations/", views.deliberation_list, name="list"),
    path("deliberations/<int:pk>/", views.transcript, name="transcript"),
    path("deliberations/<int:pk>/export.md", views.export, {"fmt": "md"}, name="export_md"),
    path("deliberations/<int:pk>/export.json", views.export, {"fmt": "json"}, name="export_json"),
    path("deliberations/<int:pk>/summary.txt", views.export, {"fmt": "summary"}, name="export_summary"),
    path("deliberations/<int:pk>/debrief/", views.debrief, name="debrief"),
    path("deliberations/<int:pk>/debrief.csv", views.debrief_csv, name="debrief_csv"),
    path("deliberations/<int:pk>/delete/", views.delete, name="delete"),
    path("deliberations/<int:pk>/share/", views.share_create, name="share_create"),
    path("deliberations/<int:pk>/share/revoke/", views.share_revoke, name="share_revoke"),
    path("shared/<str:token>/", views.shared_transcript, name="shared"),
    path("shared/<str:token>/export.md", views.shared_export, {"fmt": "md"}, name="shared_export_md"),
    path("shared/<str:token>/export.json", views.shared_export, {"fmt": "json"}, name="shared_export_json"),
    path("shared/<str:token>/summary.txt", views.shared_export, {"fmt": "summary"}, name="shared_export_summary"),
    path("shared/<str:token>/debrief/", views.shared_debrief, name="shared_debrief"),
    path("shared/<str:token>/debrief.csv", views.shared_debrief_csv, name="shared_debrief_csv"),
]
