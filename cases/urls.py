from django.urls import path

from cases import views

urlpatterns = [
    path("cases/pick/", views.case_pick, name="case_pick"),
]
