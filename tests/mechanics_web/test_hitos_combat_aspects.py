"""Hitos in the combat panel: each side may activate an aspect, paid by whoever
activates it; the attacker's improves the attack (keep M) or raises the damage one
category, the target's hinders it (keep m) or lowers the damage; another character's
aspect used against them hands them the drama point (docs/rules.md#hitos-combat-aspects)."""

import pytest
from django.urls import reverse

from campaigns import services
from characters.models import Aspect, Resource
from characters.services import aspect_add
from mechanics.models import CombatAttack, Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def rooftop(gm, player, observer):
    campaign = campaign_with("hitos", gm, players=[player], observers=[observer])
    hero = make_character(
        campaign, player, name="Héroe", ratings={"reflejos": 4, "combate": 4, "fortaleza": 4}
    )
    foe = make_character(
        campaign,
        None,
        user=gm,
        name="Sicario",
        ratings={"reflejos": 1, "combate": 1, "fortaleza": 4},
    )
    bystander = make_character(campaign, None, user=gm, name="Testigo")
    aspect_add(character=hero, user=gm, kind="concepto", text="Puños de acero")
    aspect_add(character=foe, user=gm, kind="complicacion", text="Cojo")
    aspect_add(character=bystander, user=gm, kind="concepto", text="Mirón")
    scene = services.scene_create(campaign=campaign, title="Azotea", participants=[hero, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    return combat, hero, foe


def url(combat):
    scene = combat.scene
    return reverse("mechanics:combat_attack", args=[scene.campaign_id, scene.pk, combat.pk])


def aspect(character):
    return Aspect.objects.get(character=character)


def points(character):
    return Resource.objects.get(character=character, key="drama_points").current


def blow(hero, foe, **extra):
    # Reflejos 4 + Combate 4 against Defensa 1 + 1 + 5 = 7, weapon C, damage bonus 2.
    return {
        "attacker": hero.pk,
        "target": foe.pk,
        "characteristic": "reflejos",
        "skill": "combate",
        "weapon": "central",
        "attack_range": "melee",
        "target_state": "normal",
        **extra,
    }


def test_the_panel_offers_aspects_to_both_sides_and_no_typed_damage_steps(client, gm, rooftop):
    combat, hero, foe = rooftop
    client.force_login(gm)
    page = parse(client.get(url(combat), blow(hero, foe), HTTP_HX_REQUEST="true").text)
    for name in ("aspect", "aspect_use", "pay", "target_aspect", "target_aspect_use"):
        assert page.one("select", name=name)
    assert "Puños de acero" in page.one("select", name="target_aspect").text()
    assert not page.find_all("input", name="damage_shift")


def test_the_attacker_improves_the_attack_with_a_drama_point(client, gm, rooftop, fixed_dice):
    combat, hero, foe = rooftop
    client.force_login(gm)
    data = blow(hero, foe, aspect=aspect(hero).pk)
    shown = client.get(url(combat), data, HTTP_HX_REQUEST="true").text
    assert "Héroe activa «Puños de acero»: el ataque se queda con M." in shown
    fixed_dice(3, 6, 9)
    assert client.post(url(combat), data).status_code == 302
    stored = CombatAttack.objects.get()
    assert stored.roll.record["details"]["kept_die"] == "M"
    assert stored.roll.result == 9 + 8
    # Damage: the category C still reads the central die, 6 + bonus 2.
    assert stored.damage["amount"] == 6 + 2
    assert points(hero) == 2


def test_the_attacker_raises_the_damage_exhausting_its_own_aspect(client, gm, rooftop, fixed_dice):
    combat, hero, foe = rooftop
    client.force_login(gm)
    fixed_dice(3, 6, 9)
    client.post(
        url(combat), blow(hero, foe, aspect=aspect(hero).pk, aspect_use="damage", pay="exhaust")
    )
    stored = CombatAttack.objects.get()
    assert stored.roll.record["details"]["kept_die"] == "C"
    assert stored.roll.record["details"]["damage_category"] == "M"
    assert stored.damage["amount"] == 9 + 2
    assert aspect(hero).exhausted
    assert points(hero) == 3


def test_the_target_hinders_the_attack_paying_its_own_drama_point(client, gm, rooftop, fixed_dice):
    combat, hero, foe = rooftop
    client.force_login(gm)
    fixed_dice(3, 6, 9)
    client.post(url(combat), blow(hero, foe, target_aspect=aspect(foe).pk))
    stored = CombatAttack.objects.get()
    assert stored.roll.record["details"]["kept_die"] == "m"
    assert stored.roll.result == 3 + 8
    assert stored.roll.record["details"]["target_activation"]["use"] == "roll"
    assert points(foe) == 2
    assert points(hero) == 3


def test_the_target_lowers_the_damage_with_the_attackers_aspect_and_hands_him_the_point(
    client, gm, rooftop, fixed_dice
):
    combat, hero, foe = rooftop
    client.force_login(gm)
    fixed_dice(3, 6, 9)
    client.post(
        url(combat), blow(hero, foe, target_aspect=aspect(hero).pk, target_aspect_use="damage")
    )
    stored = CombatAttack.objects.get()
    assert stored.roll.record["details"]["damage_category"] == "m"
    assert stored.damage["amount"] == 3 + 2
    assert points(foe) == 2
    assert points(hero) == 4


def test_the_attacker_uses_the_targets_aspect_against_him_and_hands_him_the_point(
    client, gm, rooftop, fixed_dice
):
    combat, hero, foe = rooftop
    client.force_login(gm)
    fixed_dice(3, 6, 9)
    client.post(url(combat), blow(hero, foe, aspect=aspect(foe).pk))
    assert CombatAttack.objects.get().roll.record["details"]["kept_die"] == "M"
    assert points(hero) == 2
    assert points(foe) == 4


def test_both_sides_activate_and_cancel_out(client, gm, rooftop, fixed_dice):
    combat, hero, foe = rooftop
    client.force_login(gm)
    fixed_dice(3, 6, 9)
    client.post(url(combat), blow(hero, foe, aspect=aspect(hero).pk, target_aspect=aspect(foe).pk))
    assert CombatAttack.objects.get().roll.record["details"]["kept_die"] == "C"
    assert (points(hero), points(foe)) == (2, 2)


@pytest.mark.parametrize(
    ("choices", "message"),
    [
        ({"target_aspect": "own"}, "A Sicario no le quedan puntos dramáticos."),
        ({"aspect": "foe", "pay": "exhaust"}, "Solo puedes agotar tus propios aspectos"),
        ({"aspect": "bystander"}, "Héroe puede activar sus propios aspectos"),
        ({"aspect": "situation:999999"}, "Elige una opción válida"),
    ],
)
def test_an_activation_that_cannot_be_paid_is_refused_and_nothing_is_written(
    client, gm, rooftop, fixed_dice, choices, message
):
    combat, hero, foe = rooftop
    Resource.objects.filter(character=foe, key="drama_points").update(current=0)
    ids = {
        "own": aspect(foe).pk,
        "foe": aspect(foe).pk,
        "bystander": Aspect.objects.get(text="Mirón").pk,
    }
    data = blow(hero, foe, **{key: ids.get(value, value) for key, value in choices.items()})
    client.force_login(gm)
    fixed_dice(3, 6, 9)
    response = client.post(url(combat), data)
    assert response.status_code == 200
    assert message in response.text
    assert not CombatAttack.objects.exists()
    assert not Roll.objects.exists()
    assert (points(hero), points(foe)) == (3, 0)
    assert not Aspect.objects.filter(exhausted=True).exists()


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_runs_the_fight_a_forged_activation_writes_nothing(
    client, request, rooftop, who, status
):
    combat, hero, foe = rooftop
    client.force_login(request.getfixturevalue(who))
    data = blow(hero, foe, aspect=aspect(hero).pk, target_aspect=aspect(foe).pk)
    assert client.post(url(combat), data).status_code == status
    assert not CombatAttack.objects.exists()
    assert (points(hero), points(foe)) == (3, 3)
