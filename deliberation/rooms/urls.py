from django.urls import path

from deliberation.rooms import views

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
    path("rooms/<str:code>/call/", views.call_vote, name="room_call"),
    path("rooms/<str:code>/remove/<int:seat>/", views.remove, name="room_remove"),
]
