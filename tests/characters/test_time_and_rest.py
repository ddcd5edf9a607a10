"""Game time and rest (RULES 6): quiet rest returns Willpower, Prana comes back by the hour,
and a Hitos time advance says whether the character rested at least 75 % of it."""

import pytest
from django.urls import reverse

from characters.models import Character, Resource
from mechanics.rules.hitos import health as hitos_health
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

# Aplomo + Compostura: Willpower 6.
STEADY = {"aplomo": 3, "compostura": 3, "fuerza_de_voluntad": 6}


def table(system, gm, player):
    return campaign_with(system, gm, players=[player])


def pool(character, key) -> Resource:
    return Resource.objects.get(character=character, key=key)


def spend_down_to(character, key, current):
    Resource.objects.filter(character=character, key=key).update(current=current)


def advance(client, character, hours, **extra):
    address = reverse("mechanics:health_time", args=[character.campaign_id, character.pk])
    return client.post(address, {"time-amount": hours, "time-unit": "hours", **extra})


def test_quiet_rest_returns_one_willpower_per_full_eight_hours_up_to_the_rating(client, gm, player):
    lucia = make_character(table("tinieblas", gm, player), player, ratings=STEADY)
    full = pool(lucia, "willpower").maximum
    spend_down_to(lucia, "willpower", full - 4)
    client.force_login(gm)
    advance(client, lucia, 23, **{"time-rested": "on"})
    assert pool(lucia, "willpower").current == full - 2
    advance(client, lucia, 40, **{"time-rested": "on"})
    assert pool(lucia, "willpower").current == full


def test_time_without_quiet_rest_returns_no_willpower(client, gm, player):
    lucia = make_character(table("tinieblas", gm, player), player, ratings=STEADY)
    full = pool(lucia, "willpower").maximum
    spend_down_to(lucia, "willpower", full - 2)
    client.force_login(gm)
    advance(client, lucia, 24)
    assert pool(lucia, "willpower").current == full - 2


def test_the_time_form_asks_about_quiet_rest_only_where_rest_matters(client, gm, player):
    lucia = make_character(table("tinieblas", gm, player), player)
    aldo = make_character(table("ndp", gm, player), player, name="Aldo")
    client.force_login(gm)

    def time_form(character):
        # The form the sheet's time tool loads when it is opened.
        address = reverse("mechanics:health_time", args=[character.campaign_id, character.pk])
        return parse(client.get(address, HTTP_HX_REQUEST="true").text)

    assert "checked" in time_form(lucia).one("input", name="time-rested").attrs
    assert not time_form(aldo).find_all("input", name="time-rested")


def test_prana_comes_back_one_point_per_hour_of_game_time(client, gm, player):
    aldo = make_character(table("ndp", gm, player), player, name="Aldo")
    full = pool(aldo, "prana").maximum
    spend_down_to(aldo, "prana", full - 5)
    client.force_login(gm)
    advance(client, aldo, 3)
    assert pool(aldo, "prana").current == full - 2
    advance(client, aldo, 10)
    assert pool(aldo, "prana").current == full


def test_a_player_cannot_advance_time_to_regain_prana(client, gm, player):
    aldo = make_character(table("ndp", gm, player), player, name="Aldo")
    spend_down_to(aldo, "prana", 0)
    client.force_login(player)
    response = advance(client, aldo, 5)
    assert response.status_code == 403
    assert pool(aldo, "prana").current == 0


@pytest.mark.parametrize("rested", [True, False])
def test_hitos_healing_follows_whether_the_character_rested(gm, player, rested):
    campaign = table("hitos", gm, player)
    marcos = make_character(campaign, player, name="Marcos", ratings={"fortaleza": 4})
    for _ in range(2):
        health_services.character_apply_damage(character=marcos, user=gm, damage=DamageInput(3, ""))
    marcos = Character.objects.get(pk=marcos.pk)
    system = get_system("hitos")
    before = system.state(marcos.health, {"fortaleza": 4})
    health_services.character_advance_time(character=marcos, user=gm, hours=168, rested=rested)
    after = Character.objects.get(pk=marcos.pk).health
    expected = hitos_health.heal(before, 168, rest_fraction=1 if rested else 0)
    assert after == expected.to_dict()
    other = hitos_health.heal(before, 168, rest_fraction=0 if rested else 1)
    assert after != other.to_dict()


def derived_value(html, label) -> str:
    section = parse(html).one("section", id="sheet-derived")
    return next(
        div.one("dd").text() for div in section.find_all("div") if div.one("dt").text() == label
    )


def test_hitos_defensa_on_the_sheet_includes_the_wound_penalty(client, gm, player):
    campaign = table("hitos", gm, player)
    ratings = {"fortaleza": 4, "reflejos": 3, "combate": 2}
    marcos = make_character(campaign, player, name="Marcos", ratings=ratings)
    client.force_login(gm)
    assert derived_value(client.get(marcos.get_absolute_url()).text, "Defensa") == "10"
    for _ in range(2):
        health_services.character_apply_damage(character=marcos, user=gm, damage=DamageInput(3, ""))
    health = Character.objects.get(pk=marcos.pk).health
    penalty = get_system("hitos").health_view(health, ratings, {}, campaign.rules).penalty
    assert penalty < 0
    expected = str(10 + penalty)
    assert derived_value(client.get(marcos.get_absolute_url()).text, "Defensa") == expected
    # A health action answered by htmx brings the derived traits along.
    address = reverse("mechanics:health_time", args=[campaign.pk, marcos.pk])
    response = client.post(
        address, {"time-amount": 1, "time-unit": "hours"}, HTTP_HX_REQUEST="true"
    )
    assert derived_value(response.text, "Defensa") == expected


def test_hitos_healing_periods_are_a_campaign_setting(gm, player):
    campaign = table("hitos", gm, player)
    campaign.house_rules = {"healing_days_herido": 2}
    campaign.save(update_fields=["house_rules"])
    marcos = make_character(campaign, player, name="Marcos", ratings={"fortaleza": 4})
    for _ in range(2):
        health_services.character_apply_damage(character=marcos, user=gm, damage=DamageInput(3, ""))
    before = Character.objects.get(pk=marcos.pk).health["lost"]
    health_services.character_advance_time(character=marcos, user=gm, hours=48)
    # Two days heal one point while Herido, where the seed's week would heal none.
    assert Character.objects.get(pk=marcos.pk).health["lost"] == before - 1
