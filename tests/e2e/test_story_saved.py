"""Saving a sheet's story in place says so, and the notice stays while the page's own
live refresh (the change the save made, heard on the stream) comes and goes; the GM,
watching the sheet in a second browser, sees the new name without a reload."""

import json

import pytest
from playwright.sync_api import expect

from campaigns.permissions import character_access
from characters.views.sheet_context import live_version
from tests.e2e.test_sheet import objetivo_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_saving_the_story_in_place_says_so_and_the_notice_stays(open_live, screenshot):
    character, gm, player = objetivo_character()
    watcher = open_live(gm)
    watcher.goto(character.get_absolute_url())
    page = open_live(player)
    page.goto(character.get_absolute_url())
    expect(page.locator("main[data-live=up]")).to_have_count(1)
    page.evaluate("window.sheetMarker = 1")
    story = page.locator("#sheet-story")
    story.get_by_role("link", name="Editar").click()
    page.get_by_role("textbox", name="Nombre").fill("Fred el Rojo")
    story.get_by_role("button", name="Guardar").click()
    notice = page.locator("#sheet-story-status")
    expect(notice).to_have_text("Ficha guardada.")
    # The page hears of its own change and refreshes its live parts up to the new version.
    version = live_version(character_access(player, character.campaign_id, character.pk))
    expect(page.locator("#live-refresh")).to_have_attribute(
        "hx-headers", json.dumps({"X-Cronica-Since": version})
    )
    expect(notice).to_have_text("Ficha guardada.")
    expect(story.locator("h1")).to_have_text("Fred el Rojo")
    assert page.evaluate("window.sheetMarker") == 1
    expect(watcher.locator("#sheet-story h1")).to_have_text("Fred el Rojo")
    expect(watcher.locator("#sheet-story-status")).to_have_text("")
    screenshot(page, "story-saved")
    # Editing again empties it: it spoke of the last save.
    story.get_by_role("link", name="Editar").click()
    expect(page.get_by_role("textbox", name="Nombre")).to_have_value("Fred el Rojo")
    expect(notice).to_have_text("")
