"""A stale link in a browser: a scene deleted since the link was shared opens the site's
own "not found" page, in Spanish, with the menu and the way back to the campaigns."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Scene
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_player_following_a_stale_link_finds_the_way_back(open_as, screenshot, width):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("tinieblas", gm, players=[player], name="Sombras de Toledo")
    hero = make_character(campaign, player, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="La cripta", participants=[hero])
    stale = scene.get_absolute_url()
    Scene.objects.filter(pk=scene.pk).delete()

    page = open_as("jugadora", width=width, height=800)
    response = page.goto(stale)
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Página no encontrada")
    expect(page).to_have_title("Página no encontrada · Crónica")
    screenshot(page, "not-found")
    page.get_by_role("link", name="Ir a mis campañas").click()
    expect(page.locator("#campaign-list")).to_contain_text("Sombras de Toledo")
