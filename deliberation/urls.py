from django.urls import path

from deliberation import court_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("court/start/", views.start, name="court_start"),
    path("court/<int:pk>/", court_views.court, name="court"),
    path("court/<int:pk>/side/", court_views.side, name="court_side"),
    path("court/<int:pk>/speak/", court_views.speak, name="court_speak"),
    path("court/<int:pk>/pass/", court_views.pass_turn, name="court_pass"),
    path("court/<int:pk>/vote/", court_views.vote, name="court_vote"),
    path("court/<int:pk>/call/", court_views.call_vote, name="court_call"),
    path("court/<int:pk>/search/", court_views.search, name="court_search"),
    path("court/<int:pk>/verdict/", court_views.verdict, name="court_verdict"),
]
