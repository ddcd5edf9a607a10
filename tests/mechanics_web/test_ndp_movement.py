"""3d6 + NdP movement in the combat panel (docs/rules.md#ndp-movement): 1 m free, 6 m
without attacking, 18 m with a Correr roll against the adversity the GM gives (a failed
roll still covers 6 m); half when overloaded, none at twice the maximum load."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import services
from characters.services import item_add
from mechanics import combat as rules
from mechanics.models import Combat, CombatAttack, CombatParticipant, Roll
from mechanics.services import combat as combat_services
from mechanics.setup import load_sheets
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def road(gm, player, dora, observer):
    campaign = campaign_with("ndp", gm, players=[player, dora], observers=[observer])
    bandit = make_character(campaign, player, name="Bandido", ratings={"correr": 2, "pelea": 2})
    knight = make_character(campaign, None, user=gm, name="Caballero", ratings={"esquivar": 1})
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[bandit, knight])
    combat = combat_services.combat_start(scene=scene, user=gm)
    Combat.objects.filter(pk=combat.pk).update(round=1)
    combat.refresh_from_db()
    return combat, bandit, knight


def url(name, combat):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk])


def moved(combat, character):
    return CombatParticipant.objects.get(combat=combat, character=character).moved_m


def move(client, combat, character, metres, adversity=""):
    data = {"move-fighter": character.pk, "move-metres": metres, "move-adversity": adversity}
    return client.post(url("combat_move", combat), data, HTTP_HX_REQUEST="true")


def punch(bandit, knight):
    return {
        "attacker": bandit.pk,
        "target": knight.pk,
        "skill": "pelea",
        "dice": "3",
        "damage": "1d4",
        "damage_type": "contundente",
        "part": "torso",
        "defence": "",
        "adversity": "5",
    }


def test_the_gm_sees_the_move_form(client, gm, road):
    combat, _bandit, _knight = road
    client.force_login(gm)
    page = parse(client.get(url("combat_detail", combat)).text)
    assert page.one("input", name="move-metres")
    assert "1 m gratis, 6 m sin atacar, 18 m con tirada de Correr" in page.text()


def test_one_metre_is_free_and_the_attack_follows(client, gm, road, fixed_dice):
    combat, bandit, knight = road
    client.force_login(gm)
    assert "Bandido se mueve: 1 m en este asalto." in move(client, combat, bandit, 1).text
    fixed_dice(6, 6, 6, 1, 1, 1, 4)
    client.post(url("combat_attack", combat), punch(bandit, knight))
    assert CombatAttack.objects.exists()
    assert not Roll.objects.filter(kind="check").exists()


def test_six_metres_leave_no_attack_and_nothing_is_stored(client, gm, road):
    combat, bandit, knight = road
    client.force_login(gm)
    move(client, combat, bandit, 6)
    assert moved(combat, bandit) == 6
    shown = client.get(url("combat_attack", combat), punch(bandit, knight), HTTP_HX_REQUEST="true")
    assert "Bandido se ha movido 6 m en este asalto" in shown.text
    response = client.post(url("combat_attack", combat), punch(bandit, knight))
    assert "más de 1 m no deja atacar" in response.text
    assert not CombatAttack.objects.exists()
    assert not Roll.objects.exists()


def test_after_an_attack_only_one_metre_more(client, gm, road, fixed_dice):
    combat, bandit, knight = road
    client.force_login(gm)
    fixed_dice(6, 6, 6, 1, 1, 1, 4)
    client.post(url("combat_attack", combat), punch(bandit, knight))
    assert "solo 1 m más" in move(client, combat, bandit, 3).text
    assert moved(combat, bandit) == 0
    move(client, combat, bandit, 1)
    assert moved(combat, bandit) == 1


def test_eighteen_metres_take_a_correr_roll(client, gm, road, fixed_dice):
    combat, bandit, _knight = road
    client.force_login(gm)
    response = move(client, combat, bandit, 18)
    assert "pide una tirada de Correr" in response.text
    assert 'value="18"' in response.text  # what the GM typed stays
    assert moved(combat, bandit) == 0
    fixed_dice(5, 5, 5)
    assert "Bandido corre: 18 m" in move(client, combat, bandit, 18, "9").text
    roll = Roll.objects.get()
    assert roll.record["spec"]["skill"] == "correr"
    assert roll.character == bandit
    assert moved(combat, bandit) == 18


def test_a_failed_correr_roll_still_covers_six_metres(client, gm, road, fixed_dice):
    combat, bandit, _knight = road
    client.force_login(gm)
    fixed_dice(1, 1, 1)
    assert "falla la tirada de Correr: 6 m" in move(client, combat, bandit, 12, "9").text
    assert moved(combat, bandit) == 6


def test_moves_add_up_in_a_round_and_start_again_the_next(client, gm, road):
    combat, bandit, _knight = road
    client.force_login(gm)
    move(client, combat, bandit, 4)
    move(client, combat, bandit, 2)
    assert moved(combat, bandit) == 6
    assert "pide una tirada de Correr" in move(client, combat, bandit, 1).text
    Combat.objects.filter(pk=combat.pk).update(round=2)
    move(client, combat, bandit, 1)
    assert moved(combat, bandit) == 1


def test_overloaded_half_as_far_and_immobile_not_at_all(client, gm, road):
    combat, bandit, _knight = road
    anvil = item_add(character=bandit, user=gm, kind="item", name="Yunque", weight_kg=25, data={})
    client.force_login(gm)
    # Fortitud 0: maximum 20 kg; 25 kg is over it: 3 m without a roll, 4 m takes one.
    assert "pide una tirada de Correr" in move(client, combat, bandit, 4).text
    move(client, combat, bandit, 3)
    assert moved(combat, bandit) == 3
    type(anvil).objects.filter(pk=anvil.pk).update(weight_kg=40)
    Combat.objects.filter(pk=combat.pk).update(round=2)
    assert "no puede moverse" in move(client, combat, bandit, 1).text
    assert moved(combat, bandit) == 3


@pytest.mark.parametrize(
    ("who", "status"),
    [("player", 403), ("dora", 403), ("observer", 403), ("stranger", 404)],
)
def test_only_the_gm_moves_fighters_a_forged_move_writes_nothing(
    client, request, road, who, status
):
    combat, bandit, _knight = road
    client.force_login(request.getfixturevalue(who))
    data = {"move-fighter": bandit.pk, "move-metres": 18, "move-adversity": 9}
    assert client.post(url("combat_move", combat), data).status_code == status
    assert moved(combat, bandit) == 0
    assert not Roll.objects.exists()


def test_a_system_without_movement_rules_has_no_move(client, gm, player):
    campaign = campaign_with("objetivo", gm, players=[player])
    fred = make_character(campaign, None, user=gm, name="Fred")
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    assert 'name="move-metres"' not in client.get(url("combat_detail", combat)).text
    response = client.post(url("combat_move", combat), {"move-fighter": fred.pk, "move-metres": 1})
    assert response.status_code == 302
    assert not CombatParticipant.objects.filter(moved_m__gt=0).exists()


def test_the_service_refuses_an_attack_after_a_long_move(gm, road):
    """Checked again with the fight locked: an attack rolled before the move is refused."""
    combat, bandit, knight = road
    sheets = load_sheets([bandit, knight], combat.scene.campaign, with_scene=False)
    data = {**punch(bandit, knight), "dice": 3, "adversity": 5}
    data.update(damage_count=1, damage_sides=4, damage_fixed=0, gracias=0, desgracias=0)
    rolled = rules.roll_attack(sheets[bandit.pk], sheets[knight.pk], data)
    combat_services.combat_move(combat=combat, character=bandit, metres=6, user=gm)
    with pytest.raises(ValidationError, match="no deja atacar"):
        combat_services.combat_attack_record(
            combat=combat, user=gm, attacker=bandit, target=knight, attack=rolled
        )
    assert not CombatAttack.objects.exists()
