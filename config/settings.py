"""Crónica settings: one module, driven by the environment.

DATABASE_URL          default: a SQLite file (WAL, IMMEDIATE transactions, busy timeout)
DJANGO_DEBUG          "1"/"true" turns debug on; off by default
DJANGO_SECRET_KEY     required when debug is off
DJANGO_ALLOWED_HOSTS  comma-separated; defaults to localhost when debug is on
CRONICA_SIGNUP        "open" (default) or "invite" (sign-up only through an invitation link)
EMAIL_URL / EMAIL_HOST...  outgoing mail (config/email.py); DEFAULT_FROM_EMAIL its sender
CRONICA_LOGIN_FAILURES         wrong passwords before a username or a device is locked out (5)
CRONICA_LOGIN_ADDRESS_FAILURES wrong passwords, for any usernames, before an address is (50)
CRONICA_LOGIN_COOLOFF_MINUTES  how long the lock lasts after the last failure (15)
CRONICA_PROXY_COUNT   reverse proxies in front that append to X-Forwarded-For (0: none)
CRONICA_SESSION_DAYS  days a login lasts before the password is asked again (7)
CRONICA_UPLOADS_PER_HOUR  pictures one user may send in an hour (20)
CRONICA_HISTORY_KEY   the history chains' HMAC key (default: derived from the secret key)
CRONICA_TRUSTED_PROXIES  comma-separated addresses or networks of those proxies (loopback)
CRONICA_RESET_PER_ADDRESS / CRONICA_RESET_PER_EMAIL  password-reset requests per hour (5 / 3)
DJANGO_MEDIA_ROOT     folder of uploaded files (portraits), included in backups (./media)
DJANGO_MEDIA_STORAGE  storage class for uploads instead of MEDIA_ROOT (e.g. django-storages')
DJANGO_MEDIA_STORAGE_OPTIONS  its options, a JSON object
CRONICA_LIVE_BROKER   how the live table hears of changes: "postgres" (LISTEN/NOTIFY, the
                      default on PostgreSQL) or "poll" (the default on SQLite)
CRONICA_DB_POOL       PostgreSQL: connections each server process may hold (10)
CACHE_URL             a Redis server for the rendered fragments, shared by every process and
                      server (unset: each process keeps its own, CRONICA_CACHE_MB of them, 64)
CRONICA_RELEASE       the release's name, in every fragment's key (a digest of the code)
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import xstatic.pkg.bootstrap
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.email import mailer

BASE_DIR = Path(__file__).resolve().parent.parent
# Each rule system keeps its template fragments and styles in its own folder.
SYSTEM_DIRS = sorted(
    path for path in (BASE_DIR / "mechanics" / "systems").iterdir() if path.is_dir()
)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
            "(for local use, set DJANGO_DEBUG=1 or export a long random DJANGO_SECRET_KEY)."
        )
    SECRET_KEY = "django-insecure-local-development-only-key-not-for-production-use"

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

CRONICA_SIGNUP = os.environ.get("CRONICA_SIGNUP", "open")
if CRONICA_SIGNUP not in {"open", "invite"}:
    raise ImproperlyConfigured("CRONICA_SIGNUP must be 'open' or 'invite'.")

INSTALLED_APPS = [
    "config.apps.CronicaAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "accounts",
    "campaigns",
    "characters",
    "mechanics",
    "search",
    "live",
    "ops",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.PrivacyHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise, which serves static files pre-compressed and returns first.
    # Django's GZipMiddleware at zlib's fastest level, with its defence against BREACH.
    "config.middleware.GZipMiddleware",
    # Around everything that draws: a request's writes to a shared cache in one round trip.
    "config.middleware.DeferredFragmentWritesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.SpanishFirstLocaleMiddleware",
    # Before anything reads the body or the query: refuse what no view can read.
    "config.middleware.RefuseUnreadableInputMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, taking the user the session's row brought along (accounts.sessions).
    "accounts.sessions.AuthenticationMiddleware",
    # Leaves the device cookie of a successful login (accounts.devices).
    "accounts.devices.DeviceCookieMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.VaryOnHtmxMiddleware",
    "config.middleware.SignInAgainMiddleware",
    # Last, so it can replace the login page's answer with the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [
            BASE_DIR / "templates",
            *(path / "templates" for path in SYSTEM_DIRS if (path / "templates").is_dir()),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]

# Django's widget markup, written in Python for the commonest widgets (see the module).
FORM_RENDERER = "config.form_renderer.FastWidgetRenderer"

WSGI_APPLICATION = "config.wsgi.application"

# Requests run in one thread per process (config/asgi.py), which keeps its connection; on
# PostgreSQL that thread and the live streams' short checks borrow from a pool instead.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's pool and persistent connections exclude each other.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("CRONICA_DB_POOL", "10")),
        "timeout": 20,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers work while one request writes; IMMEDIATE takes the write lock at
    # BEGIN so two writers queue on the busy timeout instead of failing mid-transaction.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
        ),
    }
    # Tests use a file too (not shared-cache memory), so concurrent writers queue on the
    # busy timeout exactly as they do on the site; one per test process.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rendered fragments (campaigns/fragments.py) are keyed by the versions of what they show
# and by the release, so no process ever needs to invalidate another's.


def _release() -> str:
    """What the fragments' keys are salted with, so a deploy never serves HTML that older
    templates or code rendered: `CRONICA_RELEASE`, or else a digest of the code's files
    (their names, sizes and times)."""
    release = os.environ.get("CRONICA_RELEASE")
    if release:
        return release
    digest = hashlib.blake2b(digest_size=8)
    for folder in (
        "accounts", "campaigns", "characters", "config", "live", "mechanics", "templates",
    ):  # fmt: skip
        for path in sorted((BASE_DIR / folder).rglob("*.*")):
            if path.suffix in (".py", ".html", ".mo"):
                stat = path.stat()
                digest.update(
                    f"{path.relative_to(BASE_DIR)}:{stat.st_size}:{stat.st_mtime_ns}".encode()
                )
    return digest.hexdigest()


CRONICA_RELEASE = _release()
# Fragments: in this process, bounded in bytes (CRONICA_CACHE_MB); or, with CACHE_URL
# (redis://host:6379/0), in Redis, shared by every process and server.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "fragments": (
        {
            "BACKEND": "config.cache.RedisFragmentCache",
            "LOCATION": CACHE_URL,
            # Keys name ids and versions of this site's rows: two sites sharing a Redis
            # server (each with its own secret key) never read each other's fragments.
            "KEY_PREFIX": "cronica-"
            + hmac.new(SECRET_KEY.encode(), b"fragments", "sha256").hexdigest()[:16],
            # A server that does not answer costs a request half a second, not a hang
            # (config.cache: the site then renders without it for a while).
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if CACHE_URL
        else {
            "BACKEND": "config.cache.BoundedLocMemCache",
            "LOCATION": "fragments",
            "OPTIONS": {"MAX_BYTES": int(os.environ.get("CRONICA_CACHE_MB", "64")) * 2**20},
        }
    ),
}

# The live table (live/): which broker tells each server of changes (live/brokers.py);
# how often the poll broker reads; how often a stream checks its reader is still signed
# in and a member; the quiet time after which it sends a keep-alive line; and how long a
# browser waits before reconnecting.
LIVE_BROKER = os.environ.get("CRONICA_LIVE_BROKER", "")
if LIVE_BROKER not in ("", "poll", "postgres"):
    raise ImproperlyConfigured('CRONICA_LIVE_BROKER must be "poll" or "postgres".')
LIVE_POLL_SECONDS = 0.1
LIVE_RECHECK_SECONDS = 5.0
LIVE_HEARTBEAT_SECONDS = 15.0
LIVE_RETRY_MS = 2000

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The axes backend refuses a locked-out username or address before any password check.
# Django's password backend and database sessions, under the project's names.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.ModelBackend",
]
SESSION_ENGINE = "accounts.sessions"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns:list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Madrid")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/bootstrap", xstatic.pkg.bootstrap.BASE_DIR),
    *(path / "static" for path in SYSTEM_DIRS if (path / "static").is_dir()),
]
STORAGES = {
    # Uploads: MEDIA_ROOT, or object storage (README "Portraits and object storage").
    "default": {
        "BACKEND": os.environ.get(
            "DJANGO_MEDIA_STORAGE", "django.core.files.storage.FileSystemStorage"
        ),
        "OPTIONS": json.loads(os.environ.get("DJANGO_MEDIA_STORAGE_OPTIONS") or "{}"),
    },
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
MEDIA_ROOT = os.environ.get("DJANGO_MEDIA_ROOT") or str(BASE_DIR / "media")
# Uploads (README "Portraits and object storage"): each picture costs a worker a fraction
# of a second to check and redraw, so one user may send so many an hour; a file over the
# pictures' 5 MB is counted but not kept; a request body over REQUEST_MAX_BYTES is refused.
CRONICA_UPLOADS_PER_HOUR = int(os.environ.get("CRONICA_UPLOADS_PER_HOUR", "20"))
FILE_UPLOAD_HANDLERS = [
    "campaigns.images.BoundedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
REQUEST_MAX_BYTES = 12 * 1024 * 1024

# The key of the history chains' HMACs (campaigns.history): kept outside the database, so
# whoever can write to it cannot hash an edited row again. Without it, one derived from
# SECRET_KEY; set it to keep the chains valid through a change of SECRET_KEY.
CRONICA_HISTORY_KEY = os.environ.get("CRONICA_HISTORY_KEY", "")

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Strict policy: only our own scripts and styles, no inline code, no eval.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

SESSION_COOKIE_HTTPONLY = True
# Not Django's two weeks: a phone left at the table stays signed in for a week at most.
SESSION_DAYS = int(os.environ.get("CRONICA_SESSION_DAYS", "7"))
if not 1 <= SESSION_DAYS <= 365:
    raise ImproperlyConfigured("CRONICA_SESSION_DAYS must be a number of days from 1 to 365.")
SESSION_COOKIE_AGE = SESSION_DAYS * 24 * 60 * 60
CSRF_COOKIE_HTTPONLY = True  # scripts never read it: htmx takes the token from hx-headers
CSRF_FAILURE_VIEW = "accounts.views.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Behind TLS (the default in production): redirect to HTTPS, secure cookies, HSTS.
HTTPS = env_bool("DJANGO_HTTPS", not DEBUG)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Login throttling (django-axes with config.throttling.LoginThrottle, README "Login
# throttling"): a username is locked after N wrong passwords for devices that never signed
# in as it; an address after many more; a device that signed in before (a device cookie)
# only by the wrong passwords typed on it. Each lock lasts the cool-off from its last
# failure. `manage.py axes_reset` lifts the username and address locks.
AXES_HANDLER = "config.throttling.LoginThrottle"
AXES_FAILURE_LIMIT = int(os.environ.get("CRONICA_LOGIN_FAILURES", "5"))
CRONICA_LOGIN_ADDRESS_FAILURES = int(os.environ.get("CRONICA_LOGIN_ADDRESS_FAILURES", "50"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("CRONICA_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "config.throttling.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.throttling.client_ip"
CRONICA_PROXY_COUNT = int(os.environ.get("CRONICA_PROXY_COUNT", "0"))
# X-Forwarded-For is believed only from these addresses (or networks): the app server may be
# reachable directly, and then anyone could write the header.
try:
    CRONICA_TRUSTED_PROXIES = [
        ipaddress.ip_network(item, strict=False)
        for item in env_list("CRONICA_TRUSTED_PROXIES", ["127.0.0.1", "::1"])
    ]
except ValueError as error:
    raise ImproperlyConfigured(f"CRONICA_TRUSTED_PROXIES: {error}") from None

MESSAGE_TAGS = {40: "danger"}

# Password-reset mail: the console by default, SMTP when the environment says so.
# Deliberate: with no mail server configured, reset links land in the server log, where
# whoever runs the site can pass them on (our console backend: check --deploy accepts it).
MAILERS = {"default": mailer(os.environ)}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "Crónica <cronica@localhost>"
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for one day
# Reset mails asked for per hour from one address, and for one email address typed.
CRONICA_RESET_PER_ADDRESS = int(os.environ.get("CRONICA_RESET_PER_ADDRESS", "5"))
CRONICA_RESET_PER_EMAIL = int(os.environ.get("CRONICA_RESET_PER_EMAIL", "3"))
CRONICA_RESET_WINDOW = timedelta(hours=1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"forbidden_in_one_line": {"()": "config.logging.ForbiddenInOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"django.request": {"filters": ["forbidden_in_one_line"]}},
}
