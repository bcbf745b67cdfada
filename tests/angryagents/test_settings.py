"""Settings read the environment loudly: malformed values name the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from angryagents import env

ROOT = Path(__file__).resolve().parents[2]


def _load_settings(**overrides: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ANGRY_TASKS"}
    }
    clean.update(overrides)
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'angryagents.settings'; django.setup()\n"
        "from django.conf import settings as s\n"
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.ANGRY_TASKS,"
        " s.ANGRY_LLM_MODEL, s.DEBUG)"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


def test_embedded_defaults_apply_when_nothing_is_set():
    result = _load_settings()
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
        "inprocess",
        "offline",
        "False",  # DEBUG is off unless asked for: a class never sees Django's debug pages
    ]


def test_database_and_redis_urls_switch_to_the_real_services():
    result = _load_settings(DATABASE_URL="postgresql://u@127.0.0.1:5432/x", REDIS_URL="redis://127.0.0.1:6379/0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:3] == [
        "django.db.backends.postgresql",
        "channels_redis.pubsub.RedisPubSubChannelLayer",
        "celery",
    ]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_URL", "postgre://typo@127.0.0.1/x"),
        ("DATABASE_URL", "sqlite:///db.sqlite3"),
        ("REDIS_URL", "localhost:6379"),
        ("DEBUG", "maybe"),
        ("ANGRY_MAX_ROUNDS", "twenty"),
        ("ANGRY_TASKS", "threads"),
    ],
)
def test_a_malformed_variable_fails_loudly_naming_it(name, value):
    result = _load_settings(**{name: value})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert name in result.stderr


def test_debug_true_is_the_documented_switch_for_development():
    result = _load_settings(DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "True"


def test_an_empty_secret_key_fails_loudly_rather_than_falling_back():
    result = _load_settings(SECRET_KEY="")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr


def test_env_helpers_return_defaults_only_when_absent(monkeypatch):
    monkeypatch.delenv("ANGRY_TEST_VALUE", raising=False)
    assert env.env_int("ANGRY_TEST_VALUE", 7) == 7
    monkeypatch.setenv("ANGRY_TEST_VALUE", "")
    with pytest.raises(ImproperlyConfigured, match="ANGRY_TEST_VALUE"):
        env.env_int("ANGRY_TEST_VALUE", 7)
    monkeypatch.setenv("ANGRY_TEST_VALUE", "1.5")
    with pytest.raises(ImproperlyConfigured, match=r"between 0\.0 and 1\.0"):
        env.env_float("ANGRY_TEST_VALUE", 0.5, minimum=0.0, maximum=1.0)


def test_database_url_is_parsed_into_connection_settings(monkeypatch):
    monkeypatch.setenv("X_DB", "postgresql://ann:s%40cret@db.local:6543/jury")
    parsed = env.env_database("X_DB")
    assert parsed is not None
    assert (parsed["NAME"], parsed["USER"], parsed["PASSWORD"], parsed["HOST"], parsed["PORT"]) == (
        "jury",
        "ann",
        "s@cret",
        "db.local",
        "6543",
    )
