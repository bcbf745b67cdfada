"""Environment helpers that fail loudly.

A variable that is absent gets the embedded default; a variable that is present but
malformed raises ``ImproperlyConfigured`` naming the variable and the value, so a typo
never quietly falls back to a default.
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    return None if value is None else value.strip()


def env_str(name: str, default: str) -> str:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false, 1/0, yes/no), got {value!r}.")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value!r}.")
    return number


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {value!r}.") from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ImproperlyConfigured(f"{name} must be between {minimum} and {maximum}, got {value!r}.")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} must be a comma-separated list, got {value!r}.")
    return items


def env_words(name: str) -> tuple[str, ...]:
    """A list of words: commas in the variable itself, or the path of a file of words (one a line
    or comma-separated; lines starting with # are comments). A path that cannot be read fails."""
    value = _raw(name)
    if value is None or value == "":
        return ()
    if value.startswith(("/", "./", "~")) or value.endswith(".txt"):
        path = os.path.expanduser(value)
        try:
            with open(path, encoding="utf-8") as handle:
                lines = [line for line in handle if not line.lstrip().startswith("#")]
        except OSError as exc:
            raise ImproperlyConfigured(f"{name} names a file that cannot be read, got {value!r} ({exc}).") from None
        text = ",".join(lines)
    else:
        text = value
    words = tuple(dict.fromkeys(w.strip().lower() for w in text.replace("\n", ",").split(",") if w.strip()))
    if not words:
        raise ImproperlyConfigured(f"{name} must list words (commas or a file), got {value!r}.")
    return words


def env_database(name: str) -> dict[str, object] | None:
    """Parse a PostgreSQL URL such as ``postgresql://user:pass@host:5432/db``."""
    value = _raw(name)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in {"postgres", "postgresql", "postgresql+psycopg"} or not parts.path.strip("/"):
        raise ImproperlyConfigured(
            f"{name} must be a PostgreSQL URL like postgresql://user@127.0.0.1:5432/dbname, got {value!r}."
        )
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{name} has an invalid port, got {value!r}.") from None
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(port or ""),
    }


def env_redis(name: str) -> str | None:
    value = _raw(name)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ImproperlyConfigured(f"{name} must be a Redis URL like redis://127.0.0.1:6379/0, got {value!r}.")
    try:
        parts.port  # noqa: B018 - validates the port
    except ValueError:
        raise ImproperlyConfigured(f"{name} has an invalid port, got {value!r}.") from None
    return value
