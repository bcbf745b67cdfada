from django.urls import path

from deliberation.review import views

app_name = "review"

urlpatterns = [
    path("deliberations/", views.deliberation_list, name="list"),
    path("deliberations/<str:public_id>/", views.transcript, name="transcript"),
    path("deliberations/<str:public_id>/export.md", views.export, {"fmt": "md"}, name="export_md"),
    path("deliberations/<str:public_id>/export.json", views.export, {"fmt": "json"}, name="export_json"),
    path("deliberations/<str:public_id>/summary.txt", views.export, {"fmt": "summary"}, name="export_summary"),
    path("deliberations/<str:public_id>/debrief/", views.debrief, name="debrief"),
    path("deliberations/<str:public_id>/debrief.csv", views.debrief_csv, name="debrief_csv"),
    path("deliberations/<str:public_id>/delete/", views.delete, name="delete"),
    path("deliberations/<str:public_id>/share/", views.share_create, name="share_create"),
    path("deliberations/<str:public_id>/share/revoke/", views.share_revoke, name="share_revoke"),
    path("shared/<str:token>/", views.shared_transcript, name="shared"),
    path("shared/<str:token>/export.md", views.shared_export, {"fmt": "md"}, name="shared_export_md"),
    path("shared/<str:token>/export.json", views.shared_export, {"fmt": "json"}, name="shared_export_json"),
    path("shared/<str:token>/summary.txt", views.shared_export, {"fmt": "summary"}, name="shared_export_summary"),
    path("shared/<str:token>/debrief/", views.shared_debrief, name="shared_debrief"),
    path("shared/<str:token>/debrief.csv", views.shared_debrief_csv, name="shared_debrief_csv"),
]
