"""Websocket routes: the courtroom's live feed, and a class page's (its rooms' cards)."""

from django.urls import path

import deliberation.converters  # noqa: F401  (the "token" path converter)
from deliberation.consumers import CourtConsumer
from deliberation.rooms.class_live import ClassConsumer

websocket_urlpatterns = [
    path("ws/court/<token:public_id>/", CourtConsumer.as_asgi()),
    path("ws/class/<token:public_id>/", ClassConsumer.as_asgi()),
]
