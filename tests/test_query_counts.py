"""Every page of the page benchmark runs a fixed number of queries, whatever the amount
of data: the demo (seed_demo and a scene of play) and a mid-sized campaign (1,000 rolls,
20 scenes, 200 XP entries...) must cost the same, and neither more than the page's
budget. The pages and the campaigns are the benchmark's own (bench/site.py,
bench/data.py), so what is measured there is what is guarded here."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench import site
from bench.data import Sizes
from campaigns.fragments import CACHE
from campaigns.keyset import encode
from characters.models import XpEntry
from mechanics.models import Roll
from tests.bench_pages import each_page, read_again

# Queries per page once its fragments are cached, as the GM or a player; a page may get
# cheaper, never dearer. A GM's page of their campaign asks nothing for the menu's admin
# link (campaigns.permissions.may_use_admin), a player's asks whether they run another.
BUDGET = {
    # Sheets: one query for the saved rolls at the top, however many there are; the
    # header, the grid and the owner's name in it from the cache, and the roll feed (under
    # the campaign's counter of new rolls). The GM's: nothing for the menu's admin link
    # (the sheet's access knows the role).
    ("sheet (tinieblas)", "player"): 3,
    ("sheet (tinieblas)", "GM"): 2,
    ("sheet (hitos)", "player"): 3,
    ("sheet (ndp)", "player"): 3,
    ("sheet (objetivo)", "player"): 3,
    ("campaign page", "GM"): 3,
    ("campaign page", "player"): 3,
    # One query for the viewer's own characters, linked from each campaign's card.
    ("dashboard (my campaigns)", "player"): 4,
    # The page of scenes with their counts and casts from the cache, under the change
    # sequence and the reader; the stories under the campaign's version.
    ("scene list", "player"): 3,
    # The timeline and the side cards come from the cache: their rows are read only when
    # they changed.
    ("scene page", "GM"): 4,
    ("scene page", "player"): 4,
    # An open page's live refresh, drawn: the scene's parts (header, timeline, cast) and
    # the sheet's from the cache, as on the page itself.
    ("scene live refresh", "player"): 3,
    ("sheet live refresh", "player"): 2,
    # Cached under the rows they are drawn from (mechanics.views.roll._panel_key): the
    # session with its user, and the access check.
    ("roll panel (htmx)", "player"): 2,
    ("odds partial (htmx)", "player"): 2,
    # Those two; the sheet's rows, the open scenes and a Tinieblas sheet's extended
    # actions from the cache, under the character's grid version; a SAVEPOINT and its
    # RELEASE (for the BEGIN and COMMIT of a request outside a test), one statement that
    # locks the campaign and reads its history chain's tip, and the roll.
    ("roll POST (htmx)", "player"): 6,
    # The session with its user, and the access check, which reads the feed's version
    # with the campaign (`Campaign.public_roll_seq` for a player): no roll read.
    ("feed poll", "player"): 2,
    ("health poll", "player"): 3,
    # Below the waiting purchases (the GM's), the log is cached whole under the entries'
    # counter and the campaign's version: its rows are read only when it changed.
    ("XP log + chart", "GM"): 3,
    ("XP log + chart", "player"): 3,
    # Cached whole under the reader's sequence and the campaign's version.
    ("roll log", "GM"): 2,
    ("roll log", "player"): 3,
}
OK = {"get": {200, 204}, "post": {200}}


def _queries(world: site.World, *, warm: bool = True) -> dict[tuple[str, str], int]:
    """Queries of a request to each page, as the page's GM or player (`each_page`)."""
    counted = {}
    for page, request in each_page(world, warm=warm):
        with CaptureQueriesContext(connection) as queries:
            response = request()
        assert response.status_code in OK[page.method], (page, response.status_code)
        counted[page.name, page.who] = len(queries)
    return counted


@pytest.fixture(scope="module")
def _worlds(module_rows):
    with module_rows.unblock():
        return site.build_demo(), site.build_big(Sizes.mid())


@pytest.fixture
def demo(_worlds, db):
    return read_again(_worlds[0])


@pytest.fixture
def mid(_worlds, db):
    return read_again(_worlds[1])


@pytest.mark.parametrize("warm", [False, True], ids=["first request", "next requests"])
def test_every_page_runs_as_many_queries_on_a_campaign_with_1000_rolls_as_on_the_demo(
    demo, mid, warm
):
    on_demo, on_mid = _queries(demo, warm=warm), _queries(mid, warm=warm)
    grown = {
        page: (on_demo[page], count)
        for page, count in on_mid.items()
        if page in on_demo and count != on_demo[page]
    }
    assert grown == {}, "queries (demo, mid-sized campaign) of pages whose count moved"


def test_every_page_stays_within_its_query_budget(demo, mid):
    for world in (demo, mid):
        counted = _queries(world)
        over = {page: (n, BUDGET[page]) for page, n in counted.items() if n > BUDGET[page]}
        assert over == {}, f"(queries, budget) of pages over budget on the {world.name} campaign"
    assert set(_queries(demo)) == set(BUDGET), "every measured page has a budget"


def _later_pages(world: site.World) -> list[site.Page]:
    """The pages after the first, and the filtered ones, of the lists that grow: they
    too must cost the same on a small and a big campaign."""
    campaign, scene = world.campaign.pk, world.scene.pk
    rolls = Roll.objects.filter(campaign=world.campaign).order_by("-created_at", "-pk")
    entries = XpEntry.objects.filter(campaign=world.campaign).order_by("-created_at", "-pk")
    roll_log = reverse("mechanics:log", args=[campaign])
    xp_log = reverse("characters:xp_log", args=[campaign])
    timeline = reverse("campaigns:timeline", args=[campaign])
    return [
        site.Page("scene list, page 2", "player", f"{timeline}?page=2"),
        site.Page("roll log, older page", "player", f"{roll_log}?after={encode(rolls[3])}"),
        site.Page("roll log, newer page", "GM", f"{roll_log}?before={encode(rolls[3])}"),
        site.Page("roll log, one scene", "player", f"{roll_log}?scene={scene}"),
        site.Page("XP log, older page", "GM", f"{xp_log}?after={encode(entries[1])}"),
        site.Page("XP log, one scene", "player", f"{xp_log}?scene={scene}"),
        site.Page("XP log, one character", "GM", f"{xp_log}?character={world.character.pk}"),
    ]


LATER_BUDGET = {
    ("scene list, page 2", "player"): 3,
    ("roll log, older page", "player"): 3,
    ("roll log, newer page", "GM"): 2,
    ("roll log, one scene", "player"): 3,
    ("XP log, older page", "GM"): 3,
    ("XP log, one scene", "player"): 3,
    ("XP log, one character", "GM"): 3,
}


def test_later_and_filtered_pages_of_the_logs_cost_the_same_on_any_campaign(demo, mid):
    counted = {}
    for world in (demo, mid):
        clients = site.clients(world)
        for page in _later_pages(world):
            client = clients[page.who]
            # The first request reads the rows; the next finds the fragments cached, as
            # most requests do. Both must not grow with the campaign.
            caches[CACHE].clear()
            for warm in (False, True):
                with CaptureQueriesContext(connection) as queries:
                    response = client.get(page.url)
                assert response.status_code == 200, (page, response.status_code)
                counted[world.name, page.name, page.who, warm] = len(queries)
    on_demo = {key[1:]: n for key, n in counted.items() if key[0] == "demo"}
    on_mid = {key[1:]: n for key, n in counted.items() if key[0] != "demo"}
    assert on_mid == on_demo, "queries of later pages, on the demo and on the mid campaign"
    warm = {key[:2]: n for key, n in on_demo.items() if key[2]}
    over = {page: (n, LATER_BUDGET[page]) for page, n in warm.items() if n > LATER_BUDGET[page]}
    assert over == {}, "(queries, budget) of later pages over budget"


# The first request of a page after a write, which reads only what the write changed.
# After a roll in its scene, the scene page: the page of rolls and the new card's roll;
# the timeline's other sources (campaigns.chronicle) and the side cards from the cache.
# After an award to one character, the XP log: the waiting purchases (GM), the
# characters, the page of entries (with what the new one's row shows), the awarded
# character's ledger (its sums and its line's points in one query, grouped by the span
# the other lines tell, or a player's one line by the span it took last time), the
# latest scenes' totals.
AFTER_WRITE = {
    ("roll", "scene page", "GM"): 6,
    ("roll", "scene page", "player"): 6,
    ("xp", "XP log + chart", "GM"): 7,
    ("xp", "XP log + chart", "player"): 7,
}


@pytest.mark.parametrize(("write", "name"), [("roll", "scene page"), ("xp", "XP log + chart")])
def test_the_first_page_after_a_write_reads_what_the_write_changed(demo, mid, write, name):
    for world in (demo, mid):
        pages = [page for page in site.pages(world) if page.name == name]
        for n, page in enumerate(pages):
            client = Client()
            client.force_login(world.gm if page.who == "GM" else world.player)
            client.get(page.url)
            site.write(world, write, n)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(page.url).status_code == 200
            counted = len(queries)
            assert counted <= AFTER_WRITE[write, name, page.who], (world.name, page.who, counted)


# Queries of a sheet with nothing cached: the session with its user, the access check; the
# sheet's rows (traits, pools, the owner's name unless the reader is the owner, and what
# its sections read), its latest health events, its saved rolls and the roll feed; a
# player's, whether they run another campaign (the menu's admin link).
COLD_BUDGET = {
    ("sheet (tinieblas)", "player"): 10,
    ("sheet (tinieblas)", "GM"): 10,
    ("sheet (hitos)", "player"): 10,
    ("sheet (ndp)", "player"): 9,
    ("sheet (objetivo)", "player"): 9,
    # Those two; the sheet's traits, pools and specialties, the open scenes and the
    # extended actions in progress.
    ("roll panel (htmx)", "player"): 7,
    # Those two; the traits and pools alone: a Tinieblas roll without a specialty reads
    # neither the specialties nor the open scenes (mechanics.views.roll._asked_forms).
    ("odds partial (htmx)", "player"): 4,
}


def test_a_cold_sheet_stays_within_its_query_budget(demo, mid):
    """And a cold roll panel. (The mid-sized campaign has a Tinieblas sheet only.)"""
    for world in (demo, mid):
        counted = _queries(world, warm=False)
        sheets = {page: n for page, n in COLD_BUDGET.items() if page in counted}
        over = {page: (counted[page], n) for page, n in sheets.items() if counted[page] > n}
        assert over == {}, f"(queries, budget) of sheets over budget on the {world.name} campaign"
