from django.urls import path

import deliberation.converters  # noqa: F401  (the "token" path converter)
from deliberation import views
from deliberation.court import views as court_views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("court/start/", views.start, name="court_start"),
    path("court/<token:public_id>/", court_views.court, name="court"),
    path("court/<token:public_id>/side/", court_views.side, name="court_side"),
    path("court/<token:public_id>/trial/", court_views.trial, name="court_trial"),
    path("court/<token:public_id>/speak/", court_views.speak, name="court_speak"),
    path("court/<token:public_id>/pass/", court_views.pass_turn, name="court_pass"),
    path("court/<token:public_id>/vote/", court_views.vote, name="court_vote"),
    path("court/<token:public_id>/call/", court_views.call_vote, name="court_call"),
    path("court/<token:public_id>/discharge/", court_views.discharge, name="court_discharge"),
    path("court/<token:public_id>/search/", court_views.search, name="court_search"),
    path("court/<token:public_id>/verdict/", court_views.verdict, name="court_verdict"),
]
