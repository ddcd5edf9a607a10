"""Dado objetivo: the card of a shot names its number as the shot's difficulty, by distance
and cover, not as a Defensa (the seed's target of a ranged weapon "no puede esquivarlas ni
tiene capacidad de defensa"); a melee attack keeps "Contra Defensa"
(docs/rules.md#objetivo-ranged)."""

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.models import Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

REVOLVER = {"kind": "attack", "attribute": "destreza", "skill": "armas_dist", "weapon": "revolver"}
SWORD = {"kind": "attack", "attribute": "fuerza", "skill": "armas_cc", "weapon": "espada"}


@pytest.fixture
def saloon(gm, player, observer, dora):
    """Bob plays Fred, a gunman; Dora plays too; the GM runs a fight in the saloon."""
    campaign = campaign_with("objetivo", gm, players=[player, dora], observers=[observer])
    fred = make_character(
        campaign,
        player,
        name="Fred",
        ratings={"destreza": 8, "armas_dist": 4, "fuerza": 5, "armas_cc": 6, "resistencia": 8},
    )
    foe = make_character(
        campaign,
        None,
        user=gm,
        name="Forajido",
        ratings={"destreza": 4, "armas_cc": 3, "resistencia": 8},
    )
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    return fred, foe, scene


def attack_url(scene, gm) -> str:
    """The attack panel of a fight the GM starts in the scene."""
    combat = combat_services.combat_start(scene=scene, user=gm)
    return reverse("mechanics:combat_attack", args=[scene.campaign_id, scene.pk, combat.pk])


def log_url(character):
    return reverse("mechanics:log", args=[character.campaign_id])


def card_setup(html: str, roll: Roll) -> str:
    card = parse(html).one("article", data_roll=str(roll.pk))
    return card.one("p", class_="roll-setup").text()


def panel_roll(client, character, data) -> tuple[str, Roll]:
    response = client.post(roll_url(character), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    roll = Roll.objects.get(kind="attack")
    return card_setup(response.text, roll), roll


@pytest.mark.parametrize("who", ["player", "gm"])
def test_a_shot_at_50_m_under_cover_is_against_the_shots_difficulty_not_a_defensa(
    client, saloon, fixed_dice, request, who
):
    fred, _foe, _scene = saloon
    client.force_login(request.getfixturevalue(who))
    fixed_dice(5, 5, 5, 1)
    setup, roll = panel_roll(client, fred, {**REVOLVER, "distance": "50", "cover": "on"})
    # Medium range (20), one step harder under cover: 25.
    assert roll.record["details"]["defensa"] == 25
    assert setup.endswith("Dificultad del disparo 25 (50 m, alcance medio, a cubierto)")
    assert "Defensa" not in setup
    client.cookies["django_language"] = "en"
    english = card_setup(client.get(log_url(fred)).text, roll)
    assert english.endswith("Shot difficulty 25 (50 m, medium range, under cover)")


def test_a_melee_attack_is_still_against_the_targets_defensa(client, player, saloon, fixed_dice):
    fred, _foe, _scene = saloon
    client.force_login(player)
    fixed_dice(5, 5, 5, 1)
    setup, _roll = panel_roll(client, fred, {**SWORD, "defensa": "14"})
    assert setup.endswith("Contra Defensa 14")
    assert "disparo" not in setup


def test_a_shot_with_its_difficulty_typed_names_it_without_a_range(
    client, player, saloon, fixed_dice
):
    fred, _foe, _scene = saloon
    client.force_login(player)
    fixed_dice(5, 5, 5, 1)
    # A number typed replaces the range, even with a distance typed: no range to name.
    setup, _roll = panel_roll(client, fred, {**REVOLVER, "defensa": "12", "distance": "100"})
    assert setup.endswith("Dificultad del disparo 12")


def test_the_combat_panels_shot_and_melee_attack_read_apart_on_their_cards(
    client, gm, saloon, fixed_dice
):
    fred, foe, scene = saloon
    url = attack_url(scene, gm)
    client.force_login(gm)
    fixed_dice(5, 5, 5, 1)
    shot = {"attacker": fred.pk, "target": foe.pk, "weapon": "revolver", "distance": "100"}
    client.post(url, shot)
    fixed_dice(5, 5, 5, 1)
    client.post(url, {"attacker": foe.pk, "target": fred.pk, "weapon": "espada"})
    fired, struck = Roll.objects.filter(kind="attack").order_by("pk")
    page = client.get(log_url(fred)).text
    assert card_setup(page, fired).endswith("Dificultad del disparo 25 (100 m, alcance largo)")
    # Fred's Defensa: Destreza 8 + Armas CC 6 + 5.
    assert card_setup(page, struck).endswith("Contra Defensa 19")


def test_a_combat_shot_with_no_distance_is_at_short_range_on_its_card(
    client, gm, saloon, fixed_dice
):
    fred, foe, scene = saloon
    url = attack_url(scene, gm)
    client.force_login(gm)
    fixed_dice(5, 5, 5, 1)
    client.post(url, {"attacker": fred.pk, "target": foe.pk, "weapon": "revolver"})
    roll = Roll.objects.get(kind="attack")
    assert card_setup(client.get(log_url(fred)).text, roll).endswith(
        "Dificultad del disparo 15 (alcance corto)"
    )


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_a_combat_shot_under_cover_with_no_distance_is_one_step_harder(
    request, client, gm, saloon, fixed_dice, who
):
    """Cover raises a shot one step whether or not a distance was typed: short range under
    cover is 20, before the roll and on its card."""
    fred, foe, scene = saloon
    url = attack_url(scene, gm)
    shot = {"attacker": fred.pk, "target": foe.pk, "weapon": "revolver", "cover": "on"}
    client.force_login(request.getfixturevalue(who))
    before = client.get(url, shot, HTTP_HX_REQUEST="true")
    fixed_dice(5, 5, 5, 1)
    posted = client.post(url, shot)
    if who != "gm":
        # The GM runs the combat panel; a stranger does not learn the fight exists.
        expected = 404 if who == "stranger" else 403
        assert (before.status_code, posted.status_code) == (expected, expected)
        assert not Roll.objects.filter(kind="attack").exists()
        return
    assert parse(before.text).one("strong", class_="combat-defence").text() == "20"
    assert "Alcance corto, a cubierto" in before.text
    roll = Roll.objects.get(kind="attack")
    assert card_setup(client.get(log_url(fred)).text, roll).endswith(
        "Dificultad del disparo 20 (alcance corto, a cubierto)"
    )


def test_members_read_the_shots_card_and_a_stranger_finds_nothing(
    client, player, gm, observer, dora, stranger, saloon, fixed_dice
):
    fred, _foe, _scene = saloon
    client.force_login(player)
    fixed_dice(5, 5, 5, 1)
    _setup, roll = panel_roll(client, fred, {**REVOLVER, "distance": "50", "cover": "on"})
    for user in (gm, dora, observer):
        client.force_login(user)
        assert "Dificultad del disparo 25" in card_setup(client.get(log_url(fred)).text, roll)
    client.force_login(stranger)
    assert client.get(log_url(fred)).status_code == 404


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_a_typed_number_is_named_the_shots_difficulty_before_the_roll_too(
    request, client, gm, saloon, who
):
    """The combat panel's odds, before anything is rolled: a number the GM types for a
    shot is its difficulty; for a melee attack, the target's Defensa."""
    fred, foe, scene = saloon
    url = attack_url(scene, gm)
    client.force_login(request.getfixturevalue(who))
    shot = {"attacker": fred.pk, "target": foe.pk, "weapon": "revolver", "defensa": "12"}
    response = client.get(url, shot, HTTP_HX_REQUEST="true")
    if who == "stranger":
        assert response.status_code == 404
        return
    if who == "player":
        assert response.status_code == 403  # the GM runs the combat panel
        return
    assert "Dificultad del disparo indicada por el máster" in response.text
    assert "Defensa indicada por el máster" not in response.text
    melee = {"attacker": foe.pk, "target": fred.pk, "weapon": "espada", "defensa": "12"}
    response = client.get(url, melee, HTTP_HX_REQUEST="true")
    assert "Defensa indicada por el máster" in response.text
