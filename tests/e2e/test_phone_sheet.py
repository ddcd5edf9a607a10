"""The sheet's layout follows play: on a phone the saved rolls, pools, health and traits
come before the long lists (merits, items, aspects, notes...); on a laptop the two columns
stay as they are. Screenshots in test-results/e2e/, to be looked at."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from characters.models import Character
from tests.e2e.test_accessibility import axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAY = ("saved-rolls", "pools", "health", "traits")
# Where each system's own long list is: it must be among the sections read after play.
OWN_LIST = {
    "tinieblas": "merits",
    "hitos": "sheet-aspects",
    "ndp": "equipment",
    "objetivo": "sheet-specialization",
}

# Every part of the sheet with its page coordinates: the play sections by name, the rest
# by id (or class), in source order.
SECTIONS = """() => {
  const sheet = document.getElementById("sheet");
  const play = {"saved-rolls": sheet.querySelector(".saved-rolls"),
                "pools": document.getElementById("sheet-resources"),
                "health": document.getElementById("sheet-health"),
                "traits": document.getElementById("sheet-traits")};
  const box = (e) => { const r = e.getBoundingClientRect();
    return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right}; };
  const others = [...sheet.querySelectorAll(".sheet-section, .sheet-notes, .sheet-description")]
    .filter((e) => !Object.values(play).includes(e) && !e.closest(".roll-dock"))
    .map((e) => [e.id || e.className, box(e)]);
  return {
    name: box(sheet.querySelector("h1")),
    play: Object.fromEntries(Object.entries(play).map(([k, e]) => [k, box(e)])),
    others: others,
    width: document.documentElement.scrollWidth,
  };
}"""


def open_sheets(open_as, width):
    """ana's demo sheet in each system, loaded at this width (with its roll panel)."""
    call_command("seed_demo", stdout=io.StringIO())
    page = open_as("ana", width=width, height=800)
    for character in Character.objects.filter(owner__username="ana").select_related("campaign"):
        page.goto(reverse("characters:sheet", args=[character.campaign_id, character.pk]))
        expect(page.locator("#sheet .roll-panel")).to_be_visible()
        yield character.campaign.system, page


def test_on_a_phone_saved_rolls_pools_health_and_traits_come_before_the_long_lists(
    open_as, screenshot
):
    seen = set()
    for system, page in open_sheets(open_as, 360):
        seen.add(system)
        layout = page.evaluate(SECTIONS)
        play, others = layout["play"], dict(layout["others"])
        assert OWN_LIST[system] in others, others.keys()
        assert "sheet-rolls" in others
        if system == "tinieblas":  # the demo sheet with notes
            assert "sheet-notes" in others
        last_play = max(box["bottom"] for box in play.values())
        for name, box in others.items():
            assert box["top"] >= last_play, f"{system}: {name} comes before a play section"
        # The name heads the sheet; the play sections keep their order among themselves.
        assert layout["name"]["bottom"] <= min(box["top"] for box in play.values())
        tops = [play[name]["top"] for name in PLAY]
        assert tops == sorted(tops), f"{system}: {tops}"
        # One column, nothing wider than the phone.
        assert layout["width"] <= 360
        assert {box["left"] for box in play.values()} == {others["sheet-rolls"]["left"]}
        screenshot(page, f"{system}-360")
        # The reordered column keeps axe's WCAG 2.1 AA rules, in both colour schemes.
        assert axe_violations(page, "light") == []
        if system == "tinieblas":
            assert axe_violations(page, "dark") == []
            assert page.evaluate(SECTIONS) == layout
            screenshot(page, f"{system}-360-dark")
            page.emulate_media(color_scheme="light")
    assert seen == set(OWN_LIST)


def test_on_a_laptop_the_sheet_keeps_its_two_columns_in_source_order(open_as, screenshot):
    seen = set()
    for system, page in open_sheets(open_as, 1280):
        seen.add(system)
        layout = page.evaluate(SECTIONS)
        play, others = layout["play"], dict(layout["others"])
        traits, pools = play["traits"], play["pools"]
        # Pools, health and the status sections in the narrow column at the right of the
        # traits, both columns starting on one line under the saved rolls.
        assert pools["left"] >= traits["right"]
        assert others["sheet-derived"]["left"] == pools["left"]
        assert others["sheet-derived"]["top"] >= play["health"]["bottom"] >= pools["bottom"]
        main_top = min(traits["top"], others.get("sheet-aspects", traits)["top"])
        assert abs(pools["top"] - main_top) < 1
        assert play["saved-rolls"]["bottom"] <= pools["top"]
        # The main column keeps the source order: the system's lists under the traits
        # (aspects above them in Hitos), the roll form last; notes stay in the header.
        if system == "hitos":
            assert others["sheet-aspects"]["bottom"] <= traits["top"]
        elif system == "objetivo":
            assert others["sheet-specialization"]["left"] == pools["left"]
        else:
            assert others[OWN_LIST[system]]["top"] >= traits["bottom"]
        assert others["sheet-rolls"]["top"] >= traits["bottom"]
        if system == "tinieblas":
            assert others["sheet-notes"]["bottom"] <= play["saved-rolls"]["top"]
        screenshot(page, f"{system}-1280")
    assert seen == set(OWN_LIST)
