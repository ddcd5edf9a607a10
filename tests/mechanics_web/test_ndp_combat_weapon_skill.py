"""3d6 + NdP combat panel: a sheet weapon is rolled with its own skill, so the panel's
skill select shows that skill, disabled, instead of a choice the attack ignores."""

import pytest
from django.urls import reverse

from campaigns import services
from characters.models import Item
from characters.services import item_add
from mechanics.models import Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(gm, player):
    return campaign_with("ndp", gm, players=[player])


@pytest.fixture
def archer(campaign, gm):
    archer = make_character(
        campaign, None, user=gm, name="Sigrid", ratings={"combate_c_a_c": 0, "combate_a_dist": 4}
    )
    item_add(
        character=archer,
        user=gm,
        kind="weapon",
        name="Arco corto",
        weight_kg=1,
        data={"sides": 6, "damage_type": "cortante", "integrity": 8, "skill": "combate_a_dist"},
    )
    return archer


@pytest.fixture
def bandit(campaign, player):
    return make_character(campaign, player, name="Bandido", ratings={"esquivar": 1})


@pytest.fixture
def combat(campaign, gm, archer, bandit):
    scene = services.scene_create(campaign=campaign, title="Paso", participants=[archer, bandit])
    return combat_services.combat_start(scene=scene, user=gm)


def attack_url(combat):
    scene = combat.scene
    return reverse("mechanics:combat_attack", args=[scene.campaign_id, scene.pk, combat.pk])


def setup(archer, bandit, **choices) -> dict:
    bow = Item.objects.get(character=archer, name="Arco corto")
    return {
        "attacker": archer.pk,
        "target": bandit.pk,
        "skill": "combate_c_a_c",
        "dice": "3",
        "weapon": str(bow.pk),
        "damage_type": "cortante",
        "limb": "brazo_derecho",
        "part": "torso",
        "defence": "esquivar",
        **choices,
    }


def skill_select(response):
    return parse(response.content).one("select", name="skill")


def test_skill_select_shows_the_chosen_weapons_own_skill_disabled(
    client, gm, combat, archer, bandit
):
    client.force_login(gm)
    response = client.get(attack_url(combat), setup(archer, bandit), headers={"HX-Request": "true"})
    assert response.status_code == 200
    select = skill_select(response)
    assert "disabled" in select.attrs
    assert select.one("option", selected=True).attrs["value"] == "combate_a_dist"
    assert "Arco corto" in parse(response.content).one(id="id_skill_helptext").text()


def test_skill_select_is_a_free_choice_without_a_sheet_weapon(client, gm, combat, archer, bandit):
    client.force_login(gm)
    choices = setup(archer, bandit, weapon="", damage="1d4", skill="pelea")
    response = client.get(attack_url(combat), choices, headers={"HX-Request": "true"})
    select = skill_select(response)
    assert "disabled" not in select.attrs
    assert select.one("option", selected=True).attrs["value"] == "pelea"


def test_attack_with_a_weapon_rolls_the_weapons_skill_whatever_skill_is_sent(
    client, gm, combat, archer, bandit
):
    client.force_login(gm)
    response = client.post(attack_url(combat), setup(archer, bandit))
    assert response.status_code == 302
    roll = Roll.objects.get(character=archer)
    assert roll.record["spec"]["skill"] == "combate_a_dist"


def test_player_may_not_see_the_attack_set_up(client, player, combat, archer, bandit):
    client.force_login(player)
    response = client.get(attack_url(combat), setup(archer, bandit))
    assert response.status_code == 403


def test_stranger_does_not_find_the_attack_set_up(client, stranger, combat, archer, bandit):
    client.force_login(stranger)
    response = client.get(attack_url(combat), setup(archer, bandit))
    assert response.status_code == 404
