"""Dado objetivo: «Other weapon» takes its damage as dice, as its help says ("por ejemplo
1d10 o 2d6+1"): the seed's damage is always rolled ("se tira el daño correspondiente al
arma utilizada"), so a number alone is refused with a message that asks for dice, in the
roll panel and the combat panel alike (docs/rules.md#objetivo-damage)."""

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.models import CombatAttack, Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

SPANISH = "El daño de un arma se tira con dados: escribe, por ejemplo, 1d10 o 2d6+1."
ENGLISH = "A weapon's damage is rolled with dice: write, for example, 1d10 or 2d6+1."
HELP = "Solo para «Otra arma»: por ejemplo 1d10 o 2d6+1."
SWING = {"kind": "attack", "attribute": "fuerza", "skill": "armas_cc", "defensa": "10"}


@pytest.fixture
def table(gm, player):
    campaign = campaign_with("objetivo", gm, players=[player])
    ratings = {"fuerza": 5, "armas_cc": 6, "resistencia": 8}
    fred = make_character(campaign, player, name="Fred", ratings=ratings)
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    return fred, foe, combat


def swing(client, fred, damage):
    data = {**SWING, "weapon": "custom", "damage": damage}
    return client.post(roll_url(fred), data, HTTP_HX_REQUEST="true")


def field_errors(html: str) -> str:
    return " ".join(e.text() for e in parse(html).find_all(class_="invalid-feedback"))


@pytest.mark.parametrize("who", ["player", "gm"])
@pytest.mark.parametrize("damage", ["3", "", "tres", "+3"])
def test_other_weapon_damage_without_dice_asks_for_dice_as_the_help_says(
    client, request, table, who, damage
):
    fred, _foe, _combat = table
    client.force_login(request.getfixturevalue(who))
    response = swing(client, fred, damage)
    assert SPANISH in field_errors(response.text)
    assert HELP in response.text
    assert " o 3" not in response.text
    client.cookies["django_language"] = "en"
    assert ENGLISH in field_errors(swing(client, fred, damage).text)
    assert not Roll.objects.exists()


def test_other_weapon_damage_with_dice_and_a_bonus_is_rolled(client, player, table):
    fred, _foe, _combat = table
    client.force_login(player)
    assert swing(client, fred, "2d6+1").status_code == 200
    assert Roll.objects.get().record["kind"] == "attack"


def test_the_combat_panel_asks_for_dice_too(client, gm, table):
    fred, foe, combat = table
    client.force_login(gm)
    scene = combat.scene
    url = reverse("mechanics:combat_attack", args=[scene.campaign_id, scene.pk, combat.pk])
    data = {"attacker": fred.pk, "target": foe.pk, "weapon": "custom", "damage": "3"}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert SPANISH in response.text
    assert not CombatAttack.objects.exists()


def test_a_stranger_finds_no_panel(client, stranger, table):
    fred, _foe, _combat = table
    client.force_login(stranger)
    assert swing(client, fred, "3").status_code == 404


# Damage too large to roll and dice that are no dice get each their own message
# (docs/rules.md#objetivo-damage): the engine's limits, 20 dice of up to 100 sides, ±20.
def too_large(dice):
    return (
        f"«{dice}» es demasiado grande: el daño de un arma es como mucho 20 dados de hasta "
        "100 caras.",
        f"«{dice}» is too large: a weapon's damage is at most 20 dice of up to 100 sides.",
    )


def too_many(dice):
    return (
        f"«{dice}» es demasiado grande: el daño de un arma es como mucho 20 dados.",
        f"«{dice}» is too large: a weapon's damage is at most 20 dice.",
    )


def too_big(dice):
    return (
        f"«{dice}» es demasiado grande: los dados de daño de un arma tienen como mucho 100 caras.",
        f"«{dice}» is too large: a weapon's damage dice have at most 100 sides.",
    )


def no_die(dice):
    return (
        f"«{dice}» no es una tirada de dados válida: tira al menos un dado de 2 caras o más, "
        "por ejemplo 1d10 o 2d6+1.",
        f"«{dice}» is not a valid roll of dice: roll at least one die of 2 sides or more, like "
        "1d10 or 2d6+1.",
    )


BONUS = (
    "La bonificación o penalización del daño es demasiado grande: como mucho ±20.",
    "The damage bonus or penalty is too large: at most ±20.",
)
# The parser shared with 3d6 + NdP (mechanics/forms/damage.py, docs/rules.md#damage-text)
# says what is no dice at all, and asks for the sign it will not guess.
NO_DICE = ("Tira al menos un dado de daño.", "Roll at least one damage die.")
NO_SIDES = (
    "Un dado de 0 caras no tira nada: escribe sus caras, por ejemplo 1d6.",
    "A die of 0 sides rolls nothing: write its sides, like 1d6.",
)
NO_SIGN = (
    "Pon + o − entre los dados y el bono, por ejemplo 1d6+2.",
    "Put a + or − between the dice and the bonus, like 1d6+2.",
)
CASES = [
    ("999d999", too_large("999d999")),
    ("21d6", too_many("21d6")),
    ("1d101", too_big("1d101")),
    ("1d0", NO_SIDES),
    ("0d6", NO_DICE),
    ("2 d 1", no_die("2d1")),
    ("1d6+21", BONUS),
    ("1d6-21", BONUS),
    ("1d6 2", NO_SIGN),
]


def attack_in_panel(client, fred, foe, combat, damage):
    scene = combat.scene
    url = reverse("mechanics:combat_attack", args=[scene.campaign_id, scene.pk, combat.pk])
    data = {"attacker": fred.pk, "target": foe.pk, "weapon": "custom", "damage": damage}
    return client.post(url, data, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize(("damage", "messages"), CASES)
@pytest.mark.parametrize("who", ["player", "gm"])
def test_damage_too_large_and_dice_that_are_no_dice_say_what_is_wrong(
    client, request, table, who, damage, messages
):
    fred, _foe, _combat = table
    client.force_login(request.getfixturevalue(who))
    assert field_errors(swing(client, fred, damage).text) == messages[0]
    client.cookies["django_language"] = "en"
    assert field_errors(swing(client, fred, damage).text) == messages[1]
    assert not Roll.objects.exists()


@pytest.mark.parametrize(("damage", "messages"), CASES[::3])
def test_the_combat_panel_says_what_is_wrong_beside_the_damage(client, gm, table, damage, messages):
    fred, foe, combat = table
    client.force_login(gm)
    response = attack_in_panel(client, fred, foe, combat, damage)
    # What the GM typed stays in the field, the message beside it.
    assert parse(response.text).one(id="id_damage").attrs["value"] == damage
    assert field_errors(response.text) == messages[0]
    client.cookies["django_language"] = "en"
    response = attack_in_panel(client, fred, foe, combat, damage)
    assert field_errors(response.text) == messages[1]
    assert not CombatAttack.objects.exists()


def test_a_player_cannot_set_up_an_attack_in_the_combat_panel(client, player, table):
    fred, foe, combat = table
    client.force_login(player)
    assert attack_in_panel(client, fred, foe, combat, "999d999").status_code == 403
