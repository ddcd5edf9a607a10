"""Login throttling hooks for django-axes: the client's address and the lockout page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_ip(request: HttpRequest) -> str:
    """The address to count failures against.

    Behind N reverse proxies every request comes from the nearest proxy, so the client is
    the address the outermost proxy appended to X-Forwarded-For (the N-th from the right);
    anything to its left was written by the client and is not trusted.
    """
    count = settings.CRONICA_PROXY_COUNT
    if count:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= count:
            return hops[-count]
    return request.META.get("REMOTE_ADDR", "")


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The site's page, not axes' bare text, with 429 Too Many Requests."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/lockout.html", {"minutes": minutes}, status=429)
