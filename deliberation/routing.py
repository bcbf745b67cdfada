"""Websocket routes (the courtroom consumer registers here)."""

websocket_urlpatterns: list = []
