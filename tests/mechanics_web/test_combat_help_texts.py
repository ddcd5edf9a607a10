"""The GM's attack form: every help text a field points to (aria-describedby) is on the
page, for every system; the players and strangers do not get the form."""

import re

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.services import combat as combat_services
from mechanics.systems.registry import all_systems
from tests.factories import make_character

pytestmark = pytest.mark.django_db
DESCRIBED_BY = re.compile(r'aria-describedby="([^"]+)"')


@pytest.fixture(params=[system.key for system in all_systems()])
def combat(request, campaign, gm, player):
    campaign.system = request.param
    campaign.save(update_fields=["system"])
    fighters = [
        make_character(campaign, player, name="Lucía"),
        make_character(campaign, None, name="Matón", user=gm),
    ]
    scene = services.scene_create(campaign=campaign, title="La pelea", participants=fighters)
    return combat_services.combat_start(scene=scene, user=gm)


def _page(client, combat):
    url = reverse("mechanics:combat", args=[combat.scene.campaign_id, combat.scene_id])
    return client.get(url, follow=True)


def test_every_help_text_the_attack_form_points_to_is_rendered(client, gm, combat):
    client.force_login(gm)
    html = _page(client, combat).content.decode()
    pointed = [name for found in DESCRIBED_BY.findall(html) for name in found.split()]
    assert any(name.endswith("_helptext") for name in pointed)
    assert [name for name in pointed if f'id="{name}"' not in html] == []


def test_a_player_gets_no_attack_form_and_a_stranger_no_page(client, player, stranger, combat):
    client.force_login(player)
    page = _page(client, combat)
    assert page.status_code == 200
    assert 'id="combat-attack"' not in page.content.decode()
    client.force_login(stranger)
    assert _page(client, combat).status_code == 404
