"""Hitos secuelas on the site (docs/rules.md#hitos-secuelas) and the weekly activity test
of an Incapacitado character (docs/rules.md#hitos-activity-test), through the views."""

import random

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.models import Campaign
from characters.models import Aspect, Character
from mechanics.models import HealthEvent, Roll
from mechanics.services.health import character_advance_time, character_apply_damage
from mechanics.systems.base import DamageInput
from mechanics.systems.hitos import health as hitos_health
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# Fortaleza 4, Voluntad 2: Aguante 5, Resistencia 15 (the seed's example 2).
AGUANTE_5 = {"fortaleza": 4, "voluntad": 2, "reflejos": 3, "intelecto": 3}


@pytest.fixture
def hitos(gm, player, observer, stranger):
    from tests.factories import MembershipFactory, UserFactory

    campaign = campaign_with("hitos", gm, players=[player], observers=[observer])
    MembershipFactory(campaign=campaign, user=UserFactory(username="dora"), role="player")
    return campaign


@pytest.fixture
def marcos(hitos, player):
    return make_character(hitos, player, name="Marcos", ratings=AGUANTE_5)


def health(character) -> dict:
    return Character.objects.get(pk=character.pk).health


def lines(client, character) -> dict[str, str]:
    page = parse(client.get(character.get_absolute_url()).text)
    card = page.one(id="sheet-health")
    return {
        dt.text(): dd.text()
        for dt, dd in zip(card.find_all("dt"), card.find_all("dd"), strict=False)
    }


def lose(gm, character, points):
    """Resistencia lost in hits below Aguante 5, so no massive-damage test is rolled."""
    while points:
        hit = min(points, 4)
        character_apply_damage(character=character, user=gm, damage=DamageInput(hit))
        points -= hit


def test_a_critical_hit_entered_with_the_damage_records_its_scene_secuela(client, gm, marcos):
    client.force_login(gm)
    address = reverse("mechanics:health_damage", args=[marcos.campaign_id, marcos.pk])
    data = {"damage-amount": 3, "damage-rd": 0, "damage-critical": "scene"}
    assert client.post(address, data).status_code == 302
    assert health(marcos)["critical_secuela"] == "scene"
    assert lines(client, marcos)["Secuela de crítico"] == "durante la escena"


def test_a_session_secuela_is_not_shortened_by_a_later_scene_one(gm, marcos):
    character_apply_damage(character=marcos, user=gm, damage=DamageInput(1, critical="session"))
    character_apply_damage(character=marcos, user=gm, damage=DamageInput(1, critical="scene"))
    assert health(marcos)["critical_secuela"] == "session"


def test_a_forged_critical_value_is_refused_and_nothing_is_written(client, gm, marcos):
    client.force_login(gm)
    address = reverse("mechanics:health_damage", args=[marcos.campaign_id, marcos.pk])
    data = {"damage-amount": 3, "damage-rd": 0, "damage-critical": "story"}
    response = client.post(address, data, **HTMX)
    assert response.status_code == 200
    assert not HealthEvent.objects.exists()
    assert health(marcos)["lost"] == 0


def test_closing_the_scene_ends_the_scene_secuela_and_ending_the_session_the_session_one(
    client, gm, hitos, marcos, player
):
    rival = make_character(hitos, None, name="Rival", ratings=AGUANTE_5)
    scene = campaign_services.scene_create(campaign=hitos, title="El zoco", participants=[marcos])
    character_apply_damage(character=marcos, user=gm, damage=DamageInput(1, critical="scene"))
    character_apply_damage(character=rival, user=gm, damage=DamageInput(1, critical="session"))
    campaign_services.scene_close(scene=scene, user=gm)
    assert health(marcos)["critical_secuela"] is None
    assert health(rival)["critical_secuela"] == "session"
    event = HealthEvent.objects.filter(character=marcos).latest("pk")
    assert event.scene == scene
    assert event.summary == "La secuela de crítico de Marcos termina."
    client.force_login(gm)
    client.post(reverse("campaigns:session_end", args=[hitos.pk]), {"confirmed": "1"})
    assert health(rival)["critical_secuela"] is None
    assert health(rival)["lost"] == 1  # only the secuela ends


def test_example_2_incapacitado_shows_its_temporary_secuela_until_sano(client, gm, player, marcos):
    lose(gm, marcos, 10)
    client.force_login(player)
    assert lines(client, marcos)["Secuela temporal"] == "hasta estar Sano"
    character_advance_time(character=marcos, user=gm, hours=2 * 30 * 24 + 6 * 7 * 24)
    assert "Secuela temporal" not in lines(client, marcos)


def moribundo_recovered(gm, marcos):
    lose(gm, marcos, 15)
    assert health(marcos)["lost"] == 15  # Moribundo
    character_advance_time(character=marcos, user=gm, hours=30 * 24)
    assert health(marcos)["permanent_secuelas"] == 1


def test_example_2_recovering_from_moribundo_asks_the_owner_to_name_the_permanent_secuela(
    client, gm, player, marcos
):
    moribundo_recovered(gm, marcos)
    client.force_login(player)
    page = parse(client.get(marcos.get_absolute_url()).text)
    form = page.one("form", id="secuela-name")
    address = form.attrs["action"]
    assert lines(client, marcos)["Secuelas permanentes"] == "1"
    assert client.post(address, {"secuela-text": "Cojera"}).status_code == 302
    assert list(Aspect.objects.filter(character=marcos).values_list("kind", "text")) == [
        ("secuela", "Cojera")
    ]
    page = parse(client.get(marcos.get_absolute_url()).text)
    assert not page.find_all("form", id="secuela-name")
    # Named once: a second name is refused and nothing is written.
    response = client.post(address, {"secuela-text": "Tuerto"})
    assert response.status_code == 302
    assert Aspect.objects.filter(character=marcos).count() == 1


@pytest.mark.parametrize(("who", "status"), [("dora", 403), ("olga", 403), ("charlie", 404)])
def test_only_the_owner_or_the_gm_names_a_permanent_secuela(
    client, gm, marcos, who, status, django_user_model
):
    moribundo_recovered(gm, marcos)
    client.force_login(django_user_model.objects.get(username=who))
    address = reverse("hitos:secuela_name", args=[marcos.campaign_id, marcos.pk])
    assert client.post(address, {"secuela-text": "Cojera"}).status_code == status
    assert not Aspect.objects.filter(character=marcos).exists()


def test_the_gm_names_a_secuela_too_but_never_one_not_owed(client, gm, marcos):
    client.force_login(gm)
    address = reverse("hitos:secuela_name", args=[marcos.campaign_id, marcos.pk])
    response = client.post(address, {"secuela-text": "Cojera"}, follow=True)
    assert "no tiene ninguna secuela permanente sin nombre" in response.text
    assert not Aspect.objects.exists()
    moribundo_recovered(gm, marcos)
    assert client.post(address, {"secuela-text": "Cojera"}).status_code == 302
    assert Aspect.objects.filter(character=marcos, kind="secuela").count() == 1


# --- The weekly activity test --------------------------------------------------------------


def activity(client, user, character, **data):
    client.force_login(user)
    address = reverse("mechanics:health_activity", args=[character.campaign_id, character.pk])
    return client.post(address, {f"activity-{k}": v for k, v in data.items()}, **HTMX)


def test_the_activity_test_is_offered_only_while_incapacitado(client, gm, marcos):
    client.force_login(gm)
    page = client.get(marcos.get_absolute_url()).text
    assert 'id="health-activity"' not in page
    lose(gm, marcos, 10)
    page = client.get(marcos.get_absolute_url()).text
    assert 'id="health-activity"' in page


def test_a_failed_activity_test_loses_the_die_the_aspect_names(gm, marcos):
    lose(gm, marcos, 10)
    # Aguante 5 + C is at most 15, never greater than 15: the test fails on any dice.
    rng = random.Random(3)
    event = hitos_health.character_activity_test(
        character=marcos, user=gm, aspect="negative", rng=rng
    )
    roll = event.roll
    assert roll.record["details"]["loss_die"] == "M"
    loss = roll.record["details"]["loss"]
    assert loss > 0
    assert health(marcos)["lost"] == min(10 + loss, 15)  # never beyond Resistencia 0
    assert "pierde" in event.summary


def test_the_gm_rolls_the_weekly_activity_test_from_the_sheet(client, gm, marcos):
    lose(gm, marcos, 10)
    response = activity(client, gm, marcos, aspect="positive")
    assert response.status_code == 200
    event = HealthEvent.objects.filter(inputs__treatment="activity").get()
    assert event.roll is not None
    assert event.inputs["aspect"] == "positive"


def test_a_forged_activity_test_for_a_character_who_is_not_incapacitado_writes_nothing(
    client, gm, marcos
):
    response = activity(client, gm, marcos)
    assert response.status_code == 200
    assert 'id="health-activity"' not in response.text
    assert not HealthEvent.objects.exists()
    assert not Roll.objects.exists()


@pytest.mark.parametrize(("who", "status"), [("bob", 403), ("dora", 403), ("olga", 403)])
def test_players_and_observers_do_not_roll_the_activity_test(client, gm, marcos, who, status):
    lose(gm, marcos, 10)
    before = HealthEvent.objects.count()
    user = type(gm).objects.get(username=who)
    assert activity(client, user, marcos).status_code == status
    assert HealthEvent.objects.count() == before


def test_the_owner_rolls_it_when_the_campaign_lets_owners_heal(client, gm, player, hitos, marcos):
    Campaign.objects.filter(pk=hitos.pk).update(owner_applies_damage=True)
    lose(gm, marcos, 10)
    assert activity(client, player, marcos).status_code == 200
    assert HealthEvent.objects.filter(inputs__treatment="activity").exists()


def test_a_stranger_finds_no_activity_test(client, gm, stranger, marcos):
    lose(gm, marcos, 10)
    before = HealthEvent.objects.count()
    assert activity(client, stranger, marcos).status_code == 404
    assert HealthEvent.objects.count() == before
