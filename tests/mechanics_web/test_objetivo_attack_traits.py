"""Dado objetivo: the roll panel's attack adds the seed's traits, "Ataque: Fuerza + Armas
CC/Pelea" and "Distancia: Destreza + Armas Dist": the attribute follows from the weapon
and the skill, and a skill of the other kind is refused (docs/rules.md#objetivo-attack-traits)."""

import pytest

from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

ATTACK = {"kind": "attack", "defensa": "15"}


@pytest.fixture
def fred(gm, player, observer, dora):
    """Bob plays Fred, the seed's gunman and axeman; Dora plays too."""
    campaign = campaign_with("objetivo", gm, players=[player, dora], observers=[observer])
    ratings = {"fuerza": 5, "destreza": 8, "armas_cc": 6, "armas_dist": 4, "pelea": 2}
    return make_character(campaign, player, name="Fred", ratings={**ratings, "resistencia": 8})


def attack(client, character, **choices):
    return client.post(roll_url(character), {**ATTACK, **choices}, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("who", ["player", "gm"])
def test_a_revolver_shot_with_fuerza_and_pelea_is_refused_and_nothing_is_stored(
    client, fred, request, who
):
    """The tester's set-up: Revolver, Fuerza + Pelea, "dado central + 7 contra 15"."""
    client.force_login(request.getfixturevalue(who))
    response = attack(client, fred, weapon="revolver", attribute="fuerza", skill="pelea")
    assert "Un disparo se tira con Destreza + Armas Dist, o sin habilidad." in response.text
    assert "dado central + 7 contra 15" not in response.text
    client.cookies["django_language"] = "en"
    response = attack(client, fred, weapon="revolver", attribute="fuerza", skill="pelea")
    assert "A shot is rolled with Destreza + Armas Dist, or with no skill." in response.text
    assert not Roll.objects.exists()


def test_a_melee_weapon_with_armas_dist_is_refused(client, player, fred):
    client.force_login(player)
    response = attack(client, fred, weapon="hacha", attribute="fuerza", skill="armas_dist")
    assert (
        "Un ataque cuerpo a cuerpo se tira con Fuerza + Armas CC o Pelea, o sin habilidad."
        in response.text
    )
    assert not Roll.objects.exists()


def test_example_5_fred_shoots_the_revolver_with_destreza_whatever_attribute_is_sent(
    client, player, fred, fixed_dice
):
    """Seed example 5: Destreza 8 + Armas Dist 4 + revolver 0 → 12 + the die."""
    client.force_login(player)
    fixed_dice(5, 5, 5, 1)
    response = attack(client, fred, weapon="revolver", attribute="fuerza", skill="armas_dist")
    assert response.status_code == 200
    record = Roll.objects.get().record
    assert record["spec"]["bonus"] == 12
    assert record["details"]["traits"]["attribute"] == "Destreza"


def test_example_5_fred_swings_the_axe_with_fuerza_whatever_attribute_is_sent(
    client, player, fred, fixed_dice
):
    """Seed example 5: Armas CC 6 + Fuerza 5 + hacha −1 → 10 + the die."""
    client.force_login(player)
    fixed_dice(5, 5, 5, 1)
    attack(client, fred, weapon="hacha", attribute="destreza", skill="armas_cc")
    record = Roll.objects.get().record
    assert record["spec"]["bonus"] == 10
    assert record["details"]["traits"]["attribute"] == "Fuerza"


@pytest.mark.parametrize(
    ("choices", "odds"),
    [
        ({"weapon": "pelea", "skill": "pelea"}, "dado central + 7 contra 15"),
        ({"weapon": "custom", "damage": "1d8", "skill": "armas_dist"}, "dado central + 12"),
        # Another weapon with a distance typed is a shot; with no skill, the lowest die.
        ({"weapon": "custom", "damage": "1d8", "skill": "", "distance": "10"}, "dado menor + 8"),
        ({"weapon": "custom", "damage": "1d8", "skill": ""}, "dado menor + 5"),
    ],
)
def test_the_odds_of_an_attack_add_the_rules_attribute(client, player, fred, choices, odds):
    client.force_login(player)
    data = {**ATTACK, "attribute": "inteligencia", **choices, "part": "odds"}
    response = client.get(roll_url(fred), data, HTTP_HX_REQUEST="true")
    assert odds in parse(response.text).one(class_="roll-odds").text()


def test_the_panel_says_where_an_attacks_attribute_comes_from(client, player, fred):
    client.force_login(player)
    page = parse(client.get(roll_url(fred), HTTP_HX_REQUEST="true").text)
    cell = page.one("div", class_="roll-cell-not-attack")
    assert cell.one("select", name="attribute")
    assert "Cuerpo a cuerpo: Fuerza + Armas CC o Pelea. A distancia: Destreza + Armas Dist." in (
        page.text()
    )


def test_another_player_or_an_observer_may_not_attack_and_a_stranger_finds_nothing(
    client, dora, observer, stranger, fred
):
    for user, status in ((dora, 403), (observer, 403), (stranger, 404)):
        client.force_login(user)
        assert attack(client, fred, weapon="pelea", skill="pelea").status_code == status
    assert not Roll.objects.exists()
