"""The benchmark's pages (bench/site.py), requested as the tests that guard them need."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from django.core.cache import caches
from django.http import HttpResponse

from bench import site
from campaigns.fragments import CACHE


def each_page(
    world: site.World, *, warm: bool
) -> Iterator[tuple[site.Page, Callable[[], HttpResponse]]]:
    """(page, request) for every page of the benchmark on `world`, where `request()` makes
    the request to measure, as the page's GM or player: the page's second one (`warm`, its
    fragments cached, as most requests find them) or one with nothing cached."""
    clients = site.clients(world)
    for page in site.pages(world):
        client = clients[page.who]
        extra = {**(site.HTMX if page.htmx else {}), **page.headers}
        if warm:
            url = page.url(client) if callable(page.url) else page.url
            getattr(client, page.method)(url, page.data, **extra)
        else:
            caches[CACHE].clear()  # whatever an earlier page cached
        url = page.url(client) if callable(page.url) else page.url
        yield page, functools.partial(getattr(client, page.method), url, page.data, **extra)
