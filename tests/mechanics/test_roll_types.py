"""Every roll type beyond the simple roll: extended actions, the chance die, opposed and
teamwork rolls set up by the GM, and attacks with their damage."""

import pytest
from django.urls import reverse

from characters.models import Resource
from mechanics.models import Roll
from mechanics.rules.ndp import odds as ndp_odds
from mechanics.rules.ndp.rolls import NdpSpec
from mechanics.rules.objetivo import odds as objetivo_odds
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.mechanics import rolling
from tests.mechanics.rolling import dice_values, odds_values, roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


def game(system: str, gm, player):
    campaign = CampaignFactory(created_by=gm, system=system)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


def gm_url(campaign):
    return reverse("mechanics:gm_roll", args=[campaign.pk])


@pytest.fixture
def lucia(campaign, player):
    ratings = {"inteligencia": 3, "investigacion": 3, "fuerza": 3, "pelea": 2}
    return make_character(campaign, player, name="Lucía", ratings=ratings)


@pytest.fixture
def bruto(campaign):
    return make_character(campaign, None, name="Bruto", ratings={"fuerza": 4, "pelea": 3})


# Mundo de Tinieblas


def test_extended_action_accumulates_progress_in_one_group_until_done(
    client, player, lucia, fixed_dice
):
    client.force_login(player)
    data = {
        "kind": "extended",
        "attribute": "inteligencia",
        "skill": "investigacion",
        "again": "10",
        "target": "5",
        "max_rolls": "3",
        "label": "Descifrar el diario",
    }
    fixed_dice(1)
    client.post(roll_url(lucia), data)
    first = Roll.objects.get()
    assert first.record["details"]["progress"] == 0
    assert not first.record["details"]["done"]
    # The panel offers to continue it; progress comes from the stored roll, not the form.
    page = client.get(roll_url(lucia)).text
    assert f'value="{first.group}"' in page
    assert "Descifrar el diario (0/5)" in page
    fixed_dice(8, 8, 8, 8, 8, 8, 1)
    continued = {"kind": "extended", "attribute": "inteligencia", "skill": "investigacion"}
    continued |= {"again": "none", "action": str(first.group), "target": "1", "progress": "4"}
    client.post(roll_url(lucia), continued)
    second = Roll.objects.order_by("-pk").first()
    assert second.group == first.group
    assert second.label == "Descifrar el diario"
    details = second.record["details"]
    assert (details["progress"], details["target"], details["rolls_made"]) == (6, 5, 2)
    assert details["reached"]
    assert details["done"]
    # A finished action cannot go on.
    response = client.post(roll_url(lucia), continued)
    assert response.status_code == 200
    assert Roll.objects.count() == 2


def test_extended_action_stops_at_its_cap_of_rolls(client, player, lucia, fixed_dice):
    client.force_login(player)
    fixed_dice(1)
    data = {
        "kind": "extended",
        "attribute": "inteligencia",
        "skill": "investigacion",
        "again": "10",
        "target": "20",
        "max_rolls": "1",
    }
    client.post(roll_url(lucia), data)
    assert Roll.objects.get().record["details"]["done"]
    assert "(0/20)" not in client.get(roll_url(lucia)).text


def test_chance_die_rolls_one_die_and_a_one_is_a_dramatic_failure(
    client, player, lucia, fixed_dice
):
    client.force_login(player)
    fixed_dice(1)
    data = {
        "kind": "pool",
        "attribute": "inteligencia",
        "skill": "investigacion",
        "again": "10",
        "extra_dice": "-6",
    }
    response = client.post(roll_url(lucia), data, HTTP_HX_REQUEST="true")
    roll = Roll.objects.get()
    assert dice_values(roll) == [1]
    assert roll.record["details"]["chance_die"]
    assert roll.outcome == "dramatic_failure"
    assert "Fallo dramático" in response.text


def test_nine_again_and_rote_are_rolled_as_chosen(client, player, lucia, fixed_dice):
    client.force_login(player)
    # Pool 6: the first throw is 9,1,1,1,1,1; rote rerolls the five 1s (2s), and the 9
    # explodes with 9-again into a 3.
    fixed_dice(9, 1, 1, 1, 1, 1, 3, 2, 2, 2, 2, 2)
    data = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion"}
    client.post(roll_url(lucia), {**data, "again": "9", "rote": "on"})
    roll = Roll.objects.get()
    tags = [die["tags"] for die in roll.record["dice"]]
    assert sum("reroll" in t for t in tags) == 5
    assert sum("explosion" in t for t in tags) == 1
    assert roll.record["spec"]["again"] == 9
    assert roll.record["spec"]["rote"]


def test_gm_sets_up_an_opposed_roll_and_each_side_gets_its_part(
    client, gm, campaign, lucia, bruto, fixed_dice
):
    client.force_login(gm)
    fixed_dice(8, 8, 8, 8, 8, 1)
    data = {
        "kind": "opposed",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "a-skill": "pelea",
        "b-character": bruto.pk,
        "b-attribute": "fuerza",
        "b-skill": "pelea",
        "b-extra_dice": "-2",
        "label": "Pulso",
    }
    response = client.post(gm_url(campaign), data)
    assert response.status_code == 302
    a, b = Roll.objects.order_by("pk")
    assert a.group == b.group is not None
    assert (a.character, b.character) == (lucia, bruto)
    assert (a.kind, b.kind) == ("opposed", "opposed")
    assert (a.result, b.result) == (5, 0)
    assert (a.outcome, b.outcome) == ("won", "lost")
    assert a.record["details"]["opponent"]["name"] == "Bruto"
    page = client.get(response["Location"]).text
    assert page.count('class="roll-card') == 2
    assert "Gana" in page
    assert "Pierde" in page


def test_teamwork_helpers_roll_first_and_add_their_successes(
    client, gm, campaign, lucia, bruto, fixed_dice
):
    client.force_login(gm)
    # Bruto helps with Fuerza 4 + Pelea 3 = 7 dice: three successes, then Lucía's 6 + 3.
    fixed_dice(8, 8, 8, 1, 1, 1, 1, 1)
    data = {
        "kind": "teamwork",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "a-skill": "pelea",
        "h1-character": bruto.pk,
        "h1-attribute": "fuerza",
        "h1-skill": "pelea",
    }
    client.post(gm_url(campaign), data)
    main, helper = Roll.objects.order_by("pk")
    assert main.group == helper.group
    assert (main.kind, helper.kind) == ("teamwork", "teamwork_helper")
    assert (main.character, helper.character) == (lucia, bruto)
    assert helper.result == 3
    assert main.record["details"]["bonus"] == 3
    assert main.record["details"]["pool"] == 5 + 3
    assert len(main.record["dice"]) == 8


def test_gm_panel_refuses_a_character_on_both_sides(client, gm, campaign, lucia):
    client.force_login(gm)
    data = {
        "kind": "opposed",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "b-character": lucia.pk,
        "b-attribute": "fuerza",
    }
    response = client.post(gm_url(campaign), data)
    assert "Cada personaje solo puede participar una vez." in response.text
    assert not Roll.objects.exists()


def test_gm_secret_opposed_roll_is_stored_secret(client, gm, campaign, lucia, bruto):
    client.force_login(gm)
    data = {
        "kind": "opposed",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "b-character": bruto.pk,
        "b-attribute": "fuerza",
        "secret": "on",
    }
    client.post(gm_url(campaign), data)
    assert [roll.secret for roll in Roll.objects.all()] == [True, True]


def test_only_gms_open_the_gm_roll_panel(client, campaign, gm, player, observer, stranger):
    client.force_login(gm)
    assert client.get(gm_url(campaign)).status_code == 200
    for user, status in ((player, 403), (observer, 403), (stranger, 404)):
        client.force_login(user)
        assert client.get(gm_url(campaign)).status_code == status
        assert client.post(gm_url(campaign), {"kind": "opposed"}).status_code == status


def test_gm_panel_runs_a_constant_number_of_queries(
    client, gm, campaign, lucia, bruto, django_assert_max_num_queries
):
    for index in range(20):
        make_character(campaign, None, name=f"PNJ {index}")
    client.force_login(gm)
    data = {
        "kind": "opposed",
        "a-character": lucia.pk,
        "a-attribute": "fuerza",
        "b-character": bruto.pk,
        "b-attribute": "fuerza",
    }
    with django_assert_max_num_queries(35):
        client.post(gm_url(campaign), data, HTTP_HX_REQUEST="true")


# Hitos


def test_hitos_attack_takes_its_damage_from_the_same_dice(client, gm, player, fixed_dice):
    campaign = game("hitos", gm, player)
    pepa = make_character(
        campaign, player, name="Pepa", ratings={"reflejos": 4, "combate": 3, "fortaleza": 5}
    )
    fixed_dice(3, 6, 7)
    client.force_login(player)
    data = {
        "kind": "attack",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "8",
        "weapon": "central",
        "weapon_constant": "1",
        "attack_range": "melee",
        "target_rd": "1",
    }
    response = client.post(roll_url(pepa), data, HTTP_HX_REQUEST="true")
    roll = Roll.objects.get()
    # C 6 + Reflejos 4 + Combate 3 = 13 > 8: a hit; damage C + 1 + ⌊(5 + 3) / 4⌋ − RD 1.
    assert (roll.result, roll.outcome) == (13, "success")
    assert roll.record["effects"]["damage"] == 6 + 1 + 2 - 1
    assert "Impacto" in response.text
    assert "Daño: 8" in response.text


def test_hitos_gm_panel_explains_there_are_no_two_sided_rolls(client, gm, player):
    campaign = game("hitos", gm, player)
    client.force_login(gm)
    response = client.get(gm_url(campaign))
    assert "no tiene tiradas enfrentadas" in response.text


# 3d6 + NdP


def test_ndp_opposed_roll_defender_wins_ties(client, gm, player, fixed_dice):
    campaign = game("ndp", gm, player)
    ana = make_character(campaign, player, name="Ana", ratings={"pelea": 2})
    rufo = make_character(campaign, None, name="Rufo", ratings={"pelea": 2})
    fixed_dice(3)
    client.force_login(gm)
    data = {
        "kind": "opposed",
        "a-character": ana.pk,
        "a-skill": "pelea",
        "a-dice": "3",
        "b-character": rufo.pk,
        "b-skill": "pelea",
        "b-dice": "3",
    }
    odds = client.get(gm_url(campaign), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    p_attacker = ndp_odds.p_attacker_wins(
        NdpSpec(level=2, skill="pelea"), NdpSpec(level=2, skill="pelea")
    )
    assert odds_values(odds.text)["win"] == p_attacker
    client.post(gm_url(campaign), data)
    attacker, defender = Roll.objects.order_by("pk")
    assert attacker.result == defender.result == 11
    assert (attacker.outcome, defender.outcome) == ("lost", "won")


def test_ndp_roll_against_the_other_sides_total_gives_ties_to_the_defender(
    client, gm, player, fixed_dice
):
    campaign = game("ndp", gm, player)
    ana = make_character(campaign, player, name="Ana", ratings={"esquivar": 2})
    fixed_dice(3)
    client.force_login(player)
    data = {"kind": "check", "skill": "esquivar", "dice": "3", "opposed_total": "11"}
    odds = client.get(roll_url(ana), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    attacking = NdpSpec(level=2, opposed_total=11, skill="esquivar")
    assert odds_values(odds.text)["success"] == ndp_odds.odds(attacking).p_success
    client.post(roll_url(ana), data)
    client.post(roll_url(ana), {**data, "defending": "on"})
    attack, defence = Roll.objects.order_by("pk")
    assert attack.result == defence.result == 11
    assert (attack.outcome, defence.outcome) == ("failure", "success")
    response = client.post(roll_url(ana), {**data, "adversity": "9"})
    assert "no ambos" in response.text
    assert Roll.objects.count() == 2


def test_ndp_attack_leads_to_a_damage_tier(client, gm, player, fixed_dice):
    campaign = game("ndp", gm, player)
    ana = make_character(campaign, player, name="Ana", ratings={"pelea": 2})
    fixed_dice(6)
    client.force_login(player)
    data = {
        "kind": "attack",
        "skill": "pelea",
        "dice": "3",
        "adversity": "5",
        "damage": "1d8+1",
        "damage_type": "contundente",
        "target_rd": "2",
    }
    odds = client.get(roll_url(ana), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert {"tier_leve", "tier_grave", "tier_letal"} <= set(odds_values(odds.text))
    response = client.post(roll_url(ana), data, HTTP_HX_REQUEST="true")
    roll = Roll.objects.get()
    # 6 + 1 − RD 2 halved against contundente = 6: a grave wound; the d8 is a damage die.
    assert roll.record["details"]["tier"] == "grave"
    assert roll.record["effects"]["damage"] == 6
    assert roll.record["dice"][-1]["sides"] == 8
    assert "Daño: 6 (grave)" in response.text


# Dado objetivo


def test_objetivo_opposed_roll_shows_the_engines_odds_and_splits_the_dice(
    client, gm, player, fixed_dice
):
    campaign = game("objetivo", gm, player)
    ana = make_character(
        campaign, player, name="Ana", ratings={"fuerza": 6, "pelea": 4, "resistencia": 8}
    )
    rufo = make_character(campaign, None, name="Rufo", ratings={"destreza": 5, "resistencia": 8})
    client.force_login(gm)
    data = {
        "kind": "opposed",
        "a-character": ana.pk,
        "a-attribute": "fuerza",
        "a-skill": "pelea",
        "b-character": rufo.pk,
        "b-attribute": "destreza",
        "b-skill": "",
    }
    odds = client.get(gm_url(campaign), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    engine = objetivo_odds.opposed_odds(
        ObjetivoSpec(bonus=10), ObjetivoSpec(bonus=10, attribute_roll=True, attribute=5)
    )
    assert odds_values(odds.text) == {
        "win": engine.p_actor,
        "tie": engine.p_tie,
        "lose": engine.p_opponent,
    }
    fixed_dice(5, 6, 7, 2, 3, 4)
    client.post(gm_url(campaign), data)
    mine, theirs = Roll.objects.order_by("pk")
    assert dice_values(mine) == [5, 6, 7]
    assert dice_values(theirs) == [2, 3, 4]
    assert (mine.result, theirs.result) == (16, 13)
    assert (mine.outcome, theirs.outcome) == ("won", "lost")


def test_objetivo_attack_critico_doubles_the_exploding_damage(client, gm, player, fixed_dice):
    campaign = game("objetivo", gm, player)
    fred = make_character(
        campaign,
        player,
        name="Fred",
        ratings={"fuerza": 10, "armas_cc": 9, "resistencia": 8},
    )
    # The seed's example: 19 + (7, 10, 10) then (6, 6, 8) = 35 against Defensa 24, a
    # crítico; the sword's die shows 6 and deals 12.
    fixed_dice(7, 10, 10, 6, 6, 8, 6)
    client.force_login(player)
    data = {
        "kind": "attack",
        "attribute": "fuerza",
        "skill": "armas_cc",
        "weapon": "espada",
        "defensa": "24",
    }
    response = client.post(roll_url(fred), data, HTTP_HX_REQUEST="true")
    roll = Roll.objects.get()
    assert (roll.result, roll.outcome) == (35, "critical")
    assert roll.record["effects"]["damage"] == 12
    assert "doblado por el crítico" in response.text
    assert 'aria-label="Dados de daño"' in response.text


def test_objetivo_destiny_points_cannot_go_below_zero(client, gm, player):
    campaign = game("objetivo", gm, player)
    fred = make_character(campaign, player, name="Fred", ratings={"resistencia": 8})
    client.force_login(player)
    data = {"kind": "attribute", "attribute": "fuerza", "destiny_point": "on"}
    response = client.post(roll_url(fred), data)
    assert "No quedan puntos de destino." in response.text
    assert not Roll.objects.exists()
    assert Resource.objects.get(character=fred, key="destiny_points").current == 0
