"""Hitos roll panel: an attack aimed at a character of the campaign takes the target's
Defensa as its difficulty and the highest RD of its armours, and joins the fight in
progress in the roll's scene, where its damage waits for the GM like the combat panel's
(docs/rules.md#hitos-roll-panel-attacks)."""

import html
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import services
from characters.models import Item
from mechanics.models import CombatAttack, HealthEvent, Roll
from mechanics.rules.errors import RuleError
from mechanics.services import combat as combat_services
from mechanics.setup import load_sheets
from mechanics.systems.registry import get_system
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url
from tests.mechanics_web.rolls import hitos_rooftop_fight

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def rooftop(gm, player, dora, observer):
    campaign = campaign_with("hitos", gm, players=[player, dora], observers=[observer])
    # 4 points leave the Sicario Sano; armours never add: the highest RD, 2, counts.
    return hitos_rooftop_fight(campaign, gm, player, armours=(("Chaleco", 2), ("Casco", 1)))


def apply_url(attack):
    scene = attack.combat.scene
    return reverse(
        "mechanics:combat_apply", args=[scene.campaign_id, scene.pk, attack.combat_id, attack.pk]
    )


def blow(target, **extra):
    # Reflejos 4 + Combate 4; weapon C; melee damage bonus (4 + 4) / 4 = 2.
    return {
        "kind": "attack",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "30",
        "modifier": "0",
        "weapon": "central",
        "attack_range": "melee",
        "target": str(target.pk),
        "target_state": "normal",
        **extra,
    }


def lost(character):
    character.refresh_from_db()
    return character.health.get("lost", 0)


def nothing_written():
    return not Roll.objects.exists() and not CombatAttack.objects.exists()


def test_the_odds_use_the_targets_defensa_and_armour_not_the_typed_numbers(client, player, rooftop):
    _combat, hero, foe = rooftop
    client.force_login(player)
    odds = client.get(
        roll_url(hero), {**blow(foe, target_rd="9"), "part": "odds"}, HTTP_HX_REQUEST="true"
    ).text
    assert "Defensa de Sicario: 7, la dificultad." in odds
    assert "− RD 2" in odds
    assert "armadura de Sicario" in odds
    # 8 + the central die against 7 always hits (the typed 30 is not used).
    assert rolling.odds_values(odds)["success"] == pytest.approx(1)


def test_the_panel_offers_the_campaigns_other_characters_as_targets(client, player, rooftop):
    _combat, hero, _foe = rooftop
    client.force_login(player)
    page = parse(client.get(roll_url(hero), {"kind": "attack"}, HTTP_HX_REQUEST="true").text)
    names = page.one("select", name="target").text()
    assert "Sicario" in names
    assert "Héroe" not in names


def test_a_players_hit_waits_for_the_gm_who_applies_it_to_the_target(
    client, gm, player, rooftop, fixed_dice
):
    combat, hero, foe = rooftop
    client.force_login(player)
    fixed_dice(3, 4, 9)  # C 4: damage 4 + 2 − RD 2 = 4
    response = client.post(roll_url(hero), blow(foe), HTTP_HX_REQUEST="true")
    assert "Héroe alcanza a Sicario: el daño espera al máster en el panel de combate." in (
        response.text
    )
    attack = CombatAttack.objects.get()
    assert (attack.combat_id, attack.attacker_id, attack.target_id) == (combat.pk, hero.pk, foe.pk)
    assert attack.status == CombatAttack.Status.PENDING
    assert attack.damage["amount"] == 4
    roll = Roll.objects.get()
    assert attack.roll == roll
    assert roll.scene_id == combat.scene_id
    assert roll.record["details"]["target"]["character"] == foe.pk
    assert roll.record["details"]["defensa"] == 7
    assert lost(foe) == 0
    # The GM sees it in the combat panel's pending list and applies it.
    client.force_login(gm)
    panel = parse(client.get(combat.get_absolute_url()).text)
    assert panel.one(id=f"attack-{attack.pk}")
    client.post(apply_url(attack))
    attack.refresh_from_db()
    assert attack.status == CombatAttack.Status.APPLIED
    assert lost(foe) == 4
    assert HealthEvent.objects.get(character=foe).scene_id == combat.scene_id


@pytest.mark.parametrize("who", ["gm", "player"])
def test_an_attacks_answer_is_up_to_date_so_the_live_reload_keeps_its_words(
    client, request, rooftop, fixed_dice, who
):
    """The attack wrote to the campaign (the fight, the roll): the panel it answers with
    carries the versions it left, so the live reload that change sends finds the panel up
    to date (204) instead of drawing it again without the attack's words."""
    _combat, hero, foe = rooftop
    client.force_login(request.getfixturevalue(who))
    fixed_dice(3, 4, 9)
    answer = client.post(roll_url(hero), blow(foe), HTTP_HX_REQUEST="true")
    assert "Héroe alcanza a Sicario" in answer.text
    [since] = re.findall(r'"X-Cronica-Since": "([^"]+)"', html.unescape(answer.text))
    reload = client.get(
        roll_url(hero), blow(foe), HTTP_HX_REQUEST="true", HTTP_X_CRONICA_SINCE=since
    )
    assert reload.status_code == 204


def test_the_player_may_not_apply_the_damage_of_their_own_attack(
    client, player, rooftop, fixed_dice
):
    _combat, hero, foe = rooftop
    client.force_login(player)
    fixed_dice(3, 4, 9)
    # Without JavaScript: POST/redirect/GET, with where the damage went as a message.
    page = client.post(roll_url(hero), blow(foe), follow=True).text
    assert "el daño espera al máster en el panel de combate" in page
    attack = CombatAttack.objects.get()
    assert client.post(apply_url(attack)).status_code == 403
    attack.refresh_from_db()
    assert attack.is_pending
    assert lost(foe) == 0


def test_the_gm_attacks_the_players_character_with_the_npc(client, gm, rooftop, fixed_dice):
    _combat, hero, foe = rooftop
    client.force_login(gm)
    fixed_dice(9, 9, 9)  # Reflejos 1 + Combate 1 + 9 = 11 against Héroe's Defensa 13
    client.post(roll_url(foe), blow(hero))
    attack = CombatAttack.objects.get()
    assert (attack.attacker_id, attack.target_id, attack.hit) == (foe.pk, hero.pk, False)
    assert attack.status == CombatAttack.Status.NO_DAMAGE


def test_a_miss_leaves_nothing_to_apply_and_says_so(client, player, rooftop, fixed_dice):
    _combat, hero, foe = rooftop
    client.force_login(player)
    fixed_dice(1, 1, 1)  # 1 + 8 = 9 against Defensa 7 + 4 in total defence
    response = client.post(
        roll_url(hero), blow(foe, target_state="total_defence"), HTTP_HX_REQUEST="true"
    )
    assert "Héroe falla contra Sicario." in response.text
    assert CombatAttack.objects.get().status == CombatAttack.Status.NO_DAMAGE


@pytest.mark.parametrize(("who", "status"), [("dora", 403), ("observer", 403), ("stranger", 404)])
def test_others_cannot_attack_with_the_heros_sheet(client, request, rooftop, who, status):
    _combat, hero, foe = rooftop
    client.force_login(request.getfixturevalue(who))
    assert client.post(roll_url(hero), blow(foe)).status_code == status
    assert nothing_written()


def test_a_forged_target_of_another_campaign_is_refused_and_nothing_is_written(
    client, gm, player, rooftop
):
    _combat, hero, _foe = rooftop
    elsewhere = campaign_with("hitos", gm, players=[player])
    stranger_npc = make_character(elsewhere, None, user=gm, name="Forastero")
    client.force_login(player)
    response = client.post(roll_url(hero), blow(stranger_npc), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Objetivo: Elige una opción válida." in response.text
    assert nothing_written()


def test_without_a_fight_in_the_scene_the_attack_is_refused_with_the_reason(
    client, gm, player, rooftop
):
    combat, hero, foe = rooftop
    combat_services.combat_end(combat=combat, user=gm)
    client.force_login(player)
    response = client.post(roll_url(hero), blow(foe), HTTP_HX_REQUEST="true")
    assert "y no hay ninguno" in response.text
    assert not CombatAttack.objects.exclude(combat=combat).exists()
    assert not Roll.objects.filter(kind="attack").exists()


def test_a_target_outside_the_fight_is_refused_and_nothing_is_written(client, gm, player, rooftop):
    _combat, hero, _foe = rooftop
    bystander = make_character(hero.campaign, None, user=gm, name="Testigo")
    client.force_login(player)
    response = client.post(roll_url(hero), blow(bystander), HTTP_HX_REQUEST="true")
    assert "Testigo no participa en el combate de esta escena." in response.text
    assert nothing_written()


def test_an_attack_on_a_character_cannot_be_secret(client, gm, rooftop):
    _combat, hero, foe = rooftop
    client.force_login(gm)
    response = client.post(roll_url(hero), blow(foe, secret="on"), HTTP_HX_REQUEST="true")
    assert "no puede ser secreta" in response.text
    assert nothing_written()


def test_without_a_target_the_typed_difficulty_and_rd_count_and_no_fight_is_touched(
    client, player, rooftop, fixed_dice
):
    _combat, hero, foe = rooftop
    client.force_login(player)
    fixed_dice(3, 6, 9)
    client.post(roll_url(hero), {**blow(foe), "target": "", "difficulty": "12", "target_rd": "1"})
    roll = Roll.objects.get()
    assert roll.outcome == "success"
    assert roll.record["effects"]["damage"] == 6 + 2 - 1
    assert not CombatAttack.objects.exists()


def test_the_gm_keeps_armours_with_their_rd_on_a_hitos_sheet(client, gm, player, rooftop):
    _combat, hero, _foe = rooftop
    add = reverse("characters:item_add", args=[hero.campaign_id, hero.pk])
    armour = {"kind": "armour", "armour-name": "Cuero", "armour-weight_kg": "3", "armour-rd": "1"}
    client.force_login(player)
    assert client.post(add, armour).status_code == 403
    client.force_login(gm)
    client.post(add, armour)
    assert Item.objects.get(character=hero).data == {"rd": 1}
    page = parse(client.get(hero.get_absolute_url()).text)
    assert "RD 1" in page.one(id="equipment").text()
    bad = client.post(add, {**armour, "armour-rd": "-1"}, HTTP_HX_REQUEST="true")
    assert Item.objects.filter(character=hero).count() == 1
    assert bad.status_code == 200


def test_the_combat_panel_takes_the_rd_from_the_targets_armour_unless_typed(
    client, gm, rooftop, fixed_dice
):
    combat, hero, foe = rooftop
    scene = combat.scene
    url = reverse("mechanics:combat_attack", args=[scene.campaign_id, scene.pk, combat.pk])
    attack = {
        "attacker": hero.pk,
        "target": foe.pk,
        "characteristic": "reflejos",
        "skill": "combate",
        "weapon": "central",
        "attack_range": "melee",
        "target_state": "normal",
    }
    client.force_login(gm)
    fixed_dice(3, 4, 9)
    client.post(url, attack)
    fixed_dice(3, 4, 9)
    client.post(url, {**attack, "target_rd": "0"})
    amounts = [a.damage["amount"] for a in CombatAttack.objects.order_by("pk")]
    assert amounts == [4 + 2 - 2, 4 + 2]


def rolled_attack(hero, foe, combat):
    """The attack the roll panel's plan rolls with dice 3, 4, 9 (damage 4)."""
    sheet = load_sheets([hero], hero.campaign, with_scene=False)[hero.pk]
    sheet.scene = combat.scene
    plan = hero.campaign.game_system.roll_setup.plan(
        sheet, {**blow(foe), "difficulty": 30, "modifier": 0, "target": foe.pk}
    )
    assert plan.extra["target"] == foe
    [side] = plan.roll(rolling.FixedDice((3, 4, 9)))
    return hero.campaign.game_system.combat.attack_from_roll(side)


def test_the_service_stores_the_attack_with_the_scenes_fight_and_waits_for_the_gm(
    gm, player, rooftop
):
    combat, hero, foe = rooftop
    attack = combat_services.scene_attack_record(
        scene=combat.scene,
        user=player,
        attacker=hero,
        target=foe,
        attack=rolled_attack(hero, foe, combat),
    )
    assert (attack.combat, attack.status, attack.damage["amount"]) == (
        combat,
        CombatAttack.Status.PENDING,
        4,
    )
    assert lost(foe) == 0
    combat_services.combat_attack_apply(attack=attack, user=gm)
    assert lost(foe) == 4


def test_the_service_refuses_a_scene_without_a_fight_and_writes_nothing(player, rooftop):
    combat, hero, foe = rooftop
    other = services.scene_create(campaign=hero.campaign, title="Calle", participants=[hero, foe])
    attack = rolled_attack(hero, foe, combat)
    with pytest.raises(ValidationError, match="no hay ninguno"):
        combat_services.scene_attack_record(
            scene=other, user=player, attacker=hero, target=foe, attack=attack
        )
    with pytest.raises(ValidationError, match="no hay ninguno"):
        combat_services.scene_attack_record(
            scene=None, user=player, attacker=hero, target=foe, attack=attack
        )
    assert nothing_written()


def test_a_hitos_sheet_keeps_plain_items_and_armours_and_refuses_other_stats():
    system = get_system("hitos")
    assert system.clean_item("armour", "Cota", 10, {"rd": 3}) == {"rd": 3}
    assert system.clean_item("item", "Cuerda", 1, {}) == {}
    for kind, data in (("weapon", {}), ("armour", {"rd": 1, "part": "torso"}), ("item", {"a": 1})):
        with pytest.raises(ValidationError):
            system.clean_item(kind, "Cosa", 1, data)
    with pytest.raises(RuleError):
        system.clean_item("armour", "Cota", 10, {"rd": -1})
