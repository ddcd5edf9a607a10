"""The logs' filters follow the table: a scene the GM creates while a player reads the roll
log or the XP log appears in the open log's scene menu without a reload, the scene she had
chosen still chosen; a filter being filled in is left as it is while the rolls below it
follow."""

import pytest
from playwright.sync_api import expect

from campaigns.services import scene_create
from tests.e2e.test_live_table import live, not_reloaded
from tests.factories import UserFactory, campaign_with
from tests.mechanics_web.rolls import store_roll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_new_scene_reaches_the_open_logs_scene_menu_keeping_the_filters(open_live, screenshot):
    gm, ana = UserFactory(username="narradora"), UserFactory(username="ana")
    campaign = campaign_with("tinieblas", gm, players=[ana], name="La mesa")
    crypt = scene_create(campaign=campaign, title="La cripta")
    in_crypt = store_roll(campaign, ana, scene=crypt, label="Sigilo en la cripta")
    log = f"/campaigns/{campaign.pk}/rolls/"

    # Ana reads the crypt's rolls; the GM reads the whole log and is typing a date.
    ana_page, gm_page = open_live(ana, width=390, height=844), open_live(gm)
    live(ana_page, f"{log}?scene={crypt.pk}")
    live(gm_page, log)
    ana_scenes = ana_page.locator("#roll-filters").get_by_label("Escena")
    expect(ana_scenes).to_have_value(str(crypt.pk))
    gm_filters = gm_page.locator("#roll-filters")
    gm_filters.get_by_label("Desde").fill("2025-03-02")
    gm_page.evaluate("document.activeElement.blur()")

    cloister = scene_create(campaign=campaign, title="El claustro")
    expect(ana_scenes.locator(f'option[value="{cloister.pk}"]')).to_have_text("El claustro")
    expect(ana_scenes).to_have_value(str(crypt.pk))
    expect(ana_page.locator(f'#roll-log-results [data-roll="{in_crypt.pk}"]')).to_be_visible()
    screenshot(ana_page, "new-scene-in-menu-390")

    # The GM's filters, being filled in, are spared: a roll reaches the list below them
    # (so the page was refreshed), and the date typed is still there.
    new_roll = store_roll(campaign, ana, label="Otra tirada")
    expect(gm_page.locator(f'#roll-log-results [data-roll="{new_roll.pk}"]')).to_be_visible()
    expect(gm_filters.get_by_label("Desde")).to_have_value("2025-03-02")
    screenshot(gm_page, "typed-date-kept")

    for page in (ana_page, gm_page):
        assert not_reloaded(page)


def test_a_new_scene_reaches_the_open_xp_logs_scene_menu_keeping_the_chosen_scene(
    open_live, screenshot
):
    gm, ana = UserFactory(username="narradora"), UserFactory(username="ana")
    campaign = campaign_with("tinieblas", gm, players=[ana], name="La mesa")
    crypt = scene_create(campaign=campaign, title="La cripta")
    page = open_live(ana, width=390, height=844)
    live(page, f"/campaigns/{campaign.pk}/characters/xp/?scene={crypt.pk}")
    scenes = page.locator("#xp-filters").get_by_label("Escena")
    expect(scenes).to_have_value(str(crypt.pk))

    cloister = scene_create(campaign=campaign, title="El claustro")
    expect(scenes.locator(f'option[value="{cloister.pk}"]')).to_have_text("El claustro")
    expect(scenes).to_have_value(str(crypt.pk))
    screenshot(page, "new-scene-in-xp-menu-390")
    assert not_reloaded(page)
