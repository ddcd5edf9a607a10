"""Dado objetivo in the combat panel: the ranged difficulty from the distance typed, the
weapon's ranges and cover (docs/rules.md#objetivo-ranged), and the GM's hand-back of a
destiny point from the fighter's row (docs/rules.md#objetivo-destiny)."""

import pytest
from django.urls import reverse

from campaigns import services
from characters.models import Resource
from mechanics.models import CombatAttack, Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.mechanics import rolling
from tests.mechanics.rolling import odds_values

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def saloon(gm, player):
    campaign = campaign_with("objetivo", gm, players=[player])
    fred = make_character(
        campaign,
        player,
        name="Fred",
        ratings={"destreza": 8, "armas_dist": 4, "resistencia": 8},
    )
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    return combat, fred, foe


def url(name, combat, *extra):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk, *extra])


def shot(fred, foe, **extra):
    return {"attacker": fred.pk, "target": foe.pk, "weapon": "revolver", **extra}


@pytest.mark.parametrize(
    ("distance", "cover", "difficulty", "words"),
    [
        ("30", "", 15, "30 m, alcance corto"),
        ("50", "", 20, "50 m, alcance medio"),
        ("100", "", 25, "100 m, alcance largo"),
        ("35", "on", 20, "35 m, alcance corto, a cubierto"),
        ("120", "on", 30, "120 m, alcance largo, a cubierto"),
    ],
)
def test_example_9_revolver_ranges_set_the_difficulty_in_the_combat_panel(
    client, gm, saloon, distance, cover, difficulty, words
):
    combat, fred, foe = saloon
    client.force_login(gm)
    data = shot(fred, foe, distance=distance, cover=cover)
    response = client.get(url("combat_attack", combat), data, HTTP_HX_REQUEST="true")
    assert f'<strong class="combat-defence">{difficulty}</strong>' in response.text
    assert words in response.text
    assert "alcance" in response.text


def test_a_shot_uses_the_range_difficulty_with_exact_odds(client, gm, saloon, fixed_dice):
    combat, fred, foe = saloon
    client.force_login(gm)
    data = shot(fred, foe, distance="50")
    response = client.get(url("combat_attack", combat), data, HTTP_HX_REQUEST="true")
    # Seed example 5: Destreza 8 + Armas Dist 4 + revolver 0 = 12 + the median die vs 20:
    # a hit needs a median of 8 or more (or an explosion); a median of 1 always fails.
    # P(median ≥ 8) = P(at least two dice ≥ 8) = 3·0.3²·0.7 + 0.3³.
    assert odds_values(response.text)["success"] == pytest.approx(3 * 0.09 * 0.7 + 0.027)
    fixed_dice(8, 8, 8, 5)
    client.post(url("combat_attack", combat), data)
    stored = CombatAttack.objects.get()
    assert stored.roll.record["details"]["defensa"] == 20
    assert stored.roll.outcome == "success"


def test_example_9_a_shot_beyond_long_range_is_refused_and_nothing_is_stored(client, gm, saloon):
    combat, fred, foe = saloon
    client.force_login(gm)
    response = client.post(url("combat_attack", combat), shot(fred, foe, distance="130"))
    assert response.status_code == 200
    assert "más allá del alcance largo (120 m)" in response.text
    assert not CombatAttack.objects.exists()
    assert not Roll.objects.filter(kind="attack").exists()


def test_another_weapon_shoots_with_the_ranges_typed(client, gm, saloon):
    combat, fred, foe = saloon
    client.force_login(gm)
    data = {
        "attacker": fred.pk,
        "target": foe.pk,
        "weapon": "custom",
        "damage": "1d8",
        "skill": "armas_dist",
        "distance": "40",
        "ranges": "20/50/100",
    }
    response = client.get(url("combat_attack", combat), data, HTTP_HX_REQUEST="true")
    assert '<strong class="combat-defence">20</strong>' in response.text
    response = client.get(
        url("combat_attack", combat), {**data, "ranges": "50/20/100"}, HTTP_HX_REQUEST="true"
    )
    assert "Los alcances deben crecer: corto, medio, largo." in response.text
    response = client.post(url("combat_attack", combat), {**data, "ranges": ""})
    assert "Esta arma no tiene alcances" in response.text
    assert not CombatAttack.objects.exists()


def test_the_gms_own_difficulty_replaces_the_range(client, gm, saloon):
    combat, fred, foe = saloon
    client.force_login(gm)
    data = shot(fred, foe, distance="500", defensa="22")
    response = client.get(url("combat_attack", combat), data, HTTP_HX_REQUEST="true")
    assert '<strong class="combat-defence">22</strong>' in response.text


# --- Handing a destiny point back from the combat panel --------------------------------------


def hand_back_url(character):
    return reverse(
        "characters:pool_action",
        args=[character.campaign_id, character.pk, "destiny_points", "hand-back"],
    )


def test_the_gm_hands_a_destiny_point_back_from_the_combat_panel(client, gm, saloon):
    combat, fred, foe = saloon
    client.force_login(gm)
    page = client.get(url("combat_detail", combat)).text
    assert hand_back_url(fred) in page
    response = client.post(hand_back_url(fred), {"next": url("combat_detail", combat)})
    assert response["Location"] == url("combat_detail", combat)
    assert Resource.objects.get(character=fred, key="destiny_points").current == 1
    fred.refresh_from_db()
    assert fred.details["destiny_returned"]
    page = client.get(url("combat_detail", combat)).text
    assert "Punto devuelto" in page
    assert hand_back_url(fred) not in page
    # The attack's odds now say the die goes down.
    data = shot(fred, foe, distance="30")
    odds = client.get(url("combat_attack", combat), data, HTTP_HX_REQUEST="true").text
    assert "dado menor" in odds


def test_a_hand_back_goes_back_only_to_a_page_of_this_site(client, gm, saloon):
    _combat, fred, _foe = saloon
    client.force_login(gm)
    response = client.post(hand_back_url(fred), {"next": "https://example.com/combat"})
    assert response["Location"] != "https://example.com/combat"
    assert "example.com" not in response["Location"]


def test_players_and_strangers_see_no_hand_back_and_a_forged_one_writes_nothing(
    client, player, stranger, saloon
):
    combat, fred, _foe = saloon
    client.force_login(player)
    assert hand_back_url(fred) not in client.get(url("combat_detail", combat)).text
    for user, status in ((player, 403), (stranger, 404)):
        client.force_login(user)
        response = client.post(hand_back_url(fred), {"next": url("combat_detail", combat)})
        assert response.status_code == status
    fred.refresh_from_db()
    assert Resource.objects.get(character=fred, key="destiny_points").current == 0
    assert not fred.details.get("destiny_returned")
