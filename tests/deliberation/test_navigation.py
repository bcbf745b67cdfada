"""The site's menu shows each visitor the pages they can use."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _menu(client: Client) -> str:
    html = client.get(reverse("room_join")).content.decode()
    return html[html.index('<nav aria-label="Main">') : html.index("</nav>")]


def test_a_student_sees_neither_the_experiments_nor_the_curating_menu(client: Client) -> None:
    menu = _menu(client)
    assert "Join a room" in menu
    assert reverse("experiments:list") not in menu and reverse("admin:index") not in menu


def test_a_teacher_sees_the_experiments_but_not_the_curating_menu(client: Client) -> None:
    client.force_login(User.objects.create_user("teacher", password="a-long-password-2"))
    menu = _menu(client)
    assert reverse("experiments:list") in menu and reverse("admin:index") not in menu


def test_staff_see_the_curating_menu(client: Client) -> None:
    client.force_login(User.objects.create_user("curator", password="a-long-password-2", is_staff=True))
    menu = _menu(client)
    assert reverse("experiments:list") in menu and reverse("admin:index") in menu
