"""The GM changes a house rule on the campaign form and the player's open sheet follows
without a reload: its derived Defensa moves with the rule."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RATINGS = {"destreza": 4, "armas_cc": 3, "pelea": 2, "resistencia": 6, "percepcion": 3}


def test_a_house_rule_reaches_the_players_open_sheet(open_live, screenshot):
    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("objetivo", gm, players=[player])
    carmen = make_character(campaign, player, name="Carmen", ratings=RATINGS)
    sheet = open_live(player)
    sheet.goto(carmen.get_absolute_url())
    expect(sheet.locator("main[data-live=up]")).to_have_count(1)
    sheet.evaluate("window.sheetMarker = 1")
    defensa = sheet.locator("#sheet-derived div", has_text="Defensa (Armas CC)").locator("dd")
    expect(defensa).to_have_text("12")

    page = open_live(gm)
    page.goto(f"/campaigns/{campaign.pk}/edit/")
    page.locator("[name=rule_objetivo_defense_base]").fill("8")
    page.get_by_role("button", name="Guardar").click()
    expect(page.get_by_text("Campaña guardada.")).to_be_visible()

    expect(defensa).to_have_text("15")
    assert sheet.evaluate("window.sheetMarker") == 1
    screenshot(sheet, "sheet-after-the-house-rule")
