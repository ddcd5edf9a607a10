"""A character who dies leaves the turn order of the fight going on, whoever killed it (an
attack the GM applies, damage from the sheet, a round's bleeding), and a fight started in a
scene leaves its dead out (docs/rules.md#shared-dead-fighters)."""

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.models import CombatAttack
from mechanics.services import combat as combat_services
from mechanics.services.health import character_apply_damage, health_event_undo
from mechanics.systems.base import DamageInput
from tests.factories import make_character
from tests.html import parse
from tests.mechanics.rolling import FixedDice

pytestmark = pytest.mark.django_db

KILL = DamageInput(20, "L")


def url(name, combat, *extra):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk, *extra])


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def barman(campaign, gm):
    ratings = {"fuerza": 4, "armamento": 3, "resistencia": 4, "destreza": 2, "astucia": 2}
    return make_character(campaign, None, name="Camarero", user=gm, ratings=ratings)


@pytest.fixture
def thug(campaign, gm):
    ratings = {"destreza": 3, "pelea": 3, "resistencia": 5, "compostura": 2}
    return make_character(campaign, None, name="Matón", user=gm, ratings=ratings)


@pytest.fixture
def scene(campaign, lucia, barman, thug):
    return services.scene_create(
        campaign=campaign, title="La pelea del bar", participants=[lucia, barman, thug]
    )


@pytest.fixture
def fight(scene, gm):
    """Round 1 of the bar fight: Matón, then Camarero, then Lucía."""
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([1, 6, 9]))
    combat.refresh_from_db()
    return combat


def _turns(combat, count):
    """(round, name) of whose turn it is, `count` turns from now."""
    seen = []
    for _turn in range(count):
        combat.refresh_from_db()
        seen.append((combat.round, combat.current.character.name))
        combat_services.combat_next_turn(combat=combat)
    return seen


def test_a_character_killed_in_the_fight_leaves_the_turn_order(gm, fight, barman):
    character_apply_damage(character=barman, user=gm, damage=KILL, scene=fight.scene)
    assert not fight.participants.get(character=barman).active
    assert _turns(fight, 4) == [(1, "Matón"), (1, "Lucía"), (2, "Matón"), (2, "Lucía")]


def test_the_turn_passes_on_when_the_one_playing_dies(gm, fight, thug):
    assert fight.current.character == thug
    character_apply_damage(character=thug, user=gm, damage=KILL, scene=fight.scene)
    fight.refresh_from_db()
    assert fight.current.character.name == "Camarero"
    assert fight.round == 1


def test_an_attack_the_gm_applies_takes_the_dead_out(client, gm, fight, thug, barman):
    pending = CombatAttack.objects.create(
        combat=fight,
        round=1,
        attacker=thug,
        target=barman,
        attacker_name=thug.name,
        target_name=barman.name,
        hit=True,
        damage={"amount": 20, "damage_type": "L"},
        damage_text="20 L",
        status="pending",
    )
    client.force_login(gm)
    response = client.post(url("combat_apply", fight, pending.pk), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = parse(response.content.decode())
    row = page.one(id=f"fighter-{fight.participants.get(character=barman).pk}")
    assert "Fuera del combate" in row.text()
    # Not a target nor an attacker any more.
    attacker_choices = [o.text() for o in page.one("select", name="attacker").find_all("option")]
    target_choices = [o.text() for o in page.one("select", name="target").find_all("option")]
    assert "Camarero" not in attacker_choices + target_choices
    assert "Lucía" in target_choices


def test_the_dead_stay_out_when_the_gm_undoes_the_killing_blow_and_may_come_back(gm, fight, barman):
    event = character_apply_damage(character=barman, user=gm, damage=KILL, scene=fight.scene)
    health_event_undo(character=barman, user=gm, expected=event.pk)
    assert not fight.participants.get(character=barman).active
    combat_services.combat_add_participants(combat=fight, characters=[barman])
    assert fight.participants.get(character=barman).active


def test_a_fight_leaves_the_dead_of_the_scene_out(gm, scene, barman, thug, lucia):
    character_apply_damage(character=barman, user=gm, damage=KILL)
    combat = combat_services.combat_start(scene=scene, user=gm)
    assert {p.character.name for p in combat.participants.all()} == {"Matón", "Lucía"}


def test_a_fighter_a_new_round_kills_loses_its_turn(gm, fight, thug, barman, monkeypatch):
    """A new round's wounds (3d6 + NdP bleeding) may kill the one who plays first in it."""
    combat_rules = fight.scene.campaign.game_system.combat

    def bleed_to_death(combat, participants, user):
        character_apply_damage(character=thug, user=user, damage=KILL, scene=combat.scene)
        return [thug.name]

    combat_services.combat_next_turn(combat=fight, user=gm)
    combat_services.combat_next_turn(combat=fight, user=gm)
    monkeypatch.setattr(combat_rules, "new_round", bleed_to_death)
    after = combat_services.combat_next_turn(combat=fight, user=gm)
    fight.refresh_from_db()
    assert (after.round, after.current) == (fight.round, fight.current)
    assert (fight.round, fight.current.character) == (2, barman)
    assert after.bled == ["Matón"]
    assert not fight.participants.get(character=thug).active


def test_watchers_and_strangers_see_the_dead_out_of_the_fight(
    client, gm, player, stranger, fight, barman
):
    character_apply_damage(character=barman, user=gm, damage=KILL, scene=fight.scene)
    row_id = f"fighter-{fight.participants.get(character=barman).pk}"
    for user in (gm, player):
        client.force_login(user)
        page = parse(client.get(fight.get_absolute_url()).content.decode())
        assert "Fuera del combate" in page.one(id=row_id).text()
    client.force_login(stranger)
    assert client.get(fight.get_absolute_url()).status_code == 404
