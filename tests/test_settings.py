"""The settings module is driven by the environment; run it in fresh interpreters."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_secret_key_with_debug_off_is_a_clear_error():
    result = manage("check")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_deploy_check_passes_with_debug_off():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="cronica.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_default_database_is_sqlite_with_wal_and_immediate_transactions():
    code = (
        "import django; django.setup(); from django.db import connection;"
        "connection.ensure_connection();"
        "print(connection.settings_dict['OPTIONS']['transaction_mode']);"
        "print(connection.cursor().execute('PRAGMA journal_mode').fetchone()[0])"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1")
    env["DATABASE_URL"] = f"sqlite:///{ROOT / 'test-results' / 'settings-check.sqlite3'}"
    (ROOT / "test-results").mkdir(exist_ok=True)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.split() == ["IMMEDIATE", "wal"], result.stderr


def session_age(**env: str) -> subprocess.CompletedProcess:
    code = (
        "import django; django.setup(); from django.conf import settings;"
        "print(settings.SESSION_COOKIE_AGE)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CRONICA_"))}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_login_lasts_a_week_unless_cronica_session_days_says_otherwise():
    assert session_age().stdout.split() == [str(7 * 24 * 3600)]
    assert session_age(CRONICA_SESSION_DAYS="2").stdout.split() == [str(2 * 24 * 3600)]


def test_a_session_length_out_of_range_is_a_clear_error():
    result = session_age(CRONICA_SESSION_DAYS="0")
    assert result.returncode != 0
    assert "CRONICA_SESSION_DAYS must be a number of days from 1 to 365" in result.stderr


def test_trusted_proxies_come_from_the_environment_and_a_bad_one_is_a_clear_error():
    code = "from django.conf import settings; print(settings.CRONICA_TRUSTED_PROXIES)"
    given = manage(
        "shell", "-v0", "-c", code, DJANGO_DEBUG="1", CRONICA_TRUSTED_PROXIES="10.0.0.0/8, ::1"
    )
    assert given.stdout.strip() == "[IPv4Network('10.0.0.0/8'), IPv6Network('::1/128')]"
    default = manage("shell", "-v0", "-c", code, DJANGO_DEBUG="1")
    assert default.stdout.strip() == "[IPv4Network('127.0.0.1/32'), IPv6Network('::1/128')]"
    bad = manage("check", DJANGO_DEBUG="1", CRONICA_TRUSTED_PROXIES="proxy.example")
    assert bad.returncode != 0
    assert "CRONICA_TRUSTED_PROXIES" in bad.stderr
