"""The campaign roll log page: who sees it, what it shows, filters, pagination, queries."""

import datetime
import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Scene
from characters.models import Character, DiaryEntry
from characters.services import diary_save, xp_adjust
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from mechanics.views import log as log_views
from tests.factories import backdated, make_character
from tests.html import parse
from tests.mechanics_web.rolls import make_scene, store_roll

pytestmark = pytest.mark.django_db


def log_url(campaign, **params):
    url = reverse("mechanics:log", args=[campaign.pk])
    if params:
        url += "?" + "&".join(f"{key}={value}" for key, value in params.items())
    return url


def shown_rolls(response) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-roll="(\d+)"', response.content.decode())]


# Who sees it


@pytest.mark.parametrize("member", ["gm", "player", "observer"])
def test_every_member_reads_the_roll_log(client, campaign, player, member, request):
    roll = store_roll(campaign, player, label="Sigilo en la cripta")
    client.force_login(request.getfixturevalue(member))
    response = client.get(log_url(campaign))
    assert response.status_code == 200
    assert shown_rolls(response) == [roll.pk]
    assert "Sigilo en la cripta" in response.content.decode()


def test_a_stranger_gets_a_404_from_the_roll_log(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(log_url(campaign)).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(client, campaign):
    response = client.get(log_url(campaign))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


# What it shows


def test_the_log_shows_who_rolled_for_whom_where_and_every_die(client, campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    scene = make_scene(campaign, "La cripta")
    roll = store_roll(campaign, player, character=lucia, scene=scene, label="Sigilo", dice=8)
    client.force_login(gm)
    html = client.get(log_url(campaign)).content.decode()
    assert "bob" in html
    assert "Lucía" in html
    assert "Escena: La cripta" in html
    # Every die is drawn as a d10, and its state is said in words as well as classes.
    assert html.count('class="die die-d10') == len(roll.record["dice"])
    assert re.search(r"\d+ éxitos?|Fallo", html)
    for die in roll.record["dice"]:
        if "success" in die["tags"]:
            assert "die-success" in html
            assert f"d10: {die['value']}, éxito" in html


def test_the_log_reads_in_english_too(client, campaign, player):
    store_roll(campaign, player, label="Stealth")
    client.force_login(player)
    client.cookies["django_language"] = "en"
    response = client.get(log_url(campaign))
    html = response.content.decode()
    assert "Roll log" in html
    assert "1 roll" in html


def _link(response, rel: str) -> str:
    return html.unescape(re.search(rf'href="([^"]*)" rel="{rel}"', response.text).group(1))


def test_the_log_shows_25_rolls_a_page_newest_first(client, campaign, player):
    rolls = [store_roll(campaign, player, seed=n) for n in range(30)]
    client.force_login(player)
    first = client.get(log_url(campaign))
    assert shown_rolls(first) == [roll.pk for roll in reversed(rolls)][:25]
    assert "30 tiradas" in first.content.decode()
    assert 'rel="prev"' not in first.text
    second = client.get(log_url(campaign) + _link(first, "next"))
    assert shown_rolls(second) == [roll.pk for roll in reversed(rolls)][25:]
    assert 'rel="next"' not in second.text
    back = client.get(log_url(campaign) + _link(second, "prev"))
    assert shown_rolls(back) == shown_rolls(first)


def test_a_garbled_page_link_shows_the_first_page(client, campaign, player):
    roll = store_roll(campaign, player)
    client.force_login(player)
    assert shown_rolls(client.get(log_url(campaign, after="99.x"))) == [roll.pk]
    assert shown_rolls(client.get(log_url(campaign, before="x"))) == [roll.pk]


def test_a_long_log_says_more_than_a_thousand_rolls_without_counting_them_all(
    client, campaign, player, monkeypatch
):
    monkeypatch.setattr("mechanics.views.log.COUNT_LIMIT", 3)
    for n in range(4):
        store_roll(campaign, player, seed=n)
    client.force_login(player)
    assert "Más de 3 tiradas" in client.get(log_url(campaign)).text


def test_a_log_below_the_bound_counts_each_new_roll(client, campaign, player, monkeypatch):
    monkeypatch.setattr("mechanics.views.log.COUNT_LIMIT", 3)
    client.force_login(player)
    counts = []
    for n in range(4):
        store_roll(campaign, player, seed=n)
        counts.append(parse(client.get(log_url(campaign)).text).one("p", id="roll-count").text())
    assert counts == ["1 tirada", "2 tiradas", "3 tiradas", "Más de 3 tiradas"]


def test_a_log_past_the_bound_does_not_count_again_after_a_roll(
    client, campaign, player, monkeypatch
):
    monkeypatch.setattr("mechanics.views.log.COUNT_LIMIT", 3)
    for n in range(4):
        store_roll(campaign, player, seed=n)
    client.force_login(player)
    client.get(log_url(campaign))
    newest = store_roll(campaign, player, seed=9)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(log_url(campaign))
    assert shown_rolls(page)[0] == newest.pk
    assert parse(page.text).one("p", id="roll-count").text() == "Más de 3 tiradas"
    assert not [q for q in queries.captured_queries if "COUNT(" in q["sql"]]


# Filters


def test_the_log_filters_by_character(client, campaign, player, paula):
    lucia = make_character(campaign, player, name="Lucía")
    marco = make_character(campaign, paula, name="Marco")
    mine = store_roll(campaign, player, character=lucia)
    store_roll(campaign, paula, character=marco)
    client.force_login(paula)
    assert shown_rolls(client.get(log_url(campaign, character=lucia.pk))) == [mine.pk]


def test_the_log_filters_by_scene(client, campaign, player):
    crypt, tavern = make_scene(campaign, "La cripta"), make_scene(campaign, "La taberna")
    in_crypt = store_roll(campaign, player, scene=crypt)
    store_roll(campaign, player, scene=tavern)
    store_roll(campaign, player)
    client.force_login(player)
    assert shown_rolls(client.get(log_url(campaign, scene=crypt.pk))) == [in_crypt.pk]


def test_the_log_filters_by_who_rolled(client, campaign, gm, player, observer):
    store_roll(campaign, player)
    by_gm = store_roll(campaign, gm)
    client.force_login(observer)
    response = client.get(log_url(campaign, player=gm.pk))
    assert shown_rolls(response) == [by_gm.pk]
    # Observers never roll, so they are not offered as a filter.
    assert f'<option value="{observer.pk}"' not in response.content.decode()


def test_the_log_filters_by_whole_days_in_the_sites_time_zone(client, campaign, player):
    tz = timezone.get_current_timezone()
    rolls = []
    for day in (1, 2, 3):
        # Late in the evening: the UTC date is the next day, the local date is not.
        with backdated(datetime.datetime(2025, 3, day, 23, 30, tzinfo=tz)):
            rolls.append(store_roll(campaign, player, seed=day))
    old, middle, new = rolls
    client.force_login(player)
    response = client.get(log_url(campaign, date_from="2025-03-02", date_to="2025-03-02"))
    assert shown_rolls(response) == [middle.pk]
    assert shown_rolls(client.get(log_url(campaign, date_from="2025-03-02"))) == [
        new.pk,
        middle.pk,
    ]
    assert shown_rolls(client.get(log_url(campaign, date_to="2025-03-01"))) == [old.pk]


def test_a_bad_filter_is_explained_keeps_what_was_typed_and_is_ignored(client, campaign, player):
    roll = store_roll(campaign, player)
    client.force_login(player)
    response = client.get(log_url(campaign, date_from="ayer", character=999999))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Introduce una fecha válida." in html
    assert "Elige una opción válida" in html
    assert 'value="ayer"' in html
    assert shown_rolls(response) == [roll.pk]


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("es", "Elige una opción válida. abc no es una de las opciones disponibles."),
        ("en", "Select a valid choice. abc is not one of the available choices."),
    ],
)
def test_a_bad_character_filter_is_explained_saying_tu_in_spanish(
    client, campaign, player, language, message
):
    """Django's own message, in the site's tú (locale/es overrides Django's usted)."""
    client.cookies["django_language"] = language
    client.force_login(player)
    response = client.get(log_url(campaign, character="abc"))
    assert response.status_code == 200
    assert message in response.text


def test_an_end_date_before_the_start_date_is_explained(client, campaign, player):
    client.force_login(player)
    response = client.get(log_url(campaign, date_from="2025-03-05", date_to="2025-03-01"))
    assert "La fecha final es anterior a la inicial." in response.content.decode()


def test_an_empty_filter_result_says_so(client, campaign, player):
    store_roll(campaign, player)
    scene = make_scene(campaign)
    client.force_login(player)
    response = client.get(log_url(campaign, scene=scene.pk))
    assert "Ninguna tirada coincide con estos filtros." in response.content.decode()


# The menus and the count, cached under the campaign's version and sequence


def _options(response, name: str) -> list[str]:
    menu = parse(response.text).one("select", name=name)
    return [option.text() for option in menu.find_all("option")][1:]


def _count(response) -> str:
    return parse(response.text).one(id="roll-count").text()


def test_the_filters_menus_follow_new_and_renamed_scenes_characters_and_players(
    client, campaign, gm, player
):
    crypt = make_scene(campaign, "La cripta")
    lucia = make_character(campaign, player, name="Lucía")
    client.force_login(gm)
    page = client.get(log_url(campaign))
    assert _options(page, "scene") == ["La cripta"]
    assert "Lucía" in _options(page, "character")
    make_scene(campaign, "La taberna")
    Scene.objects.filter(pk=crypt.pk).update(title="El osario")
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Ferrer")
    get_user_model().objects.filter(pk=player.pk).update(username="roberta")
    page = client.get(log_url(campaign))
    assert _options(page, "scene") == ["La taberna", "El osario"]
    assert "Lucía Ferrer" in _options(page, "character")
    assert "roberta" in _options(page, "player")


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_count_follows_new_rolls_and_counts_a_secret_one_for_gms_only(
    client, campaign, gm, player, request, who
):
    store_roll(campaign, player)
    client.force_login(request.getfixturevalue(who))
    assert _count(client.get(log_url(campaign))) == "1 tirada"
    store_roll(campaign, gm, secret=True)
    assert _count(client.get(log_url(campaign))) == ("2 tiradas" if who == "gm" else "1 tirada")
    store_roll(campaign, player)
    assert _count(client.get(log_url(campaign, player=player.pk))) == "2 tiradas"
    assert _count(client.get(log_url(campaign))) == ("3 tiradas" if who == "gm" else "2 tiradas")


def test_the_gm_and_a_player_reading_the_same_log_get_their_own_count(client, campaign, gm, player):
    store_roll(campaign, player)
    store_roll(campaign, gm, secret=True)
    counts = []
    for reader in (gm, player, gm):
        client.force_login(reader)
        counts.append(_count(client.get(log_url(campaign))))
    assert counts == ["2 tiradas", "1 tirada", "2 tiradas"]


def test_a_secret_roll_the_gm_read_never_reaches_a_player_whose_sequence_catches_up(
    client, campaign, gm, player
):
    """The log is cached under its reader and the campaign's counters: a player's
    sequence comes, a few writes later, to the number the GM's had when the GM read a
    secret roll, and the player must still not be served the GM's page."""
    lucia = make_character(campaign, player, name="Lucía")
    store_roll(campaign, player, character=lucia)
    secret = store_roll(campaign, gm, secret=True)
    client.force_login(gm)
    assert secret.pk in shown_rolls(client.get(log_url(campaign)))
    campaign.refresh_from_db()
    read_at, public_rolls = campaign.change_seq, 1
    while campaign.public_seq < read_at:  # a roll moves the players' sequence by one
        store_roll(campaign, player, character=lucia, seed=public_rolls)
        public_rolls += 1
        campaign.refresh_from_db()
    assert campaign.public_seq == read_at
    client.force_login(player)
    page = client.get(log_url(campaign))
    assert secret.pk not in shown_rolls(page)
    assert _count(page) == f"{public_rolls} tiradas"


@pytest.mark.parametrize("who", ["gm", "player"])
def test_after_a_wound_xp_or_a_diary_the_log_is_not_rendered_again(
    client, campaign, gm, player, request, who, monkeypatch
):
    lucia = make_character(campaign, player, name="Lucía")
    scene = make_scene(campaign, "La cripta")
    scene.participants.add(lucia)
    store_roll(campaign, player, character=lucia)
    client.force_login(request.getfixturevalue(who))
    first = client.get(log_url(campaign))
    filtered = []
    original = log_views.attach_cards
    monkeypatch.setattr(
        log_views, "attach_cards", lambda *a, **k: filtered.append(a) or original(*a, **k)
    )
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    xp_adjust(character=lucia, user=gm, amount=2, reason="Bien jugado")
    diary_save(
        character=lucia,
        scene=scene,
        user=player,
        body="Bajamos.",
        status=DiaryEntry.Status.PUBLISHED,
        visibility=DiaryEntry.Visibility.GROUP,
    )
    assert shown_rolls(client.get(log_url(campaign))) == shown_rolls(first)
    assert filtered == []
    roll = store_roll(campaign, player, character=lucia, seed=2)
    assert shown_rolls(client.get(log_url(campaign)))[0] == roll.pk
    assert len(filtered) == 1


# Cost


def test_the_log_runs_constant_queries(client, campaign, gm, player, django_assert_num_queries):
    def fill(count):
        for n in range(count):
            character = make_character(campaign, player, name=f"PJ {n}")
            store_roll(campaign, player, character=character, scene=make_scene(campaign), seed=n)

    client.force_login(gm)
    fill(2)
    # the session with its user, membership, players, characters, scenes, page, bounded
    # count, and
    # the rolls whose cards are not cached yet, read whole (a GM's page of their campaign
    # needs no admin check for the menu)
    with django_assert_num_queries(8):
        client.get(log_url(campaign))
    fill(30)
    filters = {"player": player.pk, "date_from": "2020-01-01"}
    first = client.get(log_url(campaign, **filters))
    # The next page: the menus and the count come from the cache (nothing changed since),
    # so the session with its user, membership, page and the rolls read whole.
    with django_assert_num_queries(4):
        response = client.get(log_url(campaign) + _link(first, "next"))
    assert len(shown_rolls(response)) == 7


def test_the_roll_pages_have_no_inline_scripts_styles_or_handlers(client, campaign, gm, player):
    store_roll(campaign, player, label="Sigilo")
    client.force_login(gm)
    pages = [
        (log_url(campaign), {}),
        (reverse("mechanics:free_roll", args=[campaign.pk]), {}),
        (reverse("mechanics:feed", args=[campaign.pk]) + "?since=0", {"HTTP_HX_REQUEST": "true"}),
    ]
    for url, headers in pages:
        html = client.get(url, **headers).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\sstyle=", html), url
        assert "<style" not in html, url
        assert not re.search(r"\s(on[a-z]+|hx-on[:\w-]*)=", html), url
