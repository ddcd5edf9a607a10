"""3d6 + NdP combat effects on the dice and on the sheets (issue 13, RULES 6): automatic
Desgracias, feint, Interceptar, armour from the sheet, integrity and wounds written back,
overload; and wounds acting on the roll panel's dice."""

import re
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import services
from characters.models import Item, SheetChange
from characters.services import item_add
from mechanics.combat import roll_attack
from mechanics.models import CombatAttack, HealthEvent, Roll
from mechanics.rules.ndp import odds as ndp_odds
from mechanics.rules.ndp.rolls import NdpSpec
from mechanics.services import combat as combat_services
from mechanics.services.health import character_apply_damage
from mechanics.setup import load_sheets
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import FixedDice, odds_values, roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(gm, player):
    campaign = CampaignFactory(system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


@pytest.fixture
def knight(campaign, gm):
    knight = make_character(
        campaign, None, user=gm, name="Caballero", ratings={"combate_c_a_c": 4, "pelea": 3}
    )
    item_add(
        character=knight,
        user=gm,
        kind="weapon",
        name="Espada larga",
        weight_kg=2,
        data={"sides": 8, "damage_type": "cortante", "integrity": 10},
    )
    return knight


@pytest.fixture
def bandit(campaign, player):
    """A player's character: Esquivar 1, Interceptar 2."""
    return make_character(
        campaign, player, name="Bandido", ratings={"esquivar": 1, "interceptar": 2}
    )


@pytest.fixture
def combat(campaign, gm, knight, bandit):
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[knight, bandit])
    return combat_services.combat_start(scene=scene, user=gm)


def url(name, combat, *extra):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk, *extra])


def weapon(character, name="Espada larga") -> Item:
    return Item.objects.get(character=character, name=name)


def integrity(item: Item) -> int:
    item.refresh_from_db()
    return item.data["integrity"]


def wear(character, kind, name, **data):
    return item_add(
        character=character,
        user=character.campaign.created_by,
        kind=kind,
        name=name,
        weight_kg=1,
        data=data,
    )


def sword(knight, bandit, **choices) -> dict:
    return {
        "attacker": knight.pk,
        "target": bandit.pk,
        "skill": "combate_c_a_c",
        "dice": "3",
        "weapon": str(weapon(knight).pk),
        "damage_type": "cortante",
        "limb": "brazo_derecho",
        "part": "torso",
        "defence": "esquivar",
        **choices,
    }


def spec_of(roll: Roll) -> dict:
    return roll.record["spec"]


# --- Desgracias the panel adds by rule ------------------------------------------------------


def test_the_second_attack_in_a_turn_takes_a_desgracia_by_itself(
    client, gm, combat, knight, bandit, fixed_dice
):
    client.force_login(gm)
    fixed_dice(1, 1, 1, 1, 1, 1)
    assert client.post(url("combat_attack", combat), sword(knight, bandit)).status_code == 302
    first = CombatAttack.objects.get()
    assert spec_of(first.roll)["desgracias"] == 0
    response = client.get(url("combat_attack", combat), sword(knight, bandit))
    assert "Segundo ataque del turno −1d4" in response.text
    fixed_dice(1, 1, 1, 1, 1, 1, 1)
    assert client.post(url("combat_attack", combat), sword(knight, bandit)).status_code == 302
    second = CombatAttack.objects.latest("pk")
    assert spec_of(second.roll)["desgracias"] == 1


def test_each_extra_defence_and_a_feint_add_desgracias_to_the_defence(
    client, gm, combat, knight, bandit, fixed_dice
):
    client.force_login(gm)
    fixed_dice(1)
    client.post(url("combat_attack", combat), sword(knight, bandit))
    assert spec_of(CombatAttack.objects.get().defence_roll)["desgracias"] == 0
    fixed_dice(1)
    client.post(url("combat_attack", combat), sword(knight, bandit, feint="on"))
    # One earlier defence this round, and the feint.
    assert spec_of(CombatAttack.objects.latest("pk").defence_roll)["desgracias"] == 2


def test_desgracias_in_the_odds_read_as_dice_taken_away_never_as_bonuses(
    client, gm, combat, knight, bandit, fixed_dice
):
    """A second attack against a second defence after a feint: every Desgracia step says
    the d4 it takes away, as the roll's summary does ("− 1d4"), and none reads "+1"."""
    wear(bandit, "shield", "Rodela", gdc=2, integrity=5)
    client.force_login(gm)
    fixed_dice(1)
    client.post(url("combat_attack", combat), sword(knight, bandit))
    data = sword(knight, bandit, defence="interceptar", feint="on")
    [odds] = parse(client.get(url("combat_attack", combat), data).text).find_all(id="combat-odds")
    shown = odds.text()
    for step in (
        "Segundo ataque del turno −1d4",
        "Defensas anteriores en este asalto −1d4",
        "Finta −1d4",
        "Rodela (GdC 2) +1",
    ):
        assert step in shown
    for bonus in ("Segundo ataque del turno +1", "Finta +1", "asalto +1"):
        assert bonus not in shown


def test_fracturado_and_the_load_show_their_desgracias_as_dice_on_the_players_panel(
    client, player, stranger, bandit
):
    hurt(bandit, "brazo_derecho", times=2)
    wear(bandit, "armour", "Lingotes", part="torso", rd=0, integrity=1)
    Item.objects.filter(name="Lingotes").update(weight_kg=31)  # 11 kg over 20 kg: 2 Desgracias
    data = {"kind": "check", "skill": "correr", "dice": "3", "limb": "brazo_derecho"}
    client.force_login(player)
    shown = parse(
        client.get(roll_url(bandit), {**data, "part": "odds"}, HTTP_HX_REQUEST="true").text
    )
    assert "Desgracias por Fracturado −2d4" in shown.text()
    assert "Desgracias por la carga −2d4" in shown.text()
    assert "+2" not in shown.text()
    client.force_login(stranger)
    assert client.get(roll_url(bandit), data).status_code == 404


def test_a_feint_needs_a_defence_roll(client, gm, combat, knight, bandit):
    client.force_login(gm)
    data = sword(knight, bandit, feint="on", defence="", adversity="10")
    response = client.post(url("combat_attack", combat), data)
    assert response.status_code == 200
    assert "Una finta solo cuenta si el objetivo tira una defensa." in response.text
    assert not Roll.objects.exists()


def _distribution(level: int, dice: int, desgracias: int) -> Counter:
    """3d6 + NdP − Desgracias d4, counted outcome by outcome (no engine code)."""
    counts = Counter()
    for faces in product(range(1, 7), repeat=dice):
        for minus in product(range(1, 5), repeat=desgracias):
            counts[sum(faces) + level - sum(minus)] += 1
    return counts


def test_the_odds_of_a_second_attack_against_a_second_defence_are_exact(
    client, gm, combat, knight, bandit, fixed_dice
):
    client.force_login(gm)
    fixed_dice(1)
    client.post(url("combat_attack", combat), sword(knight, bandit))
    response = client.get(
        url("combat_attack", combat), sword(knight, bandit), HTTP_HX_REQUEST="true"
    )
    shown = odds_values(response.text)
    # Attack: 3d6 + 4 − 1d4 (second attack); defence: 3d6 + 1 − 1d4 (second defence).
    attack, defence = _distribution(4, 3, 1), _distribution(1, 3, 1)
    wins = sum(a * d for x, a in attack.items() for y, d in defence.items() if x > y)
    p_win = Fraction(wins, sum(attack.values()) * sum(defence.values()))
    assert shown["win"] == pytest.approx(float(p_win), abs=1e-12)
    # 1d8 against no armour: 4–7 is a grave wound.
    assert shown["tier_grave"] == pytest.approx(float(p_win * Fraction(4, 8)), abs=1e-12)
    engine = ndp_odds.p_attacker_wins(
        NdpSpec(level=4, desgracias=1), NdpSpec(level=1, desgracias=1)
    )
    assert shown["win"] == engine


# --- Interceptar ----------------------------------------------------------------------------


def test_interceptar_adds_the_shields_gdc_and_the_shield_takes_the_blow(
    client, gm, combat, knight, bandit, fixed_dice
):
    shield = wear(bandit, "shield", "Escudo redondo", gdc=7, integrity=8)
    client.force_login(gm)
    data = sword(knight, bandit, defence="interceptar")
    shown = client.get(url("combat_attack", combat), data)
    assert "Escudo redondo (GdC 7) +4" in shown.text
    # Defence 6+6+6 + 2 + 4 = 24; attack 3+3+3 + 4 = 13: intercepted.
    fixed_dice(6, 6, 6, 3, 3, 3)
    assert client.post(url("combat_attack", combat), data).status_code == 302
    stored = CombatAttack.objects.get()
    assert not stored.hit
    assert spec_of(stored.defence_roll)["bonus"] == 4
    assert stored.defence_roll.record["result"] == 24
    assert integrity(shield) == 7
    assert SheetChange.objects.filter(character=bandit, new_value="7").exists()
    assert integrity(weapon(knight)) == 10


def test_interceptar_without_a_shield_uses_the_weapon_with_no_bonus(
    client, gm, combat, knight, bandit, fixed_dice
):
    dagger = wear(bandit, "weapon", "Daga", sides=4, damage_type="cortante", integrity=5)
    client.force_login(gm)
    fixed_dice(6, 6, 6, 3, 3, 3)
    client.post(url("combat_attack", combat), sword(knight, bandit, defence="interceptar"))
    assert spec_of(CombatAttack.objects.get().defence_roll)["bonus"] == 0
    assert integrity(dagger) == 4


# --- Armour, integrity and wounds written back ----------------------------------------------


def test_example_espada_larga_vs_rd_4_through_the_combat_panel(
    client, gm, combat, knight, bandit, fixed_dice
):
    """Seed: Espada larga 1d8 vs RD 4: a 4 does nothing and costs the weapon 1 integrity;
    an 8 is a grave wound (4). The RD is the helmet worn on the head, not a typed number."""
    helmet = wear(bandit, "armour", "Casco acolchado con anillas", part="cabeza", rd=4, integrity=6)
    client.force_login(gm)
    data = sword(knight, bandit, part="cabeza", defence="", adversity="5")
    assert (
        "Casco acolchado con anillas, RD 4" in client.get(url("combat_attack", combat), data).text
    )
    fixed_dice(5, 5, 5, 4)
    client.post(url("combat_attack", combat), data)
    first = CombatAttack.objects.get()
    assert first.hit
    assert first.damage is None
    assert integrity(weapon(knight)) == 9
    assert integrity(helmet) == 6
    fixed_dice(5, 5, 5, 1, 8)  # the second attack throws its Desgracia d4 before the damage
    client.post(url("combat_attack", combat), data)
    second = CombatAttack.objects.latest("pk")
    assert second.damage == {
        "amount": 8,
        "damage_type": "cortante",
        "rd": 4,
        "part": "cabeza",
        "armour_integrity": 6,
        "critical": "",
    }
    assert "grave" in second.damage_text
    assert integrity(helmet) == 6  # worn with the wound, when the GM applies it
    assert integrity(weapon(knight)) == 9
    combat_services.combat_attack_apply(attack=second, user=gm)
    assert integrity(helmet) == 5
    assert (
        "Contusionado (Cabeza)"
        in get_system("ndp")
        .health_view(type(bandit).objects.get(pk=bandit.pk).health, {}, {}, {})
        .states
    )


def two_waiting_hits(client, gm, combat, knight, bandit, fixed_dice) -> tuple[Item, list]:
    """The knight's sword gets twice through the bandit's Cota de malla (RD 2, integrity
    10): two grave wounds wait for the GM."""
    mail = wear(bandit, "armour", "Cota de malla", part="torso", rd=2, integrity=10)
    client.force_login(gm)
    data = sword(knight, bandit, defence="", adversity="5")
    fixed_dice(5, 5, 5, 8)
    client.post(url("combat_attack", combat), data)
    fixed_dice(5, 5, 5, 1, 8)  # the second attack throws its Desgracia d4 first
    client.post(url("combat_attack", combat), data)
    return mail, list(CombatAttack.objects.order_by("pk"))


def card(html: str, attack: CombatAttack) -> str:
    [pending] = parse(html).find_all(id="combat-pending")
    [found] = pending.find_all(id=f"attack-{attack.pk}")
    return found.text()


def test_waiting_hits_wear_the_armour_only_when_applied_and_say_what_would_be_left(
    client, gm, combat, knight, bandit, fixed_dice
):
    """RULES 3: the armour loses 1 integrity when the damage exceeds its RD, for a blow the
    GM applies; a discarded one wears nothing (docs/rules.md#ndp-write-back-when)."""
    mail, (first, second) = two_waiting_hits(client, gm, combat, knight, bandit, fixed_dice)
    assert [a.status for a in (first, second)] == ["pending", "pending"]
    assert integrity(mail) == 10
    page = client.get(url("combat_detail", combat)).text
    waiting = "Cota de malla pierde 1 de integridad al aplicar el daño (le quedan 9)."
    assert waiting in card(page, first)
    assert waiting in card(page, second)

    client.post(url("combat_apply", combat, first.pk))
    assert integrity(mail) == 9
    first.refresh_from_db()
    assert "Cota de malla pierde 1 de integridad (le quedan 9)." in first.notes_text
    page = client.get(url("combat_detail", combat)).text
    assert "al aplicar el daño (le quedan 8)." in card(page, second)

    response = client.post(url("combat_discard", combat, second.pk), follow=True)
    assert "no se ha aplicado nada" in response.text.lower()
    assert integrity(mail) == 9
    second.refresh_from_db()
    assert not any("Cota de malla" in note for note in second.notes_text)


def test_ending_the_fight_with_hits_waiting_wears_no_armour(
    client, gm, combat, knight, bandit, fixed_dice
):
    mail, _attacks = two_waiting_hits(client, gm, combat, knight, bandit, fixed_dice)
    client.post(url("combat_end", combat))
    assert set(CombatAttack.objects.values_list("status", flat=True)) == {"discarded"}
    assert integrity(mail) == 10


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("stranger", 404)])
def test_only_the_gm_applies_a_waiting_hit_and_wears_the_armour(
    request, client, gm, combat, knight, bandit, fixed_dice, who, status
):
    mail, (first, _second) = two_waiting_hits(client, gm, combat, knight, bandit, fixed_dice)
    client.force_login(request.getfixturevalue(who))
    assert client.post(url("combat_apply", combat, first.pk)).status_code == status
    assert integrity(mail) == 10
    first.refresh_from_db()
    assert first.status == "pending"


def test_a_pelea_blow_stopped_by_armour_wounds_the_attackers_limb(
    client, gm, combat, knight, bandit, fixed_dice
):
    wear(bandit, "armour", "Peto", part="torso", rd=5, integrity=4)
    client.force_login(gm)
    data = {
        "attacker": knight.pk,
        "target": bandit.pk,
        "skill": "pelea",
        "dice": "3",
        "weapon": "",
        "damage": "1d4",
        "damage_type": "contundente",
        "limb": "brazo_izquierdo",
        "part": "torso",
        "defence": "",
        "adversity": "5",
    }
    # Hit; 1d4 rolls 2 against RD 5 halved against contundente (2): nothing gets through.
    fixed_dice(5, 5, 5, 2)
    assert client.post(url("combat_attack", combat), data).status_code == 302
    event = HealthEvent.objects.get(character=knight)
    # Besides what was entered, the codes of the texts the site wrote (campaigns/texts.py).
    assert {k: v for k, v in event.inputs.items() if k != "texts"} == {
        "part": "brazo_izquierdo",
        "tier": "leve",
        "damage_type": "contundente",
    }
    assert event.scene == combat.scene
    assert integrity(weapon(knight)) == 10


def test_an_overloaded_fighter_takes_a_grave_wound_on_each_leg_each_round(
    client, gm, combat, knight, bandit
):
    wear(knight, "item", "Yunque")
    Item.objects.filter(name="Yunque").update(weight_kg=60)  # Fortitud 0: twice 20 kg and more
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([6, 6, 6, 1]))
    client.force_login(gm)
    client.post(url("combat_next", combat))
    response = client.post(url("combat_next", combat), HTTP_HX_REQUEST="true")
    assert "Caballero (sobrecargado)" in response.text
    event = HealthEvent.objects.get(character=knight)
    # Besides what was entered, the codes of the texts the site wrote (campaigns/texts.py).
    assert {k: v for k, v in event.inputs.items() if k != "texts"} == {"overload_turn": 1}
    lines = dict(get_system("ndp").health_view(event.health_after, {}, {}, {}).lines)
    assert lines["Pierna izquierda"] == lines["Pierna derecha"] == "leve 0 · grave 1 · letal 0"


# --- Health on the panel --------------------------------------------------------------------


def fighter_health(html: str, character) -> str:
    """The health line of a fighter's card on the combat panel, in words."""
    return (
        parse(html)
        .one("li", class_="combat-fighter", id=_fighter_id(character))
        .one("div", class_="combat-health")
        .text()
    )


def _fighter_id(character) -> str:
    return f"fighter-{character.combat_participations.get().pk}"


def test_a_wound_without_a_state_reads_wounded_on_the_panel_as_on_the_sheet(
    client, gm, player, stranger, combat, knight, bandit
):
    # One grave cortante on the torso: a wound, but no state (Hemorragia leve takes two).
    character_apply_damage(
        character=bandit, user=gm, damage=DamageInput(4, "cortante", part="torso")
    )
    for user in (gm, player):
        client.force_login(user)
        line = fighter_health(client.get(combat.get_absolute_url()).text, bandit)
        assert line.startswith("Con heridas · Torso leve 0 · grave 1 · letal 0")
        assert "Ileso" not in line
        sheet = parse(client.get(bandit.get_absolute_url()).text)
        assert sheet.one("strong", class_="health-state").text() == "Con heridas"
    client.force_login(gm)
    assert fighter_health(client.get(combat.get_absolute_url()).text, knight).startswith("Ileso")
    client.force_login(stranger)
    assert client.get(combat.get_absolute_url()).status_code == 404
    # The scene's record of the ended fight says it too.
    client.force_login(gm)
    client.post(url("combat_end", combat))
    scene = reverse("campaigns:scene", args=[combat.scene.campaign_id, combat.scene.pk])
    for user in (gm, player):
        client.force_login(user)
        states = parse(client.get(scene).text).one("ul", class_="combat-summary-states").text()
        assert "Bandido : Con heridas" in states
    client.force_login(stranger)
    assert client.get(scene).status_code == 404


# --- Permissions and forged requests --------------------------------------------------------


def test_a_player_cannot_attack_and_nothing_is_worn(client, player, combat, knight, bandit):
    client.force_login(player)
    response = client.post(url("combat_attack", combat), sword(knight, bandit))
    assert response.status_code == 403
    assert not Roll.objects.exists()
    assert integrity(weapon(knight)) == 10


def test_a_stranger_gets_404_and_nothing_is_worn(client, stranger, combat, knight, bandit):
    client.force_login(stranger)
    assert client.post(url("combat_attack", combat), sword(knight, bandit)).status_code == 404
    assert integrity(weapon(knight)) == 10


def test_a_weapon_from_another_sheet_is_refused_and_nothing_is_written(
    client, gm, combat, knight, bandit
):
    dagger = wear(bandit, "weapon", "Daga", sides=4, damage_type="cortante", integrity=5)
    client.force_login(gm)
    response = client.post(url("combat_attack", combat), sword(knight, bandit, weapon=dagger.pk))
    assert response.status_code == 200
    assert parse(response.text).one("div", class_="invalid-feedback")
    assert not Roll.objects.exists()
    assert integrity(dagger) == 5


def test_a_third_attack_is_refused_and_wears_nothing(
    client, gm, combat, knight, bandit, fixed_dice
):
    wear(bandit, "armour", "Peto", part="torso", rd=4, integrity=4)
    client.force_login(gm)
    data = sword(knight, bandit, defence="", adversity="5")
    for _attack in range(2):
        fixed_dice(1)  # 1d8 rolls 1: the weapon wears
        client.post(url("combat_attack", combat), data)
    assert integrity(weapon(knight)) == 8
    fixed_dice(1)
    response = client.post(url("combat_attack", combat), data)
    assert response.status_code == 200
    assert CombatAttack.objects.count() == 2
    assert integrity(weapon(knight)) == 8


def test_an_attack_counted_before_the_fight_moved_on_is_refused_and_wears_nothing(
    gm, combat, knight, bandit
):
    wear(bandit, "armour", "Peto", part="torso", rd=4, integrity=4)
    sword_item = weapon(knight)
    sheets = load_sheets([knight, bandit], combat.scene.campaign, with_scene=False)
    data = {
        **sword(knight, bandit, defence="", adversity=5),
        "damage_type": "cortante",
        "attacks_made": 0,
        "defences_made": 0,
    }
    # A hit whose 1d8 rolls 1 against RD 4: the sword wears.
    first = roll_attack(sheets[knight.pk], sheets[bandit.pk], data, FixedDice([5, 5, 5, 1]))
    assert first.writes
    assert first.counted == (0, 0)
    combat_services.combat_attack_record(
        combat=combat, user=gm, attacker=knight, target=bandit, attack=first
    )
    assert integrity(sword_item) == 9
    with pytest.raises(ValidationError) as refused:
        combat_services.combat_attack_record(
            combat=combat, user=gm, attacker=knight, target=bandit, attack=first
        )
    assert refused.value.code == "stale"
    assert CombatAttack.objects.count() == 1
    assert integrity(sword_item) == 9


# --- Wounds on the roll panel's dice --------------------------------------------------------


def hurt(character, part, times=1):
    for _blow in range(times):
        character_apply_damage(
            character=character,
            user=character.campaign.created_by,
            damage=DamageInput(5, "contundente", part=part),
        )


def words_of(html: str) -> str:
    """The page's words as a reader sees them, spaces between elements included."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_the_fighter_cards_space_each_wounded_part_before_and_after_the_fight(
    client, gm, player, stranger, combat, knight, bandit
):
    hurt(bandit, "brazo_izquierdo")
    hurt(bandit, "brazo_derecho")
    parts = "Brazo izquierdo leve 0 · grave 1 · letal 0 · Brazo derecho leve 0"
    for user in (gm, player):
        client.force_login(user)
        assert parts in words_of(client.get(url("combat_detail", combat)).text)
    client.force_login(gm)
    client.post(url("combat_end", combat))
    for user in (gm, player):
        client.force_login(user)
        assert "letal 0·" not in words_of(client.get(url("combat_detail", combat)).text)
    client.force_login(stranger)
    assert client.get(url("combat_detail", combat)).status_code == 404


def test_a_letal_wound_moved_to_the_torso_is_logged_there_and_death_heads_the_state(
    client, gm, player, stranger, bandit
):
    """Two letal (9, RD 0) on the left arm: the second moves to the torso and kills
    (docs/rules.md#ndp-states); the history names the torso and the headline says death."""
    for _blow in range(2):
        character_apply_damage(
            character=bandit, user=gm, damage=DamageInput(9, "cortante", part="brazo_izquierdo")
        )
    latest = HealthEvent.objects.filter(character=bandit).latest("pk")
    assert latest.summary == "Brazo izquierdo: 9 → letal, herida trasladada a Torso"
    address = reverse("mechanics:health", args=[bandit.campaign_id, bandit.pk])
    history = reverse("mechanics:health_history", args=[bandit.campaign_id, bandit.pk])
    for user in (gm, player):
        client.force_login(user)
        page = client.get(address, HTTP_HX_REQUEST="true").text
        [headline] = parse(page).find_all(class_="health-state")
        assert headline.text() == "Muerte"
        assert "herida trasladada a Torso" in client.get(history).text
    client.force_login(stranger)
    assert client.get(address).status_code == 404


def test_an_unhurt_roller_is_not_asked_for_a_limb_or_a_quick_action(client, player, bandit):
    client.force_login(player)
    page = client.get(roll_url(bandit)).text
    assert 'name="limb"' not in page
    assert 'name="quick"' not in page


def test_fracturado_adds_two_desgracias_when_the_roll_names_that_limb(
    client, player, bandit, fixed_dice
):
    hurt(bandit, "brazo_derecho", times=2)
    client.force_login(player)
    assert 'name="limb"' in client.get(roll_url(bandit)).text
    data = {"kind": "check", "skill": "esquivar", "dice": "3", "adversity": "8"}
    fixed_dice(3)
    client.post(roll_url(bandit), {**data, "limb": "brazo_izquierdo"})
    assert spec_of(Roll.objects.latest("pk"))["desgracias"] == 0
    client.post(roll_url(bandit), {**data, "limb": "ambos_brazos"})
    assert spec_of(Roll.objects.latest("pk"))["desgracias"] == 2
    shown = client.get(
        roll_url(bandit), {**data, "limb": "brazo_derecho", "part": "odds"}, HTTP_HX_REQUEST="true"
    )
    spec = NdpSpec(level=1, desgracias=2, adversity=8, skill="esquivar")
    assert odds_values(shown.text)["success"] == ndp_odds.odds(spec).p_success


def test_contusionado_adds_five_to_the_adversity_of_a_quick_action(
    client, player, bandit, fixed_dice
):
    hurt(bandit, "cabeza")
    client.force_login(player)
    data = {"kind": "check", "skill": "esquivar", "dice": "3", "adversity": "8"}
    fixed_dice(3)
    client.post(roll_url(bandit), data)
    assert spec_of(Roll.objects.latest("pk"))["adversity"] == 8
    client.post(roll_url(bandit), {**data, "quick": "on"})
    assert spec_of(Roll.objects.latest("pk"))["adversity"] == 13


def test_a_contused_defender_defends_five_lower(client, gm, combat, knight, bandit, fixed_dice):
    hurt(bandit, "cabeza")
    client.force_login(gm)
    fixed_dice(4, 4, 4, 1)
    client.post(url("combat_attack", combat), sword(knight, bandit))
    defence = CombatAttack.objects.get().defence_roll
    assert spec_of(defence)["bonus"] == -5
    assert defence.record["result"] == 12 + 1 - 5


def test_switching_the_attacker_offers_its_own_weapons_without_an_error(
    client, gm, combat, knight, bandit
):
    dagger = wear(bandit, "weapon", "Daga", sides=4, damage_type="cortante", integrity=5)
    client.force_login(gm)
    # The GM picks the bandit as attacker while the knight's sword is still selected.
    data = sword(knight, bandit, attacker=bandit.pk, target=knight.pk)
    response = client.get(url("combat_attack", combat), data, HTTP_HX_REQUEST="true")
    page = parse(response.text)
    assert not page.find_all("div", class_="invalid-feedback")
    selected = page.one("select", name="weapon").one("option", selected=True)
    assert selected.attrs["value"] == str(dagger.pk)
