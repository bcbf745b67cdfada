from django.urls import path

from deliberation.experiments import views

app_name = "experiments"

urlpatterns = [
    path("experiments/", views.experiment_list, name="list"),
    path("experiments/<int:pk>/", views.experiment_detail, name="detail"),
]
