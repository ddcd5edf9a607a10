"""The combat panel shows no wound penalty beside a fighter who cannot act (unconscious,
dead), as the sheet and the roll panel do not: Objetivo's dead read "Muerto", not "Muerto ·
dado objetivo un nivel por debajo". One who still acts keeps it."""

import pytest

from campaigns import services
from mechanics.services import combat as combat_services
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

RATINGS = {"fuerza": 5, "pelea": 3, "resistencia": 8}


@pytest.fixture
def fight(gm, player):
    campaign = campaign_with("objetivo", gm, players=[player])
    carmen = make_character(campaign, player, name="Carmen", ratings=RATINGS)
    thug = make_character(campaign, None, user=gm, name="Matón", ratings=RATINGS)
    scene = services.scene_create(campaign=campaign, title="El puerto", participants=[carmen, thug])
    combat = combat_services.combat_start(scene=scene, user=gm)
    return combat, carmen, thug


def _health(client, combat, character) -> str:
    page = parse(client.get(combat.get_absolute_url()).text)
    row = page.one(id=f"fighter-{combat.participants.get(character=character).pk}")
    return row.one(class_="combat-health").text()


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize(("amount", "state"), [(40, "Muerto"), (16, "Inconsciente")])
def test_the_felled_have_no_penalty_beside_their_state(
    client, gm, fight, request, who, amount, state
):
    combat, carmen, _thug = fight
    character_apply_damage(character=carmen, user=gm, damage=DamageInput(amount))
    client.force_login(request.getfixturevalue(who))
    health = _health(client, combat, carmen)
    assert health.startswith(state)
    assert "nivel por debajo" not in health


def test_a_wounded_fighter_who_still_acts_keeps_the_lowered_die(client, gm, fight):
    combat, carmen, _thug = fight
    character_apply_damage(character=carmen, user=gm, damage=DamageInput(7))
    client.force_login(gm)
    assert "Incapacitado · dado objetivo un nivel por debajo" in _health(client, combat, carmen)


def test_a_stranger_finds_no_panel(client, stranger, fight):
    combat, _carmen, _thug = fight
    client.force_login(stranger)
    assert client.get(combat.get_absolute_url()).status_code == 404
