"""Logins resist guessing: wrong passwords on the teacher's and the admin's login pages lock that
account from that address for the configured time, the lockout ends by itself, and a school behind
one address is not locked out wholesale by one teacher's typos (angryagents/logins.py)."""

from __future__ import annotations

import re
import time

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from angryagents.logins import MESSAGE_ACCOUNT_LOCKED, MESSAGE_ADDRESS_LOCKED, expired_attempts_delete

PASSWORD = "the-real-one-2024"
SCHOOL = "203.0.113.7"  # one address for every teacher of a school (its NAT)
HOME = "198.51.100.23"
LOCKOUT_SECONDS = 600  # far longer than 50 tries take, however loaded the machine
PAGES = [
    pytest.param("teacher_login", False, id="teacher"),
    pytest.param("admin:login", True, id="admin"),
]


@pytest.fixture(autouse=True)
def _limits(settings):
    settings.ANGRY_LOGIN_FAILURE_LIMIT = 5
    settings.ANGRY_LOGIN_ADDRESS_FAILURE_LIMIT = 100
    settings.ANGRY_LOGIN_LOCKOUT_SECONDS = LOCKOUT_SECONDS
    # The product's hasher takes about a second per wrong password on a loaded machine; what is
    # counted does not depend on it.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _account(name: str, *, staff: bool):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(name, password=PASSWORD, is_staff=staff)


def _try(page: str, username: str, password: str, address: str = SCHOOL):  # type: ignore[no-untyped-def]
    """One login, from a fresh browser at ``address``, as the page's form posts it."""
    return Client(REMOTE_ADDR=address).post(reverse(page), {"username": username, "password": password})


def _logged_in(response) -> bool:  # type: ignore[no-untyped-def]
    return response.status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "staff"), PAGES)
def test_fifty_wrong_passwords_lock_the_account_until_the_configured_time_passes(settings, page, staff):
    account = _account("ms.khan", staff=staff)
    answers = [_try(page, account.username, f"guess-{n}") for n in range(50)]

    assert [a.status_code for a in answers[:4]] == [200] * 4  # a typo is a typo: the page asks again
    assert all(a.status_code == 429 for a in answers[4:]), [a.status_code for a in answers]
    locked = answers[-1]
    text = locked.content.decode()
    assert MESSAGE_ACCOUNT_LOCKED.split("{wait}")[0] in text
    assert 'name="password"' in text  # the login page itself, with the reason where its error goes
    retry_after = int(locked["Retry-After"])
    assert 0 < retry_after <= LOCKOUT_SECONDS

    # The right password is refused while the lockout lasts, and trying does not extend it.
    assert _try(page, account.username, PASSWORD).status_code == 429
    assert AccessAttempt.objects.get().failures_since_start == 5  # only the tries before the lockout

    # It ends by itself, the configured time after the fifth wrong password: configured now to end
    # three seconds from here, it still holds, then lets the right password in with nobody acting.
    locked_at = AccessAttempt.objects.get().attempt_time
    settings.ANGRY_LOGIN_LOCKOUT_SECONDS = int((timezone.now() - locked_at).total_seconds()) + 3
    assert _try(page, account.username, PASSWORD).status_code == 429
    time.sleep(4)
    assert _logged_in(_try(page, account.username, PASSWORD))


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "staff"), PAGES)
def test_one_teachers_typos_lock_neither_the_rest_of_the_school_nor_that_teacher_at_home(page, staff):
    typist, colleague = _account("mr.doyle", staff=staff), _account("ms.ortiz", staff=staff)
    for n in range(50):
        _try(page, typist.username, f"Doyle{n}!")
    assert _try(page, typist.username, PASSWORD).status_code == 429

    assert _logged_in(_try(page, colleague.username, PASSWORD))  # same school, same address
    assert _logged_in(_try(page, typist.username, PASSWORD, address=HOME))  # the typist, from home


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "staff"), PAGES)
def test_a_right_password_resets_the_count(page, staff):
    account = _account("mrs.bello", staff=staff)
    for n in range(4):
        assert _try(page, account.username, f"bello{n}").status_code == 200
    assert _logged_in(_try(page, account.username, PASSWORD))
    for n in range(4):
        assert _try(page, account.username, f"bello-again{n}").status_code == 200  # 8 wrong, never 5 in a row
    assert _logged_in(_try(page, account.username, PASSWORD))


@pytest.mark.django_db
def test_the_username_is_counted_whatever_its_case_and_spaces():
    account = _account("ms.khan", staff=False)
    for spelling in ["ms.khan", "MS.KHAN", " Ms.Khan", "ms.Khan ", "Ms.khan"]:
        _try("teacher_login", spelling, "wrong")
    assert _try("teacher_login", account.username, PASSWORD).status_code == 429


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "staff"), PAGES)
def test_an_address_trying_one_password_on_many_accounts_is_stopped(settings, page, staff):
    settings.ANGRY_LOGIN_ADDRESS_FAILURE_LIMIT = 12
    account = _account("mr.ade", staff=staff)
    for n in range(12):  # never twice the same account: no account's own limit is reached
        assert _try(page, f"teacher{n}", "Summer2024!").status_code == 200

    refused = _try(page, account.username, PASSWORD)
    assert refused.status_code == 429
    assert MESSAGE_ADDRESS_LOCKED.split("{wait}")[0] in refused.content.decode()
    assert _logged_in(_try(page, account.username, PASSWORD, address=HOME))


@pytest.mark.django_db
def test_the_lockout_page_neither_names_nor_hints_whether_an_account_exists():
    _account("ms.khan", staff=False)
    pages = []
    for name in ["ms.khan", "nobody-by-this-name"]:
        for n in range(5):
            _try("teacher_login", name, f"x{n}")
        page = _try("teacher_login", name, "x").content.decode().replace(name, "NAME")
        pages.append(re.sub(r"[A-Za-z0-9]{32,}|\d+", "", page))  # CSRF tokens and the seconds left differ
    assert pages[0] == pages[1]


@pytest.mark.django_db
def test_counted_attempts_are_deleted_once_their_lockout_time_has_passed(settings):
    settings.ANGRY_LOGIN_LOCKOUT_SECONDS = 1
    _try("teacher_login", "ms.khan", "wrong")
    assert expired_attempts_delete() == 0  # still counting
    time.sleep(1.5)
    assert expired_attempts_delete() == 1
    assert not AccessAttempt.objects.exists()
