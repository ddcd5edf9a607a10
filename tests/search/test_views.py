"""The search page: who may search, what each reader finds (canaries planted in every
secret place), bad input, links and the query count."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.fragments import CACHE
from characters import services as character_services
from search.models import SearchEntry
from tests.search.conftest import diary, note, roll, search_url

pytestmark = pytest.mark.django_db

HIT = re.compile(r'class="search-hit')


def hits(client: Client, world, typed: str, **params) -> int:
    response = client.get(search_url(world, q=typed, **params))
    assert response.status_code == 200
    return len(HIT.findall(response.content.decode()))


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def canaries(world):
    """A unique word in each place some reader may not read, and who may find it."""
    secret_roll = roll(world, "Canariotirada oculta", secret=True)
    gm_note = note(world, "Canarionota del máster")
    draft = diary(world, world.perez, "Canarioborrador sin publicar", status="draft")
    lucia_hidden = diary(world, world.lucia, "Canariooculto que el máster esconde")
    character_services.diary_set_hidden(entry=lucia_hidden, user=world.gm, hidden=True)
    world.campaign.players_see_full_sheets = False
    world.campaign.save()
    character_services.character_update(
        character=world.perez, user=world.other, notes="Canarioficha: debe dinero"
    )
    xp = character_services.xp_adjust(
        character=world.perez, user=world.gm, amount=1, reason="Canarioexperiencia"
    )
    entries = {
        "canariotirada": (secret_roll, "roll"),
        "canarionota": (gm_note, "note"),
        "canarioborrador": (draft, "diary"),
        "canariooculto": (lucia_hidden, "diary"),
        "canarioficha": (world.perez, "sheet"),
        "canarioexperiencia": (xp, "xp"),
    }
    readers = {
        "GM": (
            world.gm,
            {"canariotirada", "canarionota", "canariooculto", "canarioficha", "canarioexperiencia"},
        ),
        # bob wrote the hidden diary: its author still reads it.
        "player": (world.player, {"canariooculto"}),
        # dora owns Pérez and wrote the draft.
        "other player": (world.other, {"canarioborrador", "canarioficha", "canarioexperiencia"}),
        "observer": (world.observer, set()),
    }
    return entries, readers


@pytest.mark.parametrize("role", ["GM", "player", "other player", "observer"])
def test_no_reader_ever_finds_what_they_may_not_read(world, canaries, role):
    entries, readers = canaries
    user, allowed = readers[role]
    client = client_for(user)
    for word, (row, kind) in entries.items():
        expected = 1 if word in allowed else 0
        assert hits(client, world, word) == expected, (role, word)
        # Nor through the link to a hit's place.
        entry = SearchEntry.objects.get(kind=kind, object_id=row.pk)
        if entry.scene_id is not None:
            go = client.get(reverse("search:go", args=[world.campaign.pk, entry.pk]))
            assert go.status_code == (302 if expected else 404), (role, word)


def test_players_find_each_others_sheets_only_when_the_campaign_shares_them(world, canaries):
    world.campaign.players_see_full_sheets = True
    world.campaign.save()
    assert hits(client_for(world.player), world, "canarioficha") == 1
    assert hits(client_for(world.player), world, "canarioexperiencia") == 1
    # Observers still see only their own characters' sheets.
    assert hits(client_for(world.observer), world, "canarioficha") == 0


def test_a_diary_hidden_after_it_was_indexed_is_no_longer_found(world):
    entry = diary(world, world.perez, "Un secreto sobre el sereno.")
    assert hits(client_for(world.player), world, "sereno") == 1
    character_services.diary_set_hidden(entry=entry, user=world.gm, hidden=True)
    assert hits(client_for(world.player), world, "sereno") == 0


def test_a_stranger_gets_404_and_an_anonymous_visitor_the_login_page(world):
    url = search_url(world, q="andén")
    assert client_for(world.stranger).get(url).status_code == 404
    go = reverse("search:go", args=[world.campaign.pk, 1])
    assert client_for(world.stranger).get(go).status_code == 404
    response = Client().get(url)
    assert response.status_code == 302
    assert "/login/" in response["Location"]


BAD_INPUT = [
    '"', '""', "-", "--", "*", "a*", "NOT", "AND OR NOT", "(", ")", '"sin cerrar', "title:x",
    "^andén", "NEAR(a b)", "'", "!", "&|", "<->", ":*", "\\", "-\"andén\"", "andén -",
    "\x00", "and\x00én", "🎲 andén", "a" * 10_000, "andén " * 2_000, "% _", "'; DROP TABLE x;--",
]  # fmt: skip


@pytest.mark.parametrize("typed", BAD_INPUT, ids=range(len(BAD_INPUT)))
def test_bad_input_gives_results_or_a_clear_message(world, typed):
    response = client_for(world.player).get(search_url(world, q=typed))
    page = response.content.decode()
    if "\x00" in typed:
        # The site refuses NUL in any parameter before a view runs (config.middleware).
        assert response.status_code == 400
        assert "nulo" in page
        return
    assert response.status_code == 200
    assert (
        'id="search-problem"' in page or 'id="search-count"' in page or ('id="search-none"' in page)
    )


def test_a_query_too_long_or_without_words_says_why(world):
    client = client_for(world.player)
    page = client.get(search_url(world, q="a" * 10_000)).content.decode()
    assert "200" in re.search(r'id="search-problem">([^<]*)<', page).group(1)
    page = client.get(search_url(world, q="-andén")).content.decode()
    assert 'id="search-problem"' in page
    page = client.get(search_url(world, q="* ! ?")).content.decode()
    assert 'id="search-problem"' in page


def test_filters_from_outside_the_lists_get_a_message(world):
    page = client_for(world.player).get(search_url(world, q="andén", scene="abc"))
    assert page.status_code == 200
    assert 'role="alert"' in page.content.decode()


def test_snippets_mark_the_hits_and_escape_the_text(world):
    # Code shows its tags as text on the diary's page: so does the snippet, escaped.
    diary(world, world.lucia, "Escribí `<script>alert(1)</script>` junto al andén vacío.")
    page = client_for(world.player).get(search_url(world, q="anden")).content.decode()
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; junto al <mark>andén</mark>" in page


SNIPPET = re.compile(r'<p class="mb-0 small search-snippet">(.*?)</p>', re.DOTALL)
HOSTILE = (
    "Forjaron el hierro <script>alert(1)</script> <img src=x onerror=alert(1)> "
    "[link](javascript:alert(1)) en la fragua de **Peñíscola** &amp; compañía."
)


@pytest.mark.parametrize("role", ["GM", "player", "stranger"])
def test_a_snippet_shows_the_text_the_diary_shows_its_reader(world, role):
    diary(world, world.perez, HOSTILE)
    user = {"GM": world.gm, "player": world.player, "stranger": world.stranger}[role]
    response = client_for(user).get(search_url(world, q="hierro"))
    if role == "stranger":
        assert response.status_code == 404
        return
    assert response.status_code == 200
    assert SNIPPET.findall(response.content.decode()) == [
        "Forjaron el <mark>hierro</mark> link en la fragua de Peñíscola &amp; compañía."
    ]


def test_a_diary_hit_links_to_its_anchor_on_the_page_of_the_timeline_that_shows_it(world):
    entry = diary(world, world.lucia, "La linterna se apagó.")
    client = client_for(world.player)
    page = client.get(search_url(world, q="linterna")).content.decode()
    indexed = SearchEntry.objects.get(kind="diary", object_id=entry.pk)
    go = reverse("search:go", args=[world.campaign.pk, indexed.pk])
    assert f'href="{go}"' in page
    response = client.get(go)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#diary-{entry.pk}")
    scene_page = client.get(response["Location"]).content.decode()
    assert f'id="diary-{entry.pk}"' in scene_page


def test_a_roll_hit_lands_on_the_timeline_page_that_holds_it(world, settings):
    from campaigns import chronicle

    rolls = [roll(world, f"Tirada {n}") for n in range(chronicle.TIMELINE_PAGE + 3)]
    first = rolls[0]
    client = client_for(world.player)
    indexed = SearchEntry.objects.get(kind="roll", object_id=first.pk)
    response = client.get(reverse("search:go", args=[world.campaign.pk, indexed.pk]))
    assert response["Location"].endswith(f"#scene-roll-{first.pk}")
    assert f'id="scene-roll-{first.pk}"' in client.get(response["Location"]).content.decode()
    last = rolls[-1]
    indexed = SearchEntry.objects.get(kind="roll", object_id=last.pk)
    response = client.get(reverse("search:go", args=[world.campaign.pk, indexed.pk]))
    assert f'id="scene-roll-{last.pk}"' in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("kind", ["roll", "diary"])
def test_a_hit_amid_a_long_fight_lands_on_the_timeline_page_that_holds_it(world, kind):
    """Wounds page the timeline too: a roll or a diary between more of them than a page
    holds is on a page of its own, and the hit's link goes there."""
    from campaigns import chronicle
    from mechanics.services.health import character_apply_damage, health_event_undo
    from mechanics.systems.base import DamageInput

    def fight():
        for turn in range(chronicle.TIMELINE_PAGE + 2):
            if turn % 2:
                health_event_undo(character=world.lucia, user=world.gm)
            else:
                damage = DamageInput(1, "B")
                character_apply_damage(
                    character=world.lucia, user=world.gm, damage=damage, scene=world.scene
                )

    roll(world, "Tirada antes")
    fight()
    if kind == "roll":
        hit = roll(world, "Tirada tras la pelea")
        anchor = f"scene-roll-{hit.pk}"
    else:
        hit = diary(world, world.lucia, "Tras la pelea")
        anchor = f"diary-{hit.pk}"
    fight()
    roll(world, "Tirada final")
    indexed = SearchEntry.objects.get(kind=kind, object_id=hit.pk)
    client = client_for(world.player)
    response = client.get(reverse("search:go", args=[world.campaign.pk, indexed.pk]))
    assert response["Location"].endswith(f"#{anchor}")
    assert f'id="{anchor}"' in client.get(response["Location"]).content.decode()
    # Not on the first page.
    assert f'id="{anchor}"' not in client.get(world.scene.get_absolute_url()).content.decode()


def test_the_top_bar_has_a_labelled_search_box_on_campaign_pages(world):
    page = client_for(world.player).get(world.scene.get_absolute_url()).content.decode()
    assert f'action="{search_url(world)}"' in page
    assert '<label class="visually-hidden" for="nav-search-q">' in page


def test_htmx_gets_only_the_results(world):
    response = client_for(world.player).get(search_url(world, q="andén"), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="search-results"')
    assert "<nav" not in page


def test_a_search_runs_as_many_queries_on_a_big_index_as_on_a_small_one(world):
    client = client_for(world.player)
    client.get(search_url(world, q="andén"))  # the session and the chrome's caches

    def counted(**params) -> int:
        caches[CACHE].clear()  # the scene menu, cached under the campaign's version
        with CaptureQueriesContext(connection) as queries:
            assert client.get(search_url(world, **params)).status_code == 200
        return len(queries)

    small = counted(q="andén"), counted(q="andén", kind="scene")
    for n in range(30):
        diary_character = world.lucia if n % 2 else world.perez
        roll(world, f"Andén {n}", character=diary_character)
    note(world, "Andén")
    big = counted(q="andén"), counted(q="andén", kind="roll")
    assert small == big
    # The session with its user, the membership, the form's three menus, the search's two,
    # and whether the menu shows the administration link.
    assert big == (8, 8)


def test_past_the_cap_the_newest_matches_are_ranked_and_the_count_says_more(world, monkeypatch):
    from search import engine

    monkeypatch.setattr(engine, "MATCHES", 3)
    rolls = [roll(world, f"Pelea {n}") for n in range(5)]
    client = client_for(world.player)
    page = client.get(search_url(world, q="pelea")).content.decode()
    assert "Más de 3 resultados" in page
    shown = re.findall(r"Pelea</mark> (\d)", page)
    assert shown == ["4", "3", "2"]  # the newest, newest first
    monkeypatch.setattr(engine, "MATCHES", 10)
    page = client.get(search_url(world, q="pelea")).content.decode()
    assert "5 resultados" in page
    assert len(rolls) == 5


def test_the_chosen_filters_stay_selected(world):
    page = client_for(world.player).get(
        search_url(world, q="andén", scene=world.scene.pk, character=world.lucia.pk)
    )
    html = page.content.decode()
    assert f'<option value="{world.scene.pk}" selected>El andén vacío</option>' in html
    assert f'<option value="{world.lucia.pk}" selected>Lucía</option>' in html
    assert '<option value="" selected>' in html  # the kind and story: all
