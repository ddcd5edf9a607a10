"""Mundo de Tinieblas: bashing damage before Herido heals "in minutes" (seed: "desaparece en
menos de una hora ... unos minutos de descanso deberían bastar"), and the health box says so
like it gives the time of any other damage, instead of showing no time at all
(docs/rules.md#tinieblas-heal-time-display)."""

import pytest
from django.urls import reverse

from characters.models import Character
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


def hurt(character, gm, amount, damage_type, **rules):
    if rules:
        character.campaign.house_rules = {**character.campaign.house_rules, **rules}
        character.campaign.save()
        character = Character.objects.get(pk=character.pk)
    character_apply_damage(
        character=character, damage=DamageInput(amount, damage_type), user=gm, reason=""
    )


def time_left(client, character) -> str | None:
    """The health box's time to heal, on the sheet and in the live part the poll redraws."""
    sheet = parse(client.get(character.get_absolute_url()).text)
    live = reverse("mechanics:health", args=[character.campaign_id, character.pk])
    fragment = parse(client.get(live, **HTMX).text)
    found = [
        [e.text() for e in page.find_all(class_="health-time-left")] for page in (sheet, fragment)
    ]
    assert found[0] == found[1]
    return found[0][0] if found[0] else None


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("amount", [1, 3])
def test_light_bashing_heals_in_a_few_minutes(client, request, gm, lucia, who, amount):
    hurt(lucia, gm, amount, "B")
    client.force_login(request.getfixturevalue(who))
    assert time_left(client, lucia) == "Se cura del todo en unos minutos"
    client.cookies["django_language"] = "en"
    assert time_left(client, lucia) == "Heals fully in a few minutes"


def test_bashing_up_to_herido_still_counts_its_hour(client, gm, lucia):
    hurt(lucia, gm, 4, "B")
    client.force_login(gm)
    assert time_left(client, lucia) == "Se cura del todo en 1 hora"


def test_unhurt_shows_no_time(client, gm, lucia):
    client.force_login(gm)
    assert time_left(client, lucia) is None


def test_aggravated_that_does_not_heal_is_not_a_few_minutes(client, gm, lucia):
    hurt(lucia, gm, 1, "A", aggravated_heals_as_lethal=False)
    client.force_login(gm)
    assert time_left(client, lucia) is None


def test_a_stranger_sees_no_health(client, gm, stranger, lucia):
    hurt(lucia, gm, 1, "B")
    client.force_login(stranger)
    assert client.get(lucia.get_absolute_url()).status_code == 404
    live = reverse("mechanics:health", args=[lucia.campaign_id, lucia.pk])
    assert client.get(live, **HTMX).status_code == 404
