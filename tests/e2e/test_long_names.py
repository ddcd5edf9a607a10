"""A name pasted whole, 120 letters with no space (a campaign's, a character's, a scene's, a
user's), wraps in its place: no page scrolls sideways, on a phone or on a desktop."""

import pytest
from playwright.sync_api import expect

from campaigns.services import scene_create
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = {"enes": "Ñ" * 120, "letters": "Abcdefghij" * 12}
SYSTEMS = ["tinieblas", "hitos", "ndp", "objetivo"]
# How far the page reaches past the window, and the element that reaches furthest.
WIDER = """() => {
  const page = document.documentElement;
  let widest = null;
  for (const element of document.body.querySelectorAll("*")) {
    const right = element.getBoundingClientRect().right;
    if (right > page.clientWidth && (!widest || right > widest.right)) {
      widest = {right: Math.round(right), tag: element.tagName, class: element.className};
    }
  }
  return page.scrollWidth > page.clientWidth ? {scrollWidth: page.scrollWidth, widest} : null;
}"""


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_a_long_unbroken_name_never_makes_a_page_scroll_sideways(open_as, screenshot, name):
    gm = UserFactory(username=name)
    player = UserFactory(username=f"J{name}")
    tables = {}
    for system in SYSTEMS:
        campaign = campaign_with(system, gm, players=[player], name=name)
        character = make_character(campaign, player, name=name, concept=name)
        npc = make_character(campaign, user=gm, name=name)
        scene = scene_create(
            campaign=campaign, title=name, place=name, participants=[character, npc]
        )
        tables[system] = (campaign, character, scene)

    wider = {}
    for user in (gm, player):
        page = open_as(user, width=360, height=800)
        for width in (360, 1280):
            page.set_viewport_size({"width": width, "height": 800})

            def check(label, url, holds_name, page=page, width=width, user=user):
                page.goto(url)
                # The element that holds the name is there (the sheet's roll panel, which
                # names the character too, comes after the page).
                expect(holds_name(page)).to_be_visible()
                if overflow := page.evaluate(WIDER):
                    wider[f"{user.username[0]} {width} {label}"] = overflow

            check("campaigns", "/campaigns/", lambda page: page.locator(".campaign-card").first)
            if width == 360:
                # The menu, opened, names the user.
                page.get_by_role("button", name="Menú").click()
                expect(page.get_by_role("button", name=user.username)).to_be_visible()
                if overflow := page.evaluate(WIDER):
                    wider[f"{user.username[0]} {width} menu"] = overflow
            campaign, character, scene = tables["tinieblas"]

            def heading(page):
                return page.locator("main :is(h1, h2)", has_text=name).first

            check("campaign", campaign.get_absolute_url(), heading)
            check("scene", scene.get_absolute_url(), heading)
            check("chronicle", f"/campaigns/{campaign.pk}/scenes/", heading)
            for system, (_campaign, character, _scene) in tables.items():
                check(
                    f"{system} sheet",
                    character.get_absolute_url(),
                    lambda page, pk=character.pk: page.locator(f"#roll-panel-{pk}"),
                )
                if width == 360 and system == "tinieblas" and user == player:
                    screenshot(page, "sheet-360")
    assert wider == {}
