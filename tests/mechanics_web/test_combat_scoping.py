"""A fighter or an attack is only found under its own combat: the id of one from another
combat, even in the same campaign where the GM may act, is 404 and changes nothing."""

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.models import CombatAttack, CombatParticipant, HealthEvent
from mechanics.services import combat as combat_services
from tests.factories import make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_fights(campaign, gm):
    """Two scenes of one campaign, each with a fight between two NPCs; the second fight
    has a hit waiting for the GM to apply or discard it."""
    fights = []
    for title in ("La pelea del bar", "La emboscada"):
        first = make_character(campaign, None, name=f"Matón ({title})", user=gm)
        second = make_character(campaign, None, name=f"Camarero ({title})", user=gm)
        scene = services.scene_create(campaign=campaign, title=title, participants=[first, second])
        fights.append(combat_services.combat_start(scene=scene, user=gm))
    here, there = fights
    attacker, target = (fighter.character for fighter in there.participants.all()[:2])
    pending = CombatAttack.objects.create(
        combat=there,
        attacker=attacker,
        target=target,
        attacker_name=attacker.name,
        target_name=target.name,
        hit=True,
        damage={"amount": 2, "damage_type": "B"},
        damage_text="2 B",
        status="pending",
    )
    return here, there, pending


def url(name, combat, *extra):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk, *extra])


@pytest.mark.parametrize("name", ["combat_remove", "combat_phase"])
def test_a_fighter_of_another_combat_is_not_found_under_this_one(client, gm, two_fights, name):
    here, there, _pending = two_fights
    fighter = there.participants.first()
    client.force_login(gm)
    assert client.post(url(name, here, fighter.pk), {"phase": "1"}).status_code == 404
    assert CombatParticipant.objects.get(pk=fighter.pk).combat == there


@pytest.mark.parametrize("name", ["combat_apply", "combat_discard"])
def test_an_attack_of_another_combat_is_not_found_under_this_one(client, gm, two_fights, name):
    here, _there, pending = two_fights
    client.force_login(gm)
    assert client.post(url(name, here, pending.pk)).status_code == 404
    pending.refresh_from_db()
    assert pending.status == "pending"
    assert not HealthEvent.objects.exists()
