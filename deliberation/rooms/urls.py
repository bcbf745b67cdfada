from django.urls import path

import deliberation.converters  # noqa: F401  (the "token" path converter)
from deliberation.rooms import control_views, erase_views, views

urlpatterns = [
    path("rooms/new/", views.room_new, name="room_new"),
    path("join/", views.join, name="room_join"),
    path("join/<token:code>/", views.join_room, name="room_join_code"),
    path("rooms/<token:code>/", views.room, name="room"),
    path("rooms/<token:code>/controls/", views.room_controls, name="room_controls"),
    path("rooms/<token:code>/teacher/", views.teacher, name="room_teacher"),
    path("rooms/<token:code>/start/", views.start, name="room_start"),
    path("rooms/<token:code>/speak/", views.speak, name="room_speak"),
    path("rooms/<token:code>/pass/", views.pass_turn, name="room_pass"),
    path("rooms/<token:code>/vote/", views.vote, name="room_vote"),
    path("rooms/<token:code>/trial/", views.trial, name="room_trial"),
    path("rooms/<token:code>/call/", views.call_vote, name="room_call"),
    path("rooms/<token:code>/remove/<int:seat>/", views.remove, name="room_remove"),
    path("rooms/<token:code>/pause/", control_views.pause, name="room_pause"),
    path("rooms/<token:code>/resume/", control_views.resume, name="room_resume"),
    path("rooms/<token:code>/extend/", control_views.extend, name="room_extend"),
    path("rooms/<token:code>/skip/", control_views.skip, name="room_skip"),
    path("rooms/<token:code>/hide/", control_views.hide, name="room_hide"),
    path("rooms/<token:code>/discharge/", control_views.discharge, name="room_discharge"),
    path("rooms/<token:code>/back/", control_views.back, name="room_back"),
    path("rooms/<token:code>/delete/", erase_views.room_delete, name="room_delete"),
]
