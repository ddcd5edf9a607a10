"""Dado objetivo roll panel: an attack aimed at a character of the campaign takes the
difficulty the combat panel would (the target's Defensa, or the range for a shot), and
joins the fight in progress in the roll's scene, where its damage waits for the GM like
the combat panel's (docs/rules.md#objetivo-roll-panel-attacks)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from mechanics.models import CombatAttack, HealthEvent, Roll
from mechanics.services import combat as combat_services
from mechanics.setup import load_sheets
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url
from tests.mechanics_web.rolls import objetivo_tavern_fight

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def tavern(gm, player, dora, observer):
    """(combat, fred, maton): Fred's sword against Matón's Defensa 10 (`objetivo_tavern_fight`)."""
    campaign = campaign_with("objetivo", gm, players=[player, dora], observers=[observer])
    return objetivo_tavern_fight(campaign, gm, player)


def blow(target, **extra):
    """A sword's blow: Fuerza + Armas CC, the Defensa typed far out of reach."""
    return {
        "kind": "attack",
        "attribute": "fuerza",
        "skill": "armas_cc",
        "weapon": "espada",
        "defensa": "30",
        "target": str(target.pk) if target is not None else "",
        **extra,
    }


def cleaned(target, **extra) -> dict:
    """The set-up as the panel's form hands it to the plan."""
    data = {**blow(target, **extra), "defensa": None, "modifier": 0}
    data["target"] = target.pk if target is not None else None
    return data


def plan_for(fred, scene, data):
    sheet = load_sheets([fred], fred.campaign, with_scene=False)[fred.pk]
    sheet.scene = scene
    return fred.campaign.game_system.roll_setup.plan(sheet, data)


def nothing_written():
    return not Roll.objects.exists() and not CombatAttack.objects.exists()


# --- The plan ---------------------------------------------------------------------------


def test_the_plan_takes_the_targets_defensa_as_the_difficulty(tavern):
    combat, fred, maton = tavern
    plan = plan_for(fred, combat.scene, cleaned(maton))
    assert plan.extra["target"] == maton
    assert "Defensa de Matón: 10, la dificultad." in plan.odds.notes
    assert plan.odds.summary.endswith("contra 10")
    [side] = plan.roll(rolling.FixedDice((5, 5, 5, 4)))
    details = side.record.details
    assert details["defensa"] == 10
    assert details["target"] == {"character": maton.pk, "name": "Matón"}
    # The weapon named for the fight's reload check, as the combat panel's attacks do.
    assert details["weapon"] == "espada"
    assert side.record.outcome == "success"


def test_the_plan_follows_the_combat_panel_for_pelea(tavern):
    combat, fred, maton = tavern
    data = cleaned(maton, weapon="pelea", skill="pelea")
    plan = plan_for(fred, combat.scene, data)
    assert "Defensa de Matón: 12, la dificultad." in plan.odds.notes


def test_the_plan_of_a_shot_at_a_target_takes_the_range(tavern):
    combat, fred, maton = tavern
    shot = cleaned(maton, attribute="destreza", skill="armas_dist", weapon="revolver")
    plan = plan_for(fred, combat.scene, {**shot, "distance": 50, "cover": True})
    assert "Disparo a Matón, 50 m, alcance medio, a cubierto: 25, la dificultad." in plan.odds.notes
    [side] = plan.roll(rolling.FixedDice((5, 5, 5, 4)))
    assert side.record.details["defensa"] == 25
    assert side.record.details["shot"] == {"distance": 50, "band": "media", "cover": True}
    # No distance typed: short range, as in the combat panel.
    plan = plan_for(fred, combat.scene, shot)
    assert "Disparo a Matón, alcance corto: 15, la dificultad." in plan.odds.notes


def test_the_plan_refuses_a_character_of_another_campaign(gm, player, tavern):
    combat, fred, _maton = tavern
    elsewhere = campaign_with("objetivo", gm, players=[player])
    stranger_npc = make_character(elsewhere, None, user=gm, name="Forastero")
    with pytest.raises(ValidationError, match="Elige como objetivo a un personaje de esta campaña"):
        plan_for(fred, combat.scene, cleaned(stranger_npc))
    with pytest.raises(ValidationError, match="Elige como objetivo a un personaje de esta campaña"):
        plan_for(fred, combat.scene, cleaned(fred))


def test_the_plan_without_a_target_uses_the_typed_defensa_as_before(tavern):
    combat, fred, _maton = tavern
    plan = plan_for(fred, combat.scene, {**cleaned(None), "defensa": 30})
    assert plan.extra == {}
    assert plan.odds.summary.endswith("contra 30")
    [side] = plan.roll(rolling.FixedDice((5, 5, 5)))
    assert side.record.details["defensa"] == 30
    assert "target" not in side.record.details
    assert "weapon" not in side.record.details
    assert side.record.outcome == "failure"


# --- The roll panel ---------------------------------------------------------------------


def test_the_odds_use_the_targets_defensa_not_the_typed_one(client, player, tavern):
    _combat, fred, maton = tavern
    client.force_login(player)
    odds = client.get(roll_url(fred), {**blow(maton), "part": "odds"}, HTTP_HX_REQUEST="true").text
    assert "Defensa de Matón: 10, la dificultad." in odds
    assert "El daño de un impacto espera al máster en el panel de combate." in odds
    untargeted = client.get(
        roll_url(fred), {**blow(None), "part": "odds"}, HTTP_HX_REQUEST="true"
    ).text
    # Fuerza 6 + Armas CC 3 + the median die: against 10 it nearly always hits, against
    # the 30 typed it hardly ever does.
    assert rolling.odds_values(odds)["success"] > 0.9
    assert rolling.odds_values(untargeted)["success"] < 0.1


def test_the_panel_offers_the_campaigns_other_characters_players_first(
    client, gm, player, dora, tavern
):
    _combat, fred, _maton = tavern
    make_character(fred.campaign, dora, name="Zoe")
    make_character(fred.campaign, None, user=gm, name="Alguacil")
    client.force_login(player)
    page = parse(client.get(roll_url(fred), {"kind": "attack"}, HTTP_HX_REQUEST="true").text)
    options = [o.text() for o in page.one("select", name="target").find_all("option")]
    assert options == ["Nadie: la Defensa escrita", "Zoe", "Alguacil", "Matón"]


@pytest.mark.parametrize("who", ["gm", "player"])
def test_a_hit_waits_for_the_gm_in_the_combat_panel(client, request, gm, tavern, fixed_dice, who):
    combat, fred, maton = tavern
    client.force_login(request.getfixturevalue(who))
    fixed_dice(5, 5, 5, 4)  # 5 + 9 = 14 against Defensa 10; the sword's 1d10: 4
    response = client.post(roll_url(fred), blow(maton), HTTP_HX_REQUEST="true")
    assert "Fred alcanza a Matón: el daño espera al máster en el panel de combate." in (
        response.text
    )
    attack = CombatAttack.objects.get()
    assert (attack.combat_id, attack.attacker_id, attack.target_id) == (
        combat.pk,
        fred.pk,
        maton.pk,
    )
    assert attack.status == CombatAttack.Status.PENDING
    assert attack.damage["amount"] == 4
    roll = Roll.objects.get()
    assert attack.roll == roll
    assert roll.scene_id == combat.scene_id
    assert roll.record["details"]["defensa"] == 10
    assert not HealthEvent.objects.exists()
    # The GM sees it waiting in the combat panel and applies it.
    client.force_login(gm)
    panel = parse(client.get(combat.get_absolute_url()).text)
    assert "−4 PV" in panel.one(id=f"attack-{attack.pk}").text()
    scene = combat.scene
    apply = reverse(
        "mechanics:combat_apply", args=[scene.campaign_id, scene.pk, combat.pk, attack.pk]
    )
    client.post(apply)
    attack.refresh_from_db()
    assert attack.status == CombatAttack.Status.APPLIED
    assert HealthEvent.objects.get(character=maton).scene_id == scene.pk


def test_without_javascript_the_words_come_as_a_message(client, player, tavern, fixed_dice):
    _combat, fred, maton = tavern
    client.force_login(player)
    fixed_dice(5, 5, 5, 4)
    page = client.post(roll_url(fred), blow(maton), follow=True).text
    assert "el daño espera al máster en el panel de combate" in page
    assert CombatAttack.objects.get().is_pending


def test_the_gm_attacks_the_players_character_with_the_npc(client, gm, tavern, fixed_dice):
    _combat, fred, maton = tavern
    client.force_login(gm)
    fixed_dice(2, 2, 2)  # Fuerza 5 + Armas CC 2 + 2 = 9 against Fred's Defensa 5 + 3 + 5
    response = client.post(roll_url(maton), blow(fred), HTTP_HX_REQUEST="true")
    assert "Matón falla contra Fred." in response.text
    attack = CombatAttack.objects.get()
    assert (attack.attacker_id, attack.target_id, attack.hit) == (maton.pk, fred.pk, False)
    assert attack.status == CombatAttack.Status.NO_DAMAGE


@pytest.mark.parametrize(("who", "status"), [("dora", 403), ("observer", 403), ("stranger", 404)])
def test_others_cannot_attack_with_freds_sheet(client, request, tavern, who, status):
    _combat, fred, maton = tavern
    client.force_login(request.getfixturevalue(who))
    assert client.post(roll_url(fred), blow(maton)).status_code == status
    assert nothing_written()


def test_an_attack_on_a_character_cannot_be_secret(client, gm, tavern):
    _combat, fred, maton = tavern
    client.force_login(gm)
    response = client.post(roll_url(fred), blow(maton, secret="on"), HTTP_HX_REQUEST="true")
    assert (
        "Un ataque a un personaje va al combate: su tirada no puede ser secreta." in response.text
    )
    assert nothing_written()


def test_a_forged_target_of_another_campaign_is_refused(client, gm, player, tavern):
    _combat, fred, _maton = tavern
    elsewhere = campaign_with("objetivo", gm, players=[player])
    stranger_npc = make_character(elsewhere, None, user=gm, name="Forastero")
    client.force_login(player)
    response = client.post(roll_url(fred), blow(stranger_npc), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Objetivo: Elige una opción válida." in response.text
    assert nothing_written()


def test_without_a_fight_the_attack_is_refused_with_the_reason(client, gm, player, tavern):
    combat, fred, maton = tavern
    combat_services.combat_end(combat=combat, user=gm)
    client.force_login(player)
    response = client.post(roll_url(fred), blow(maton), HTTP_HX_REQUEST="true")
    assert "y no hay ninguno" in response.text
    assert not Roll.objects.filter(kind="attack").exists()


def test_a_shot_at_a_target_stores_its_range(client, player, tavern, fixed_dice):
    _combat, fred, maton = tavern
    client.force_login(player)
    fixed_dice(5, 5, 5, 4)  # Destreza 5 + Armas Dist 4 + 5 = 14 against medium range 20
    shot = blow(maton, attribute="destreza", skill="armas_dist", weapon="revolver")
    response = client.post(roll_url(fred), {**shot, "distance": "50"}, HTTP_HX_REQUEST="true")
    assert "Fred falla contra Matón." in response.text
    record = Roll.objects.get().record["details"]
    assert (record["defensa"], record["shot"]["band"], record["weapon"]) == (
        20,
        "media",
        "revolver",
    )


def test_without_a_target_the_typed_defensa_counts_and_no_fight_is_touched(
    client, player, tavern, fixed_dice
):
    _combat, fred, _maton = tavern
    client.force_login(player)
    fixed_dice(5, 5, 5, 4)
    client.post(roll_url(fred), {**blow(None), "defensa": "12"})
    roll = Roll.objects.get()
    assert (roll.outcome, roll.record["details"]["defensa"]) == ("success", 12)
    assert roll.record["effects"]["damage"] == 4
    assert not CombatAttack.objects.exists()
    # And it still asks for the Defensa when none is typed.
    response = client.post(roll_url(fred), {**blow(None), "defensa": ""}, HTTP_HX_REQUEST="true")
    assert "Un ataque necesita la Defensa del objetivo." in response.text


def test_the_fights_rules_apply_one_attack_a_round_and_the_revolvers_reload(
    client, gm, player, tavern, fixed_dice
):
    combat, fred, maton = tavern
    client.force_login(player)
    shot = blow(maton, attribute="destreza", skill="armas_dist", weapon="revolver")
    fixed_dice(5, 5, 5, 4)
    client.post(roll_url(fred), shot, HTTP_HX_REQUEST="true")
    assert CombatAttack.objects.count() == 1
    again = client.post(roll_url(fred), blow(maton), HTTP_HX_REQUEST="true")
    assert "Fred ya ha hecho 1 ataque en este asalto." in again.text
    # The next round the revolver is still reloading: the record named the weapon.
    combat_services.combat_roll_initiative(combat=combat, user=gm)
    fixed_dice(5, 5, 5, 4)
    reloading = client.post(roll_url(fred), shot, HTTP_HX_REQUEST="true")
    assert "está recargando" in reloading.text
    assert CombatAttack.objects.count() == 1
    assert Roll.objects.filter(kind="attack").count() == 1
