from django.urls import path

from deliberation.rooms import class_views, erase_views

urlpatterns = [
    path("classes/new/", class_views.class_new, name="class_new"),
    path("classes/<str:public_id>/", class_views.class_page, name="class_page"),
    path("classes/<str:public_id>/start/", class_views.class_start, name="class_start"),
    path("classes/<str:public_id>/trial-choice/", class_views.class_trial_choice, name="class_trial_choice"),
    path("classes/<str:public_id>/codes/", class_views.class_codes, name="class_codes"),
    path("classes/<str:public_id>/debrief/", class_views.class_debrief, name="class_debrief"),
    path("classes/<str:public_id>/debrief.csv", class_views.class_debrief_csv, name="class_debrief_csv"),
    path("classes/<str:public_id>/archive.zip", erase_views.class_archive, name="class_archive"),
    path("classes/<str:public_id>/delete/", erase_views.class_delete, name="class_delete"),
    path("my-rooms/", class_views.my_rooms, name="my_rooms"),
    path("teacher/login/", class_views.TeacherLoginView.as_view(), name="teacher_login"),
    path("teacher/logout/", class_views.teacher_logout, name="teacher_logout"),
]
