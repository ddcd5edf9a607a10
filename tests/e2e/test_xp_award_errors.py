"""The award panel says what is wrong in the row it marks, even for a forged menu value."""

import pytest
from playwright.sync_api import expect

from campaigns import services as campaign_services
from characters.models import XpEntry
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_forged_bribe_is_named_in_its_row(open_as, screenshot):
    gm = UserFactory(username="narradora")
    pablo = UserFactory(username="pablo")
    campaign = campaign_with("tinieblas", gm, players=[pablo])
    lucia = make_character(campaign, pablo, name="Lucía")
    scene = campaign_services.scene_create(
        campaign=campaign, title="El claustro", participants=[lucia]
    )
    page = open_as("narradora")
    page.goto(f"/campaigns/{campaign.pk}/characters/xp/scenes/{scene.pk}/")
    # What a crafted request sends: a bribe beyond the menu's 0–5.
    page.locator(f"#id_c{lucia.pk}-sobornos").evaluate(
        "select => { select.add(new Option('99', '99')); select.value = '99'; }"
    )
    page.get_by_role("button", name="Dar los PX", exact=True).click()
    expect(page.get_by_text("Revisa las filas marcadas.")).to_be_visible()
    expect(page.locator(f"#id_c{lucia.pk}-sobornos-error")).to_have_text(
        "Elige una opción válida. 99 no es una de las opciones disponibles."
    )
    screenshot(page, "forged-bribe-1280")
    assert not XpEntry.objects.exists()
