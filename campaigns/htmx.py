"""htmx responses: the same URL serves the partial to htmx and the whole page otherwise."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def htmx_render(request: HttpRequest, template: str, partial: str, context: dict) -> HttpResponse:
    """The partial for htmx, the full page otherwise (`Vary: HX-Request` is set for every
    response by config.middleware, so caches keep the two apart)."""
    # A history restore (back button after hx-push-url) needs the whole page.
    partial_wanted = request.htmx and not request.htmx.history_restore_request
    name = f"{template}#{partial}" if partial_wanted else template
    return render(request, name, context)


# Live refreshes ({% live_refresh %}, live/templatetags/live.py) send the version their
# page shows in this header, not the query string, so that the page's own parameters and
# the fragment caches keyed on them stay as they are.
SINCE_HEADER = "X-Cronica-Since"


def unchanged(request: HttpRequest, version: object) -> HttpResponse | None:
    """204 No Content for a live refresh of a page that shows `version` already (most
    pages: `CampaignAccess.live_seq`): the view answers at the cost of its access check,
    before rendering anything."""
    if request.htmx and request.headers.get(SINCE_HEADER) == str(version):
        return HttpResponse(status=204)
    return None
