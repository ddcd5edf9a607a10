"""Dado objetivo in the combat panel: a revolver "tarda un turno en recargar tras cada
disparo" (docs/rules.md#objetivo-reload), and a destiny point spent on initiative
(docs/rules.md#objetivo-initiative-destiny)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import services
from characters.models import Resource
from mechanics import combat as rules
from mechanics.models import Combat, CombatAttack, CombatParticipant, Roll
from mechanics.services import combat as combat_services
from mechanics.setup import load_sheets
from tests.factories import campaign_with, make_character
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def saloon(gm, player, observer):
    campaign = campaign_with("objetivo", gm, players=[player], observers=[observer])
    fred = make_character(
        campaign,
        player,
        name="Fred",
        ratings={"destreza": 8, "armas_dist": 4, "armas_cc": 3, "resistencia": 8},
    )
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    return combat, fred, foe


def url(name, combat, *extra):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk, *extra])


def shot(fred, foe, **extra):
    return {"attacker": fred.pk, "target": foe.pk, "weapon": "revolver", "distance": "30", **extra}


def to_round(combat, number):
    """Move the fight on to round `number` (initiative rolled in round 1)."""
    Combat.objects.filter(pk=combat.pk).update(round=number)
    combat.refresh_from_db()


def destiny(character, points=None):
    pool = Resource.objects.filter(character=character, key="destiny_points")
    if points is not None:
        pool.update(current=points)
    return pool.get().current


# --- A weapon that takes a turn to reload ------------------------------------------------------


def test_a_revolver_fired_last_round_cannot_fire_again_and_nothing_is_stored(client, gm, saloon):
    combat, fred, foe = saloon
    client.force_login(gm)
    to_round(combat, 1)
    client.post(url("combat_attack", combat), shot(fred, foe))
    assert CombatAttack.objects.get().roll.record["details"]["weapon"] == "revolver"
    to_round(combat, 2)
    # The panel says so before rolling...
    response = client.get(url("combat_attack", combat), shot(fred, foe), HTTP_HX_REQUEST="true")
    assert "El Revolver de Fred está recargando" in response.text
    # ... and a roll anyway is refused with nothing written.
    rolls = Roll.objects.count()
    response = client.post(url("combat_attack", combat), shot(fred, foe))
    assert response.status_code == 200
    assert "tarda un turno en recargar" in response.text
    assert CombatAttack.objects.count() == 1
    assert Roll.objects.count() == rolls
    # The typed choices are still there.
    assert 'value="30"' in response.text


def test_a_revolver_fires_again_after_a_round_reloading(client, gm, saloon):
    combat, fred, foe = saloon
    client.force_login(gm)
    to_round(combat, 1)
    client.post(url("combat_attack", combat), shot(fred, foe))
    to_round(combat, 3)
    client.post(url("combat_attack", combat), shot(fred, foe))
    assert list(CombatAttack.objects.order_by("round").values_list("round", flat=True)) == [1, 3]


def test_a_melee_weapon_needs_no_reloading_after_a_shot(client, gm, saloon):
    combat, fred, foe = saloon
    client.force_login(gm)
    to_round(combat, 1)
    client.post(url("combat_attack", combat), shot(fred, foe))
    to_round(combat, 2)
    client.post(url("combat_attack", combat), shot(fred, foe, weapon="espada", distance=""))
    assert CombatAttack.objects.filter(round=2).exists()
    to_round(combat, 3)
    client.post(url("combat_attack", combat), shot(fred, foe, weapon="espada", distance=""))
    assert CombatAttack.objects.filter(round=3).exists()


def test_the_service_refuses_a_shot_with_a_reloading_weapon(gm, saloon):
    """Checked again under the lock: a roll made before the round changed is refused."""
    combat, fred, foe = saloon
    to_round(combat, 1)
    sheets = load_sheets([fred, foe], combat.scene.campaign, with_scene=False)
    data = {"weapon": "revolver", "distance": 30, "modifier": 0}
    first = rules.roll_attack(sheets[fred.pk], sheets[foe.pk], data)
    combat_services.combat_attack_record(
        combat=combat, user=gm, attacker=fred, target=foe, attack=first
    )
    to_round(combat, 2)
    again = rules.roll_attack(sheets[fred.pk], sheets[foe.pk], data)
    with pytest.raises(ValidationError, match="recargar"):
        combat_services.combat_attack_record(
            combat=combat, user=gm, attacker=fred, target=foe, attack=again
        )
    assert CombatAttack.objects.count() == 1


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_fires_in_the_panel_a_forged_shot_writes_nothing(
    client, request, saloon, who, status
):
    combat, fred, foe = saloon
    to_round(combat, 1)
    client.force_login(request.getfixturevalue(who))
    response = client.post(url("combat_attack", combat), shot(fred, foe))
    assert response.status_code == status
    assert not CombatAttack.objects.exists()
    assert not Roll.objects.exists()


# --- A destiny point spent on initiative -------------------------------------------------------


def fred_row(combat, fred):
    return CombatParticipant.objects.get(combat=combat, character=fred)


def test_the_gm_spends_a_destiny_point_on_fred_s_initiative(client, gm, saloon, fixed_dice):
    combat, fred, _foe = saloon
    destiny(fred, 2)
    client.force_login(gm)
    page = client.get(url("combat_detail", combat)).text
    assert "Fred gasta un punto de destino (dado mayor)" in page
    # The foe holds no destiny points: nothing to offer.
    assert "Forajido gasta" not in page
    participant = fred_row(combat, fred)
    # Fred's dice (3, 5, 9): the highest die 9 with the point; the foe's (4, 4, 4) → 4.
    fixed_dice(3, 5, 9, 4, 4, 4)
    client.post(url("combat_initiative", combat), {"spend": [participant.pk]})
    participant.refresh_from_db()
    assert participant.initiative == 8 + 1 + 9  # Destreza 8 + Percepción (at least 1) + 9
    assert participant.initiative_roll.record["effects"]["destiny_points_spent"] == 1
    assert destiny(fred) == 1


def test_without_the_spend_initiative_keeps_the_median_die_and_the_points(
    client, gm, saloon, fixed_dice
):
    combat, fred, _foe = saloon
    destiny(fred, 2)
    client.force_login(gm)
    fixed_dice(3, 5, 9, 4, 4, 4)
    client.post(url("combat_initiative", combat))
    assert fred_row(combat, fred).initiative == 8 + 1 + 5
    assert destiny(fred) == 2


def test_a_point_handed_back_lowers_the_initiative_roll(client, gm, saloon, fixed_dice):
    combat, fred, _foe = saloon
    fred.details["destiny_returned"] = True
    fred.save()
    client.force_login(gm)
    fixed_dice(3, 5, 9, 4, 4, 4)
    client.post(url("combat_initiative", combat))
    assert fred_row(combat, fred).initiative == 8 + 1 + 3
    fred.refresh_from_db()
    assert not fred.details.get("destiny_returned")


def test_a_spend_without_destiny_points_is_refused_and_nothing_is_rolled(client, gm, saloon):
    combat, _fred, foe = saloon
    client.force_login(gm)
    foe_row = fred_row(combat, foe)
    response = client.post(
        url("combat_initiative", combat), {"spend": [foe_row.pk]}, HTTP_HX_REQUEST="true"
    )
    assert "A Forajido no le quedan puntos de destino." in response.text
    assert not Roll.objects.exists()
    assert not CombatParticipant.objects.filter(initiative__isnull=False).exists()


@pytest.mark.parametrize("spend", ["999999", "nadie"])
def test_a_forged_spender_is_refused_and_nothing_is_rolled(client, gm, saloon, spend):
    combat, fred, _foe = saloon
    destiny(fred, 2)
    client.force_login(gm)
    response = client.post(url("combat_initiative", combat), {"spend": [spend]}, follow=True)
    assert response.status_code == 200
    assert not Roll.objects.exists()
    assert destiny(fred) == 2


def test_a_fighter_who_has_rolled_cannot_spend_on_a_later_initiative(gm, saloon):
    combat, fred, foe = saloon
    destiny(fred, 2)
    combat_services.combat_roll_initiative(combat=combat, user=gm)
    CombatParticipant.objects.filter(character=foe).update(initiative=None)
    with pytest.raises(ValidationError):
        combat_services.combat_roll_initiative(
            combat=combat, user=gm, spenders={fred_row(combat, fred).pk}
        )
    assert destiny(fred) == 2


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_rolls_initiative_a_forged_spend_writes_nothing(
    client, request, saloon, who, status
):
    combat, fred, _foe = saloon
    destiny(fred, 2)
    client.force_login(request.getfixturevalue(who))
    if who != "stranger":
        assert "gasta un punto de destino" not in client.get(url("combat_detail", combat)).text
    response = client.post(url("combat_initiative", combat), {"spend": [fred_row(combat, fred).pk]})
    assert response.status_code == status
    assert not Roll.objects.exists()
    assert destiny(fred) == 2
