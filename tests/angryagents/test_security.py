"""DEBUG off by default, a per-install secret, plain http on a LAN by default and HTTPS settings
that pass ``check --deploy`` with no warnings, each driven by environment variables."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from angryagents.secret import SECRET_FILE

ROOT = Path(__file__).resolve().parents[2]
CLEARED = {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ANGRY_TASKS", "HTTPS", "ALLOWED_HOSTS"}
SECURITY = (
    "DEBUG",
    "SECRET_KEY",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
)
PRODUCTION = {"HTTPS": "true", "ALLOWED_HOSTS": "jury.example.org", "CSRF_TRUSTED_ORIGINS": "https://jury.example.org"}


def _env(var_dir: Path, **overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED and not k.startswith(("SECURE_", "CSRF_"))}
    return {**env, "ANGRY_VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "angryagents.settings", **overrides}


def _settings(var_dir: Path, **overrides: str) -> dict[str, object]:
    code = (
        "import django, json; django.setup()\n"
        "from django.conf import settings as s\n"
        f"print(json.dumps({{name: getattr(s, name) for name in {SECURITY!r}}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_env(var_dir, **overrides), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _check_deploy(var_dir: Path, **overrides: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(var_dir, **overrides),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_fresh_install_makes_its_own_secret_key_once_and_keeps_it_private(tmp_path):
    first = _settings(tmp_path / "var")
    again = _settings(tmp_path / "var")
    elsewhere = _settings(tmp_path / "other-install")

    key_file = tmp_path / "var" / SECRET_FILE
    assert first["SECRET_KEY"] == again["SECRET_KEY"] == key_file.read_text().strip()
    assert len(str(first["SECRET_KEY"])) >= 50 and first["SECRET_KEY"] != elsewhere["SECRET_KEY"]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert first["DEBUG"] is False


def test_the_checkouts_own_secret_key_file_is_kept_out_of_git():
    ignored = subprocess.run(["git", "check-ignore", "-q", f"var/{SECRET_FILE}"], cwd=ROOT)
    assert ignored.returncode == 0


def test_a_secret_key_from_the_environment_wins_and_no_file_is_made(tmp_path):
    values = _settings(tmp_path / "var", SECRET_KEY="x" * 60)
    assert values["SECRET_KEY"] == "x" * 60 and not (tmp_path / "var" / SECRET_FILE).exists()


def test_plain_http_on_a_lan_keeps_its_cookies_by_default(tmp_path):
    values = _settings(tmp_path / "var")
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SESSION_COOKIE_SECURE"] is False and values["CSRF_COOKIE_SECURE"] is False
    assert values["SECURE_HSTS_SECONDS"] == 0


def test_https_turns_on_the_redirect_hsts_and_secure_cookies_and_each_part_can_be_set_alone(tmp_path):
    values = _settings(tmp_path / "var", HTTPS="true")
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_HSTS_SECONDS"] == 31_536_000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and values["SECURE_HSTS_PRELOAD"] is True

    tuned = _settings(tmp_path / "var", HTTPS="true", SECURE_HSTS_SECONDS="3600", SECURE_HSTS_PRELOAD="false")
    assert (tuned["SECURE_HSTS_SECONDS"], tuned["SECURE_HSTS_PRELOAD"]) == (3600, False)
    assert _settings(tmp_path / "var", SESSION_COOKIE_SECURE="true")["SESSION_COOKIE_SECURE"] is True


def test_production_settings_pass_check_deploy_with_no_warnings(tmp_path):
    done = _check_deploy(tmp_path / "var", **PRODUCTION)

    assert done.returncode == 0, done.stderr + done.stdout
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNINGS" not in done.stderr + done.stdout


def test_without_https_check_deploy_names_what_a_public_site_would_lack(tmp_path):
    done = _check_deploy(tmp_path / "var", ALLOWED_HOSTS="192.168.1.20")

    assert done.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in done.stderr
    assert "security.W018" not in done.stderr  # DEBUG is off
    assert "security.W009" not in done.stderr  # the generated key is strong
