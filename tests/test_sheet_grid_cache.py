"""The sheet's grid of sections is rendered once per key and cached (characters/views/
sheet_context.py, `{% fragment_at %}`): the key holds every row the grid shows, the
viewer and their rights, so a write shows on the next request, one viewer's grid never
reaches another, and its forms carry each browser's own CSRF token."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.fragments import CACHE, CSRF_PLACEHOLDER
from campaigns.models import Scene
from characters import services
from characters.models import Character, Trait
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.cached import cached_keys
from tests.characters.test_sheet_views import tinieblas_sheet
from tests.factories import MembershipFactory, UserFactory, campaign_with, make_character
from tests.html import parse


def _url(character, name="sheet", *args):
    return reverse(f"characters:{name}", args=[character.campaign_id, character.pk, *args])


def _grids_cached() -> int:
    return sum("sheet-grid" in key for key in cached_keys())


def _sheet(client, character) -> str:
    """The sheet, asked twice: the second answer comes from the cached grid."""
    client.get(_url(character))
    assert _grids_cached() > 0
    return client.get(_url(character)).text


@pytest.fixture
def lucia(campaign, player):
    return tinieblas_sheet(campaign, player)


def test_a_health_event_shows_on_the_next_request_of_a_cached_sheet(client, gm, player, lucia):
    client.force_login(player)
    assert _sheet(client, lucia).count('class="health-event ') == 0
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    assert client.get(_url(lucia)).text.count('class="health-event ') == 1


def test_a_rating_changed_without_the_services_shows_on_the_next_request(client, player, lucia):
    client.force_login(player)
    assert 'aria-label="Inteligencia 3 de 5"' in _sheet(client, lucia)
    Trait.objects.filter(character=lucia, key="inteligencia").update(rating=4)
    assert 'aria-label="Inteligencia 4 de 5"' in client.get(_url(lucia)).text


def test_a_new_character_is_offered_as_healer_on_the_next_request(
    client, gm, player, campaign, lucia
):
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(2, "L"))
    client.force_login(gm)
    assert "Doctora Ruiz" not in _sheet(client, lucia)
    make_character(campaign, None, name="Doctora Ruiz")
    # The first-aid tool of the cached sheet loads its form when opened.
    first_aid = reverse("mechanics:health_first_aid", args=[campaign.pk, lucia.pk])
    page = client.get(first_aid, HTTP_HX_REQUEST="true").text
    healers = re.search(r'<select name="first_aid-healer".*?</select>', page, re.S)
    assert healers
    assert "Doctora Ruiz" in healers.group(0)


@pytest.mark.parametrize("first", ["gm", "player"])
def test_the_gms_grid_never_reaches_the_player_nor_the_players_the_gm(gm, player, lucia, first):
    gm_client, player_client = Client(), Client()
    gm_client.force_login(gm)
    player_client.force_login(player)
    order = [gm_client, player_client] if first == "gm" else [player_client, gm_client]
    pages = {id(c): _sheet(c, lucia) for c in order}
    rating_form = _url(lucia, "trait_set", "inteligencia")
    assert rating_form in pages[id(gm_client)]
    assert rating_form not in pages[id(player_client)]


def _token_of_form(page: str, action: str) -> str:
    found = re.search(
        rf'action="{re.escape(action)}".*?name="csrfmiddlewaretoken" value="([^"]+)"', page, re.S
    )
    assert found, f"a form posting to {action} is on the sheet"
    return found.group(1)


def test_a_form_of_a_cached_grid_carries_each_browsers_own_token(gm, lucia):
    """The GM's rating forms sit in the traits fragment, itself inside the grid: both are
    stored with the placeholder, and each browser gets its own token in its place."""
    browsers = [Client(enforce_csrf_checks=True) for _ in range(2)]
    pages = []
    for browser in browsers:  # the second browser gets the grid the first cached
        browser.force_login(gm)
        pages.append(_sheet(browser, lucia))
    # A post changes the sheet (and so the key): both pages were read before any.
    for browser, page in zip(browsers, pages, strict=True):
        assert CSRF_PLACEHOLDER not in page
        for action, data in (
            (_url(lucia, "trait_set", "fuerza"), {"rating": "3"}),
            (_url(lucia, "pool_adjust", "willpower"), {"delta": "-1"}),
        ):
            token = _token_of_form(page, action)
            answer = browser.post(action, {**data, "csrfmiddlewaretoken": token})
            assert answer.status_code == 302, action


def _health_meta(page: str) -> str:
    """Who and in which scene, as the newest line of the health card says."""
    card = parse(page.encode()).one(id="sheet-health")
    return card.find_all("div", class_="health-event-meta")[0].text()


def test_the_scene_and_user_a_health_line_names_read_right_on_the_next_request(
    client, gm, player, campaign, lucia
):
    scene = Scene.objects.create(campaign=campaign, title="El muelle")
    health_services.character_apply_damage(
        character=lucia, user=gm, damage=DamageInput(1, "L"), scene=scene
    )
    client.force_login(player)
    meta = _health_meta(_sheet(client, lucia))
    assert "El muelle" in meta
    assert gm.username in meta
    Scene.objects.filter(pk=scene.pk).update(title="El faro")
    assert "El faro" in _health_meta(client.get(_url(lucia)).text)
    type(gm).objects.filter(pk=gm.pk).update(username="narradora_nueva")
    assert "narradora_nueva" in _health_meta(client.get(_url(lucia)).text)


def test_an_undone_event_shows_as_undone_on_the_next_request(client, gm, lucia):
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    client.force_login(gm)
    damage = f"health-event-{lucia.health_events.get().pk}"
    assert "undone" not in parse(_sheet(client, lucia).encode()).one(id=damage).attrs["class"]
    health_services.health_event_undo(character=lucia, user=gm)
    page = parse(client.get(_url(lucia)).content)
    assert "undone" in page.one(id=damage).attrs["class"]


def test_a_house_rule_change_shows_on_the_next_request_of_a_cached_sheet(
    client, gm, player, campaign, lucia
):
    """The health track follows the campaign's house rules: the campaign's version is in
    the grid's key (with the character's alone, the old track stays)."""
    Trait.objects.filter(character=lucia, key="resistencia").update(rating=4)
    client.force_login(player)
    before = _boxes(_sheet(client, lucia))
    campaign.house_rules = {**campaign.house_rules, "health_from_stamina": True}
    campaign.save()
    assert _boxes(client.get(_url(lucia)).text) != before


def _boxes(page: str) -> int:
    return len(parse(page).one("ol", class_="health-boxes").find_all("li"))


def _pieces_stored() -> dict[str, int]:
    """How many of each piece of the grid the cache holds."""
    keys = cached_keys()
    return {
        piece: sum(f":{piece}:" in key for key in keys)
        for piece in ("sheet-grid-head", "sheet-apart", "sheet-grid-tail")
    }


def _xp_balance(page: str) -> str:
    return parse(page).one("span", data_xp_balance=True).text()


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("write", ["wound", "award"])
def test_a_wound_or_an_award_renders_the_grids_middle_piece_alone_and_shows_at_once(
    client, gm, player, lucia, who, write
):
    """Health and XP leave `grid_version`: the pools and the rest of the grid stay cached,
    and the piece that shows them follows `version` (keyed by `grid_version` too, it would
    show the old state)."""
    client.force_login(gm if who == "gm" else player)
    page = _sheet(client, lucia)
    assert (page.count('class="health-event '), _xp_balance(page)) == (0, "0")
    stored = _pieces_stored()
    assert all(stored.values())
    if write == "wound":
        health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    else:
        services.xp_adjust(character=lucia, user=gm, amount=5, reason="Buena sesión")
    page = client.get(_url(lucia)).text
    shown = (page.count('class="health-event '), _xp_balance(page))
    assert shown == ((1, "0") if write == "wound" else (0, "5"))
    assert _pieces_stored() == {**stored, "sheet-apart": stored["sheet-apart"] + 1}


def test_the_details_written_without_the_services_show_on_the_next_request(client, player, lucia):
    """A column of the character's own row but its health and XP moves `grid_version`."""
    client.force_login(player)
    assert "Caridad" in _sheet(client, lucia)
    Character.objects.filter(pk=lucia.pk).update(details={"virtue": "fe", "vice": "orgullo"})
    page = client.get(_url(lucia)).text
    assert "Caridad" not in page
    assert "Fe" in parse(page).one(id="sheet-status-more").text()


def test_an_owed_secuela_shows_on_the_next_request_of_a_cached_hitos_sheet(client, gm, player):
    """Hitos aspects ask for the permanent secuela a recovery owes (the character's health):
    its grid follows every health write (`SheetSection.reads_health`)."""
    campaign = campaign_with("hitos", gm, players=[player])
    marcos = make_character(
        campaign,
        player,
        name="Marcos",
        ratings={"fortaleza": 4, "voluntad": 2, "reflejos": 3, "intelecto": 3},
    )
    for hit in (4, 4, 4, 3):  # Moribundo, each hit below Aguante 5
        health_services.character_apply_damage(character=marcos, user=gm, damage=DamageInput(hit))
    client.force_login(player)
    assert 'id="secuela-name"' not in _sheet(client, marcos)
    health_services.character_advance_time(character=marcos, user=gm, hours=30 * 24)
    assert 'id="secuela-name"' in client.get(_url(marcos)).text


@pytest.mark.parametrize("page", ["sheet", "poll"])
def test_a_stamina_changed_after_a_wound_shows_in_the_health_track_on_the_next_request(
    client, gm, player, lucia, page
):
    """The health reads the ratings kept under the grid version (a wound leaves it, a
    trait moves it): the track follows Resistencia at once, on the sheet and its poll."""
    poll = reverse("mechanics:health", args=[lucia.campaign_id, lucia.pk])

    def boxes() -> int:
        if page == "sheet":
            return _boxes(client.get(_url(lucia)).text)
        return _boxes(client.get(f"{poll}?since=stale", HTTP_HX_REQUEST="true").text)

    campaign = lucia.campaign
    campaign.house_rules = {**campaign.house_rules, "health_from_stamina": True}
    campaign.save()
    client.force_login(player)
    _sheet(client, lucia)
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    before = boxes()
    Trait.objects.filter(character=lucia, key="resistencia").update(rating=4)
    assert boxes() == before + 2


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("write", ["wound", "award"])
def test_after_a_wound_or_an_award_the_sheet_loads_the_health_events_alone_more(
    client, gm, player, lucia, who, write
):
    """The pools and the rest of the grid come from the cache, and the ratings (kept by
    the first such request): of the character's rows only its latest health events are
    read again."""

    def play() -> None:
        if write == "wound":
            health_services.character_apply_damage(
                character=lucia, user=gm, damage=DamageInput(1, "B")
            )
        else:
            services.xp_adjust(character=lucia, user=gm, amount=2, reason="Buena sesión")

    client.force_login(gm if who == "gm" else player)
    _sheet(client, lucia)
    with CaptureQueriesContext(connection) as warm:
        client.get(_url(lucia))
    play()
    client.get(_url(lucia))
    play()
    with CaptureQueriesContext(connection) as after:
        client.get(_url(lucia))
    read = [query["sql"] for query in after.captured_queries]
    assert len(read) == len(warm) + 1
    assert sum('FROM "characters_healthevent"' in sql for sql in read) == 1


def _story(client, character):
    return parse(client.get(_url(character)).text).one(id="sheet-story")


@pytest.mark.parametrize("who", ["gm", "owner"])
def test_the_sheets_header_follows_its_row_and_its_owners_name_on_the_next_request(
    client, gm, player, lucia, who
):
    client.force_login(gm if who == "gm" else player)
    _sheet(client, lucia)
    assert any("sheet-story" in key for key in cached_keys())
    # Notes move the character's versions alone; a concept, the campaign's too.
    Character.objects.filter(pk=lucia.pk).update(notes="Ver el sótano")
    assert "Ver el sótano" in _story(client, lucia).text()
    Character.objects.filter(pk=lucia.pk).update(concept="Médium retirada")
    assert "Médium retirada" in _story(client, lucia).text()
    type(player).objects.filter(pk=player.pk).update(username="bea")
    assert "bea" in _story(client, lucia).text()


@pytest.mark.parametrize("who", ["gm", "owner"])
def test_the_header_reads_the_owners_row_only_for_another_reader(client, gm, player, lucia, who):
    """The owner's own sheet names them from the request's user, read already with the
    session: no query of the users' table, where the GM's sheet reads the owner's row."""
    client.force_login(gm if who == "gm" else player)
    caches[CACHE].clear()
    with CaptureQueriesContext(connection) as cold:
        story = parse(client.get(_url(lucia)).text).one(id="sheet-story")
    users = [query for query in cold.captured_queries if 'FROM "auth_user"' in query["sql"]]
    assert len(users) == (1 if who == "gm" else 0)
    assert f"juega {player.username}" in story.text()


@pytest.mark.parametrize("first", ["gm", "owner", "other"])
def test_one_viewers_header_never_reaches_another(gm, player, campaign, lucia, first):
    """The GM's header has the edit and history links and the notes; the owner's too;
    another player's, the public view, has neither."""
    Character.objects.filter(pk=lucia.pk).update(notes="Ver el sótano")
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    clients = {}
    for name, user in (("gm", gm), ("owner", player), ("other", other)):
        clients[name] = Client()
        clients[name].force_login(user)
    order = sorted(clients, key=lambda name: name != first)
    stories = {name: _story(clients[name], lucia) for name in order}
    stories = {name: _story(clients[name], lucia) for name in order}  # from the cache
    edit = _url(lucia, "edit")
    history = _url(lucia, "history")
    for name in ("gm", "owner"):
        assert stories[name].find_all("a", href=edit)
        assert stories[name].find_all("a", href=history)
        assert "Ver el sótano" in stories[name].text()
    assert not stories["other"].find_all("a", href=edit)
    assert not stories["other"].find_all("a", href=history)
    assert "Ver el sótano" not in stories["other"].text()
