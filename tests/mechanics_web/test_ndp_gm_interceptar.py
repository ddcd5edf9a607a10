"""3d6 + NdP: Interceptar in the GM's opposed roll works as in the combat panel: the
intercepting side's shield adds its GdC bonus, and the object used takes the blow (1
integrity) when the defence stops the attack (docs/rules.md#ndp-interceptar)."""

import pytest
from django.urls import reverse

from campaigns import services
from characters.models import Item, SheetChange
from mechanics.models import Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.mechanics import rolling
from tests.mechanics_web.test_ndp_combat import integrity, wear

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(gm, player, dora, observer):
    """The GM's Caballero attacks Bob's Bandido, who intercepts; Dora plays too."""
    campaign = campaign_with("ndp", gm, players=[player, dora], observers=[observer])
    bandit = make_character(campaign, player, name="Bandido", ratings={"interceptar": 2})
    knight = make_character(campaign, None, user=gm, name="Caballero", ratings={"pelea": 4})
    return campaign, bandit, knight


def gm_url(campaign):
    return reverse("mechanics:gm_roll", args=[campaign.pk])


def blow(knight, bandit, **extra):
    return {
        "kind": "opposed",
        "a-character": knight.pk,
        "a-skill": "pelea",
        "a-dice": "3",
        "b-character": bandit.pk,
        "b-skill": "interceptar",
        "b-dice": "3",
        **extra,
    }


def latest(character) -> Roll:
    return Roll.objects.filter(character=character).latest("pk")


def test_interceptar_in_the_gm_roll_adds_the_shields_gdc_and_the_shield_takes_the_blow(
    client, gm, duel, fixed_dice
):
    campaign, bandit, knight = duel
    shield = wear(bandit, "shield", "Escudo redondo", gdc=7, integrity=8)
    client.force_login(gm)
    shown = client.get(gm_url(campaign), blow(knight, bandit), HTTP_HX_REQUEST="true")
    assert "Escudo redondo (GdC 7) +4" in shown.text
    # Attack 3+3+3 + 4 = 13; defence 6+6+6 + 2 + 4 = 24: intercepted.
    fixed_dice(3, 3, 3, 6, 6, 6)
    client.post(gm_url(campaign), blow(knight, bandit))
    defence = latest(bandit)
    assert defence.record["spec"]["bonus"] == 4
    assert defence.result == 24
    assert defence.outcome == "won"
    assert integrity(shield) == 7
    assert SheetChange.objects.filter(character=bandit, new_value="7").exists()
    applied = [a for a in defence.record["details"]["applied"] if a["what"] == "integrity"]
    assert [(a["old"], a["new"]) for a in applied] == [(8, 7)]


def test_a_failed_interception_leaves_the_shield_whole(client, gm, duel, fixed_dice):
    campaign, bandit, knight = duel
    shield = wear(bandit, "shield", "Escudo redondo", gdc=1, integrity=8)
    client.force_login(gm)
    # Attack 6+6+6 + 4 = 22; defence 1+1+1 + 2 + 1 = 6: the blow gets through.
    fixed_dice(6, 6, 6, 1, 1, 1)
    client.post(gm_url(campaign), blow(knight, bandit))
    assert latest(bandit).outcome == "lost"
    assert latest(bandit).record["spec"]["bonus"] == 1
    assert integrity(shield) == 8


def test_interceptar_without_a_shield_wears_the_weapon_with_no_bonus(client, gm, duel, fixed_dice):
    campaign, bandit, knight = duel
    dagger = wear(bandit, "weapon", "Daga", sides=4, damage_type="cortante", integrity=5)
    client.force_login(gm)
    fixed_dice(3, 3, 3, 6, 6, 6)
    client.post(gm_url(campaign), blow(knight, bandit))
    assert latest(bandit).record["spec"]["bonus"] == 0
    assert integrity(dagger) == 4


def test_another_skill_takes_no_shield_bonus_and_wears_nothing(client, gm, duel, fixed_dice):
    campaign, bandit, knight = duel
    shield = wear(bandit, "shield", "Escudo redondo", gdc=7, integrity=8)
    client.force_login(gm)
    fixed_dice(3, 3, 3, 6, 6, 6)
    client.post(gm_url(campaign), blow(knight, bandit, **{"b-skill": "esquivar"}))
    assert latest(bandit).record["spec"]["bonus"] == 0
    assert latest(bandit).outcome == "won"
    assert integrity(shield) == 8


@pytest.mark.parametrize(
    ("who", "status"), [("player", 403), ("dora", 403), ("observer", 403), ("stranger", 404)]
)
def test_only_the_gm_rolls_it_a_forged_one_wears_nothing(client, request, duel, who, status):
    campaign, bandit, knight = duel
    shield = wear(bandit, "shield", "Escudo redondo", gdc=7, integrity=8)
    client.force_login(request.getfixturevalue(who))
    assert client.post(gm_url(campaign), blow(knight, bandit)).status_code == status
    assert not Roll.objects.exists()
    assert integrity(shield) == 8
    assert Item.objects.get(pk=shield.pk).data["integrity"] == 8


def test_the_combat_panel_counts_the_shield_once_in_its_odds(client, gm, duel):
    """The combat panel's defence data goes through the opposed roll's odds too: the
    shield's bonus is not added a second time there."""
    campaign, bandit, knight = duel
    wear(bandit, "shield", "Escudo redondo", gdc=7, integrity=8)
    wear(knight, "weapon", "Espada larga", sides=8, damage_type="cortante", integrity=10)
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[knight, bandit])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    data = {
        "attacker": knight.pk,
        "target": bandit.pk,
        "weapon": Item.objects.get(name="Espada larga").pk,
        "defence": "interceptar",
    }
    url = reverse("mechanics:combat_attack", args=[campaign.pk, scene.pk, combat.pk])
    shown = client.get(url, data, HTTP_HX_REQUEST="true").text
    assert "Bandido: 3d6 + 2 + 4" in shown
    assert "+ 2 + 8" not in shown
