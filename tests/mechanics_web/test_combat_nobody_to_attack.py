"""With one fighter left in the fight (the others dead or taken out) the combat panel says
there is nobody to attack, instead of an attack set-up whose target can only be refused
("Este campo es obligatorio" before the GM touched anything); a forged attack stores
nothing."""

import pytest

from campaigns import services
from mechanics.models import CombatAttack, Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

NOBODY = "Nadie a quien atacar"


@pytest.fixture
def fight(gm, player):
    campaign = campaign_with("tinieblas", gm, players=[player])
    lucia = make_character(campaign, player, name="Lucía", ratings={"destreza": 3, "pelea": 2})
    thug = make_character(campaign, None, user=gm, name="Matón", ratings={"destreza": 2})
    scene = services.scene_create(campaign=campaign, title="El bar", participants=[lucia, thug])
    combat = combat_services.combat_start(scene=scene, user=gm)
    return combat, lucia, thug


def _attack_url(combat):
    return combat.get_absolute_url().rstrip("/") + "/attack/"


def test_two_fighters_get_the_attack_set_up(client, gm, fight):
    combat, _lucia, _thug = fight
    client.force_login(gm)
    page = parse(client.get(combat.get_absolute_url()).text)
    assert page.find_all(id="combat-no-attack") == []
    assert page.one(id="combat-attack").find_all("select", name="target")


def test_one_fighter_left_is_told_there_is_nobody_to_attack(client, gm, fight):
    combat, _lucia, thug = fight
    combat_services.combat_remove_participant(participant=combat.participants.get(character=thug))
    client.force_login(gm)
    page = parse(client.get(combat.get_absolute_url()).text)
    section = page.one(id="combat-attack")
    assert section.one(id="combat-no-attack").text().startswith(NOBODY)
    assert section.find_all("form") == []
    assert "obligatorio" not in section.text()


def test_a_forged_attack_with_one_fighter_stores_nothing(client, gm, fight):
    combat, lucia, thug = fight
    combat_services.combat_remove_participant(participant=combat.participants.get(character=thug))
    client.force_login(gm)
    response = client.post(_attack_url(combat), {"attacker": lucia.pk, "target": thug.pk})
    assert response.status_code == 200
    assert NOBODY in response.text
    assert not CombatAttack.objects.exists()
    assert not Roll.objects.exclude(label="Iniciativa").exists()


@pytest.mark.parametrize(("who", "status"), [("player", 200), ("stranger", 404)])
def test_watchers_see_no_attack_section_and_strangers_no_panel(client, fight, request, who, status):
    combat, _lucia, thug = fight
    combat_services.combat_remove_participant(participant=combat.participants.get(character=thug))
    client.force_login(request.getfixturevalue(who))
    response = client.get(combat.get_absolute_url())
    assert response.status_code == status
    assert NOBODY not in response.text
