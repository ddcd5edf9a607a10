"""The benchmark's pages (bench/site.py), requested as the tests that guard them need."""

from __future__ import annotations

import dataclasses
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


def read_again(world: site.World) -> site.World:
    """`world` with its rows read again, for a test of a module that shares it: an earlier
    test's writes were rolled back, not the instances they changed."""

    def again(row):
        return type(row)._default_manager.get(pk=row.pk)

    return dataclasses.replace(
        world,
        campaign=again(world.campaign),
        gm=again(world.gm),
        player=again(world.player),
        character=again(world.character),
        scene=again(world.scene),
        other_sheets={system: again(sheet) for system, sheet in world.other_sheets.items()},
    )
