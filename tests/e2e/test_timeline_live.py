"""The chronicle's list of scenes follows the table: a player's open list shows the GM's
new scene without a reload, and a later page of it stays that page."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.views.chronicle import SCENES_PER_PAGE
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_players_open_chronicle_shows_the_gms_new_scene(open_as, screenshot):
    gm = UserFactory(username="narradora")
    pablo = UserFactory(username="pablo")
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=pablo, role="player")
    for number in range(SCENES_PER_PAGE + 1):
        services.scene_create(campaign=campaign, title=f"Escena {number}")
    page = open_as("pablo", width=390, height=844)
    page.goto(f"/campaigns/{campaign.pk}/scenes/")
    scenes = page.locator("#scene-list")
    expect(scenes.locator(".scene-card")).to_have_count(SCENES_PER_PAGE)

    services.scene_create(campaign=campaign, title="El túnel sin salida")
    expect(scenes.locator(".scene-card").first).to_contain_text("El túnel sin salida")
    screenshot(page, "new-scene-390")

    # On the second page, a change refreshes the second page.
    scenes.get_by_role("link", name="Más antiguos").click()
    expect(scenes).to_contain_text("Página 2 de 2")
    services.scene_create(campaign=campaign, title="La estación cerrada")
    expect(scenes.locator(".scene-card")).to_have_count(3)
    expect(scenes).to_contain_text("Página 2 de 2")
    expect(scenes).not_to_contain_text("La estación cerrada")
