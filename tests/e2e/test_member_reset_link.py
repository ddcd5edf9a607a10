"""A GM makes a password link for a player without an email address; the player uses it."""

import pytest
from playwright.sync_api import expect

from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_gm_makes_a_password_link_and_the_player_chooses_a_new_password(
    open_as, new_page, screenshot
):
    gm = UserFactory(username="master")
    player = UserFactory(username="pablo")
    campaign = CampaignFactory(created_by=gm, name="Sombras de Toledo")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")

    gm_page = open_as(gm)
    gm_page.goto(f"/campaigns/{campaign.pk}/")
    members = gm_page.locator("#members")
    # The GM's forms for the members load when the panel is first opened.
    members.get_by_text("Gestionar miembros").click()
    members.get_by_role("button", name="Enlace de contraseña").click()
    heading = "Un enlace para que pablo elija una contraseña nueva"
    expect(gm_page.get_by_role("heading", name=heading)).to_be_visible()
    link = gm_page.locator("[data-reset-link]").inner_text().strip()
    screenshot(gm_page, "gm-password-link")

    player_page = new_page(width=360, height=780)
    player_page.goto(link)
    expect(player_page.get_by_role("heading", name="Elige una contraseña nueva")).to_be_visible()
    player_page.locator("#id_new_password1").fill("faro-de-finisterre-77")
    player_page.locator("#id_new_password2").fill("faro-de-finisterre-77")
    player_page.get_by_role("button", name="Guardar la contraseña").click()
    expect(player_page.get_by_role("heading", name="Contraseña guardada")).to_be_visible()

    player_page.get_by_role("link", name="Iniciar sesión").last.click()
    player_page.locator("#id_username").fill("pablo")
    player_page.locator("#id_password").fill("faro-de-finisterre-77")
    player_page.locator("main form [type=submit]").click()
    expect(player_page.get_by_role("heading", name="Mis campañas")).to_be_visible()

    # Used once: the same link no longer opens the form.
    player_page.goto(link)
    expect(player_page.get_by_text("Este enlace ya no sirve", exact=False)).to_be_visible()
