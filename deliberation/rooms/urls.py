from django.urls import path

from deliberation.rooms import control_views, views

urlpatterns = [
    path("rooms/new/", views.room_new, name="room_new"),
    path("join/", views.join, name="room_join"),
    path("join/<str:code>/", views.join_room, name="room_join_code"),
    path("rooms/<str:code>/", views.room, name="room"),
    path("rooms/<str:code>/controls/", views.room_controls, name="room_controls"),
    path("rooms/<str:code>/teacher/", views.teacher, name="room_teacher"),
    path("rooms/<str:code>/start/", views.start, name="room_start"),
    path("rooms/<str:code>/speak/", views.speak, name="room_speak"),
    path("rooms/<str:code>/pass/", views.pass_turn, name="room_pass"),
    path("rooms/<str:code>/vote/", views.vote, name="room_vote"),
    path("rooms/<str:code>/trial/", views.trial, name="room_trial"),
    path("rooms/<str:code>/call/", views.call_vote, name="room_call"),
    path("rooms/<str:code>/remove/<int:seat>/", views.remove, name="room_remove"),
    path("rooms/<str:code>/pause/", control_views.pause, name="room_pause"),
    path("rooms/<str:code>/resume/", control_views.resume, name="room_resume"),
    path("rooms/<str:code>/extend/", control_views.extend, name="room_extend"),
    path("rooms/<str:code>/skip/", control_views.skip, name="room_skip"),
    path("rooms/<str:code>/hide/", control_views.hide, name="room_hide"),
    path("rooms/<str:code>/back/", control_views.back, name="room_back"),
]
