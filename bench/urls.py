"""The site's URLs plus the bare view the benchmarks compare every page with."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns

BARE = engines["django"].from_string(
    '<!doctype html><html lang="es"><title>{{ title }}</title><p>{{ text }}</p></html>'
)


def bare(request: HttpRequest) -> HttpResponse:
    """A tiny template and no query: what any page costs at least."""
    return HttpResponse(BARE.render({"title": "Crónica", "text": "Hola"}, request))


@login_required
def signed_in(request: HttpRequest) -> HttpResponse:
    """The bare view behind a login: what any page of the site costs at least (its session
    and its user read)."""
    return bare(request)


urlpatterns = [
    path("bench/bare/", bare, name="bench_bare"),
    path("bench/signed-in/", signed_in, name="bench_signed_in"),
    *site_urlpatterns,
]
