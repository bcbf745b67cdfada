from django.urls import path

from deliberation import court_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("court/start/", views.start, name="court_start"),
    path("court/<str:public_id>/", court_views.court, name="court"),
    path("court/<str:public_id>/side/", court_views.side, name="court_side"),
    path("court/<str:public_id>/trial/", court_views.trial, name="court_trial"),
    path("court/<str:public_id>/speak/", court_views.speak, name="court_speak"),
    path("court/<str:public_id>/pass/", court_views.pass_turn, name="court_pass"),
    path("court/<str:public_id>/vote/", court_views.vote, name="court_vote"),
    path("court/<str:public_id>/call/", court_views.call_vote, name="court_call"),
    path("court/<str:public_id>/search/", court_views.search, name="court_search"),
    path("court/<str:public_id>/verdict/", court_views.verdict, name="court_verdict"),
]
