"""The GM presses «Añadir al combate» with nobody ticked: the panel says, beside the list it
keeps open, to choose a character; ticking one then adds it."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_adding_nobody_asks_to_choose_a_character(open_as, screenshot, gm, player):
    campaign = campaign_with("tinieblas", gm, players=[player])
    lucia = make_character(campaign, player, name="Lucía")
    thug = make_character(campaign, None, user=gm, name="Matón")
    make_character(campaign, None, user=gm, name="Portero")
    scene = services.scene_create(campaign=campaign, title="El bar", participants=[lucia, thug])
    combat = combat_services.combat_start(scene=scene, user=gm)
    page = open_as(gm, width=360, height=780)
    page.goto(combat.get_absolute_url())
    add = page.locator(".combat-add")
    add.locator("summary").click()
    add.get_by_role("button", name="Añadir al combate").click()
    error = page.locator("#combat-add-error")
    expect(error).to_have_text("Elige al menos un personaje para añadir al combate.")
    expect(page.locator(".combat-add")).to_have_attribute("open", "")
    expect(page.get_by_role("group", name="Personajes")).to_have_accessible_description(
        "Elige al menos un personaje para añadir al combate."
    )
    screenshot(page, "add-nobody-360")
    page.get_by_label("Portero (PNJ)").check()
    page.get_by_role("button", name="Añadir al combate").click()
    expect(page.locator("#combat-status")).to_contain_text("1 personaje se une al combate.")
    expect(error).to_have_count(0)
