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
