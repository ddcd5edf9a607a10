"""Dado objetivo: an unhurt character is never Incapacitado (RULES section 4), so the demo's
Carmen (Resistencia 5, 10 PV, as many as the threshold) rolls and shows as Sano at full PV."""

import pytest

from characters.models import Character
from mechanics.models import Roll
from mechanics.systems.objetivo.demo import DEMO_CHARACTERS
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

CARMEN = DEMO_CHARACTERS[0]
SHOT = {"kind": "skill", "attribute": "destreza", "skill": "armas_dist", "difficulty": "15"}


@pytest.fixture
def carmen(gm, player):
    campaign = CampaignFactory(created_by=gm, system="objetivo")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return make_character(
        campaign, player, name=CARMEN["name"], ratings=CARMEN["ratings"], details={}
    )


def test_carmen_at_full_pv_is_sano_and_rolls_the_middle_die(client, player, carmen, fixed_dice):
    assert carmen.health == {"max_pv": 10, "pv": 10}
    client.force_login(player)
    assert "Incapacitado" not in client.get(carmen.get_absolute_url()).text
    fixed_dice(3, 5, 6)
    client.post(roll_url(carmen), SHOT)
    roll = Roll.objects.get()
    assert roll.record["details"]["level"] == 0
    assert roll.record["kept"] == [5]
    assert roll.record["spec"]["incapacitated"] is False


def test_carmen_one_pv_down_is_incapacitado_and_rolls_one_level_down(
    client, gm, carmen, fixed_dice
):
    Character.objects.filter(pk=carmen.pk).update(health={"max_pv": 10, "pv": 9})
    client.force_login(gm)
    assert "Incapacitado" in client.get(carmen.get_absolute_url()).text
    fixed_dice(3, 5, 6)
    client.post(roll_url(carmen), SHOT)
    roll = Roll.objects.get()
    assert roll.record["details"]["level"] == -1
    assert roll.record["kept"] == [3]
