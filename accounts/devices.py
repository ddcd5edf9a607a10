"""Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies").

A successful login leaves a signed cookie naming the user and a random device id. A login
that presents a valid one for the username it types is judged only by the wrong passwords
typed with that cookie (accounts.models.DeviceFailures), never by the lock on the username
that failures from anywhere fill: a stranger can keep the username locked for new devices,
not for the owner's phone. See config.throttling.LoginThrottle and the README.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE = "cronica_device"
SALT = "accounts.devices"
MAX_AGE = timedelta(days=365)


def device_of(request: HttpRequest, username: str | None) -> str | None:
    """The device id of a valid cookie issued to this username, or None."""
    value = request.COOKIES.get(COOKIE)
    if not value or not username:
        return None
    try:
        data = signing.loads(value, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("user") != username:
        return None
    device = data.get("device")
    return device if isinstance(device, str) else None


def remember_device(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """On every login (user_logged_in), a fresh device id for this user."""
    if request is not None:
        request.device_cookie = signing.dumps(
            {"user": user.get_username(), "device": secrets.token_urlsafe(32)}, salt=SALT
        )


class DeviceCookieMiddleware:
    """Sets the cookie that remember_device prepared on the login's response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        value = getattr(request, "device_cookie", None)
        if value:
            response.set_cookie(
                COOKIE,
                value,
                max_age=int(MAX_AGE.total_seconds()),
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
