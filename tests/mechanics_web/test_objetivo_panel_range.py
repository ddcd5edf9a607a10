"""Dado objetivo in the player's own roll panel: an attack's difficulty from the distance
typed, the weapon's ranges and cover, as in the combat panel (docs/rules.md#objetivo-ranged)."""

import pytest

from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

SHOT = {"kind": "attack", "attribute": "destreza", "skill": "armas_dist", "weapon": "revolver"}


@pytest.fixture
def fred(gm, player, observer, dora):
    """Bob plays Fred, a gunman; Dora plays too."""
    campaign = campaign_with("objetivo", gm, players=[player, dora], observers=[observer])
    return make_character(
        campaign, player, name="Fred", ratings={"destreza": 8, "armas_dist": 4, "resistencia": 8}
    )


def shoot(client, character, **extra):
    return client.post(roll_url(character), {**SHOT, **extra}, HTTP_HX_REQUEST="true")


def stored_difficulty() -> int:
    return Roll.objects.get().record["details"]["defensa"]


def test_the_panel_offers_distance_and_cover_for_an_attack(client, player, fred):
    client.force_login(player)
    page = parse(client.get(roll_url(fred)).text)
    assert page.one("input", name="distance").attrs["type"] == "number"
    assert page.one("input", name="cover").attrs["type"] == "checkbox"


@pytest.mark.parametrize(
    ("who", "distance", "cover", "difficulty"),
    [
        ("player", "30", "", 15),
        ("player", "50", "", 20),
        ("player", "120", "on", 30),
        ("gm", "35", "on", 20),
    ],
)
def test_the_owner_or_the_gm_shoots_at_the_range_difficulty(
    client, fred, fixed_dice, request, who, distance, cover, difficulty
):
    client.force_login(request.getfixturevalue(who))
    fixed_dice(5, 5, 5, 1)
    assert shoot(client, fred, distance=distance, cover=cover).status_code == 200
    assert stored_difficulty() == difficulty


def test_a_typed_defensa_replaces_the_range_difficulty(client, player, fred, fixed_dice):
    client.force_login(player)
    fixed_dice(5, 5, 5, 1)
    shoot(client, fred, distance="100", defensa="12")
    assert stored_difficulty() == 12


def test_a_shot_beyond_long_range_is_refused_and_nothing_is_stored(client, player, fred):
    client.force_login(player)
    response = shoot(client, fred, distance="121")
    assert "más allá del alcance largo" in response.text
    client.cookies["django_language"] = "en"
    assert "beyond long range" in shoot(client, fred, distance="121").text
    assert not Roll.objects.exists()


def test_another_weapon_shoots_with_the_ranges_typed(client, player, fred, fixed_dice):
    client.force_login(player)
    fixed_dice(5, 5, 5, 1, 1)
    other = {"weapon": "custom", "damage": "1d8", "ranges": "10/20/30"}
    shoot(client, fred, distance="25", **other)
    assert stored_difficulty() == 25


def test_another_player_or_an_observer_may_not_shoot_and_a_stranger_finds_nothing(
    client, dora, observer, stranger, fred
):
    for user, status in ((dora, 403), (observer, 403), (stranger, 404)):
        client.force_login(user)
        assert shoot(client, fred, distance="50").status_code == status
    assert not Roll.objects.exists()
