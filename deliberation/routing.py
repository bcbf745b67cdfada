"""Websocket routes: the courtroom's live feed."""

from django.urls import path

from deliberation.consumers import CourtConsumer

websocket_urlpatterns = [
    path("ws/court/<str:public_id>/", CourtConsumer.as_asgi()),
]
