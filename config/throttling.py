"""Login throttling with django-axes: who is locked, the client's address, the lockout page.

Three locks (README, "Login throttling"):
- a username, after AXES_FAILURE_LIMIT wrong passwords from anywhere, for devices that
  never signed in as it: guessing stays slow whatever the addresses;
- an address, after CRONICA_LOGIN_ADDRESS_FAILURES wrong passwords for any usernames, many
  more than one person mistypes: a group behind one address is not locked by one member;
- a trusted device (accounts.devices), after AXES_FAILURE_LIMIT wrong passwords typed on
  it; such a device is judged by this lock only, so nobody else can lock its owner out.
"""

from __future__ import annotations

import ipaddress

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts import devices, services


def _failures(attempts) -> int:
    return sum(attempts.values_list("failures_since_start", flat=True))


class LoginThrottle(AxesDatabaseHandler):
    """Axes' database handler with the username, address and device locks above.

    AXES_LOCKOUT_PARAMETERS is ["username", "ip_address"], so axes keeps the attempts
    by each; the limits differ, which axes alone cannot say.
    """

    def _device(self, request, credentials) -> str | None:
        return devices.device_of(request, get_client_username(request, credentials))

    def is_allowed(self, request, credentials=None) -> bool:
        device = self._device(request, credentials)
        if device is not None:
            return services.device_failures_count(device=device) < settings.AXES_FAILURE_LIMIT
        return super().is_allowed(request, credentials)

    def get_failures(self, request, credentials=None) -> int:
        """The username's failures, which axes compares with AXES_FAILURE_LIMIT."""
        by_username, _by_address = self.get_user_attempts(request, credentials)
        return _failures(by_username)

    def _address_locked(self, request, credentials) -> bool:
        _by_username, by_address = self.get_user_attempts(request, credentials)
        return _failures(by_address) >= settings.CRONICA_LOGIN_ADDRESS_FAILURES

    def is_locked(self, request, credentials=None) -> bool:
        return super().is_locked(request, credentials) or self._address_locked(request, credentials)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs) -> None:
        device = self._device(request, credentials) if request is not None else None
        if device is None:
            super().user_login_failed(sender, credentials, request, **kwargs)
            if request is not None and self._address_locked(request, credentials):
                request.axes_locked_out = True
                request.axes_credentials = credentials
            return
        username = get_client_username(request, credentials)
        failures = services.device_failure_record(device=device, username=username)
        if failures >= settings.AXES_FAILURE_LIMIT:
            request.axes_locked_out = True
            request.axes_credentials = credentials


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(address) -> bool:
    return address is not None and any(
        address in network for network in settings.CRONICA_TRUSTED_PROXIES
    )


def client_ip(request: HttpRequest) -> str:
    """The address to count failures against.

    Behind N reverse proxies every request comes from the nearest proxy, and each proxy
    appends the address it got the request from to X-Forwarded-For. Reading right to left,
    a hop is believed only while the address that wrote it is one of our proxies
    (CRONICA_TRUSTED_PROXIES): a client that reaches the app server directly, or writes the
    header itself, gets its own address, not the one it forged.
    """
    peer = request.META.get("REMOTE_ADDR", "")
    client = _address(peer)
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    for _hop in range(settings.CRONICA_PROXY_COUNT):
        if not _trusted(client) or not hops:
            break
        written = _address(hops.pop())
        if written is None:
            break
        client = written
    return str(client) if client is not None else peer


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The site's page, not axes' bare text, with 429 Too Many Requests."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/lockout.html", {"minutes": minutes}, status=429)
