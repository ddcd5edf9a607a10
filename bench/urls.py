"""The site's URLs plus the bare view the benchmarks compare every page with."""

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


urlpatterns = [path("bench/bare/", bare, name="bench_bare"), *site_urlpatterns]
