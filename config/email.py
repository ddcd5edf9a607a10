"""Outgoing email from the environment, as Django's default mailer (settings.MAILERS).

EMAIL_URL             smtp://user:password@host:587?tls=1 (smtps:// or ?ssl=1 for implicit
                      TLS; user and password percent-encoded), or console:// to print mail
EMAIL_HOST            used when EMAIL_URL is unset, with EMAIL_PORT, EMAIL_HOST_USER,
                      EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL
Neither set: mail is printed on the console (a development default; nothing is sent).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

# Prints the text decoded, so a reset link stays on one line (config/console_mail.py).
CONSOLE = "config.console_mail.EmailBackend"
SMTP = "django.core.mail.backends.smtp.EmailBackend"
TRUE = {"1", "true", "yes", "on"}


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in TRUE


def _smtp(host: str, port: int | None, user: str, password: str, tls: bool, ssl: bool) -> dict:
    if tls and ssl:
        raise ImproperlyConfigured("Email: use TLS or SSL, not both.")
    return {
        "BACKEND": SMTP,
        "OPTIONS": {
            "host": host,
            # The backend picks 465 (SSL), 587 (TLS) or 25 when no port is given.
            "port": port,
            "username": user,
            "password": password,
            "use_tls": tls,
            "use_ssl": ssl,
        },
    }


def parse_email_url(url: str) -> dict:
    """The mailer of an smtp://, smtps:// or console:// URL."""
    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"BACKEND": CONSOLE}
    if parts.scheme not in {"smtp", "smtps"} or not parts.hostname:
        raise ImproperlyConfigured(
            "EMAIL_URL must look like smtp://user:password@host:587?tls=1 (or console://)."
        )
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    ssl = parts.scheme == "smtps" or _flag(query.get("ssl"))
    try:
        port = parts.port
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL has a bad port: {error}") from None
    return _smtp(
        parts.hostname,
        port,
        unquote(parts.username or ""),
        unquote(parts.password or ""),
        _flag(query.get("tls")) and not ssl,
        ssl,
    )


def mailer(environ: Mapping[str, str]) -> dict:
    """The default mailer: EMAIL_URL first, then EMAIL_HOST and friends, else the console."""
    if environ.get("EMAIL_URL"):
        return parse_email_url(environ["EMAIL_URL"])
    if environ.get("EMAIL_HOST"):
        try:
            port = int(environ["EMAIL_PORT"]) if environ.get("EMAIL_PORT") else None
        except ValueError:
            raise ImproperlyConfigured("EMAIL_PORT must be a number.") from None
        return _smtp(
            environ["EMAIL_HOST"],
            port,
            environ.get("EMAIL_HOST_USER", ""),
            environ.get("EMAIL_HOST_PASSWORD", ""),
            _flag(environ.get("EMAIL_USE_TLS")),
            _flag(environ.get("EMAIL_USE_SSL")),
        )
    return {"BACKEND": CONSOLE}
