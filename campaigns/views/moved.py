"""Addresses that moved to another app: a permanent redirect that keeps the method."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse

from campaigns.permissions import campaign_access


def moved_to(pattern_name: str):
    """A view sending a member's request to `pattern_name` with the same arguments and
    query; every moved address is under a campaign."""

    @login_required
    def view(request: HttpRequest, **kwargs) -> HttpResponse:
        # Non-members learn nothing from the old address either: 404, as everywhere.
        campaign_access(request.user, kwargs["campaign_id"])
        url = reverse(pattern_name, kwargs=kwargs)
        if request.META.get("QUERY_STRING"):
            url = f"{url}?{request.META['QUERY_STRING']}"
        response = HttpResponsePermanentRedirect(url)
        # 308, not 301: a form posted to the old address is posted again to the new one.
        response.status_code = 308
        return response

    return view
