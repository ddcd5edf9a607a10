"""3d6 + NdP wounds on the GM's two-sided rolls: a side names the limb it uses (Fracturado,
2 Desgracias per fractured limb) and a quick action (Contusionado, 5 harder), as on the
player's roll panel and in the combat panel (docs/rules.md#ndp-wounds)."""

import pytest
from django.urls import reverse

from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics_web.test_ndp_combat import hurt

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(gm, player, dora):
    """Bob plays the Bandido; the GM's Caballero faces him; Dora plays too."""
    campaign = campaign_with("ndp", gm, players=[player, dora])
    bandit = make_character(campaign, player, name="Bandido", ratings={"esquivar": 1})
    knight = make_character(campaign, None, user=gm, name="Caballero", ratings={"pelea": 3})
    return campaign, bandit, knight


def gm_url(campaign):
    return reverse("mechanics:gm_roll", args=[campaign.pk])


def opposed(bandit, knight, **extra):
    return {
        "kind": "opposed",
        "a-character": bandit.pk,
        "a-skill": "esquivar",
        "a-dice": "3",
        "b-character": knight.pk,
        "b-skill": "pelea",
        "b-dice": "3",
        **extra,
    }


def latest_spec(character) -> dict:
    return Roll.objects.filter(character=character).latest("pk").record["spec"]


def test_the_gm_panel_asks_each_side_for_a_limb_and_a_quick_action(client, gm, duel):
    campaign, _bandit, _knight = duel
    client.force_login(gm)
    page = parse(client.get(gm_url(campaign)).text)
    for side in ("a", "b"):
        assert page.one("select", name=f"{side}-limb")
        assert page.one("input", name=f"{side}-quick").attrs["type"] == "checkbox"


def test_a_fractured_arm_named_by_a_side_adds_two_desgracias(client, gm, duel, fixed_dice):
    campaign, bandit, knight = duel
    hurt(bandit, "brazo_derecho", times=2)
    client.force_login(gm)
    fixed_dice(3, 3, 3, 3, 3, 3, 1, 1)
    client.post(gm_url(campaign), opposed(bandit, knight, **{"a-limb": "ambos_brazos"}))
    assert latest_spec(bandit)["desgracias"] == 2


def test_a_contused_side_acting_quickly_rolls_five_lower(client, gm, duel, fixed_dice):
    campaign, bandit, knight = duel
    hurt(bandit, "cabeza")
    client.force_login(gm)
    fixed_dice(3, 3, 3, 3, 3, 3)
    client.post(gm_url(campaign), opposed(bandit, knight))
    assert latest_spec(bandit)["bonus"] == 0
    fixed_dice(3, 3, 3, 3, 3, 3)
    client.post(gm_url(campaign), opposed(bandit, knight, **{"a-quick": "on"}))
    assert latest_spec(bandit)["bonus"] == -5


def test_the_owner_another_player_and_a_stranger_cannot_use_the_gm_panel(
    client, player, dora, stranger, duel
):
    campaign, bandit, knight = duel
    data = opposed(bandit, knight, **{"a-quick": "on", "a-limb": "brazo_derecho"})
    for user, status in ((player, 403), (dora, 403), (stranger, 404)):
        client.force_login(user)
        assert client.post(gm_url(campaign), data).status_code == status
    assert not Roll.objects.exists()
