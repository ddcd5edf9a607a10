"""Login throttling hooks for django-axes: the client's address and the lockout page."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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
