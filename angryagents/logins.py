"""Logins that resist guessing: wrong passwords on every login page (the teacher's and the admin's)
are counted by django-axes and, past a limit, refused for a while with a message saying so.

What is counted, and why:

- **An account from one address** (``ANGRY_LOGIN_FAILURE_LIMIT`` wrong passwords, default 5):
  that account may not log in from that address for ``ANGRY_LOGIN_LOCKOUT_SECONDS`` (15 minutes).
  A school reaches the site from one address (one NAT), so an account alone would let anyone lock
  a teacher out of their class by typing wrong passwords on purpose, and an address alone would
  lock a whole school out for one teacher's typos. Keyed by both, one teacher's typos stop only
  that teacher, only at that school, and the same teacher can still log in from home.
- **An address, whatever the account** (``ANGRY_LOGIN_ADDRESS_FAILURE_LIMIT``, default 100): a
  guesser who tries one password on many accounts (never reaching any account's limit) is stopped
  too. A teacher locked out adds nothing more (attempts during a lockout are not counted), so a
  school reaches this ceiling only if twenty of its teachers lock themselves out within the
  lockout time.

A lockout ends by itself: it lasts ``ANGRY_LOGIN_LOCKOUT_SECONDS`` from the last counted wrong
password, and trying again while locked out does not extend it. A right password resets that
account's count from that address. The attempts are rows of the database (axes's
``AccessAttempt``: username, address, browser, time), visible in the admin and deleted once
their lockout time has passed.
"""

from __future__ import annotations

import math
from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

MESSAGE_ACCOUNT_LOCKED = (
    "Too many wrong passwords for this account from your network. Logging in to it from here is "
    "paused for {wait}; it opens again by itself. Other accounts can still log in."
)
MESSAGE_ADDRESS_LOCKED = (
    "Too many wrong passwords from your network. Logging in from here is paused for {wait}; it opens again by itself."
)


def failure_limit(request: HttpRequest | None = None, credentials: dict | None = None) -> int:
    """Axes's limit: wrong passwords for one account from one address."""
    return int(settings.ANGRY_LOGIN_FAILURE_LIMIT)


def cool_off(request: HttpRequest | None = None) -> timedelta:
    """Axes's cool-off: how long a lockout lasts after the last counted wrong password."""
    return timedelta(seconds=settings.ANGRY_LOGIN_LOCKOUT_SECONDS)


def username_of(request: HttpRequest, credentials: dict | None) -> str | None:
    """The typed username as counted: ``Ms.Khan `` and ``ms.khan`` are one account to a guesser."""
    raw = (credentials or {}).get("username") or request.POST.get("username")
    return raw.strip().lower() if raw else None


def _address(request: HttpRequest) -> str | None:
    return getattr(request, "axes_ip_address", None) or request.META.get("REMOTE_ADDR")


def _recent(**lookup: object) -> QuerySet[AccessAttempt]:
    return AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - cool_off(), **lookup)


def _failures(attempts: QuerySet[AccessAttempt]) -> tuple[int, object]:
    """The wrong passwords counted in ``attempts`` and the time of the last one."""
    row = attempts.aggregate(count=Sum("failures_since_start"), last=Max("attempt_time"))
    return int(row["count"] or 0), row["last"]


class AccountAndAddressHandler(AxesDatabaseHandler):
    """Axes's database handler (the account-from-one-address count), plus the ceiling per address."""

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        address = _address(request)
        if not address:
            return False
        return _failures(_recent(ip_address=address))[0] >= settings.ANGRY_LOGIN_ADDRESS_FAILURE_LIMIT


def lockout_state(request: HttpRequest) -> tuple[str, int]:
    """Which lockout applies to this request (``account`` or ``address``) and its seconds left."""
    address = _address(request)
    username = username_of(request, None)
    account, account_last = _failures(_recent(ip_address=address, username=username))
    if account >= failure_limit() and account_last is not None:
        kind, last = "account", account_last
    else:
        kind, last = "address", _failures(_recent(ip_address=address))[1] or timezone.now()
    left = (last + cool_off() - timezone.now()).total_seconds()
    return kind, max(1, math.ceil(left))


def _wait_words(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} seconds"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minutes"


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """Axes's lockout page: the same login page (teacher's or admin's), with the reason and the
    wait in place of the form's error, answered 429 with ``Retry-After``."""
    kind, seconds = lockout_state(request)
    template = MESSAGE_ACCOUNT_LOCKED if kind == "account" else MESSAGE_ADDRESS_LOCKED
    # Unbound, so showing it runs no second authentication (which axes would count).
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    form.cleaned_data = {}  # what add_error expects of a form it cleaned
    form.add_error(None, template.format(wait=_wait_words(seconds)))
    next_url = request.POST.get(REDIRECT_FIELD_NAME, "")
    if request.path == reverse("admin:login"):
        context = {
            **admin.site.each_context(request),
            "form": form,
            "title": "Log in",
            "app_path": request.get_full_path(),
            "username": "",
            REDIRECT_FIELD_NAME: next_url or reverse("admin:index"),
        }
        response = render(request, "admin/login.html", context, status=429)
    else:
        response = render(request, "rooms/login.html", {"form": form, "next": next_url}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def expired_attempts_delete() -> int:
    """Delete the counted attempts whose lockout time has passed (the retention sweep calls it)."""
    count, _ = AccessAttempt.objects.filter(attempt_time__lt=timezone.now() - cool_off()).delete()
    return count
