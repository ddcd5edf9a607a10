"""Lists show their chosen text whole, on a phone and a laptop: the roll panel's, in every
system and every kind of roll (a list as wide as its longest choice, beside another only
where both fit: static/css/dice.css), and the roll log's filters. Only a choice wider than
the whole form is cut."""

import pytest
from django.urls import reverse

from tests.e2e.played import played_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Each visible list of the panel: its name, whether its chosen text is cut, and whether
# it has its row to itself (no wider it can get).
LISTS = """form => [...form.querySelectorAll("select")].filter(list => list.offsetParent)
  .map(list => {
    const style = getComputedStyle(list);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = style.font;
    const room = list.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const chosen = list.options[list.selectedIndex]?.text ?? "";
    const cell = list.closest(".roll-cell, [class*='col-']") ?? list;
    const row = cell.parentElement.getBoundingClientRect().width;
    return {name: list.name, chosen, cut: pen.measureText(chosen).width > room,
            alone: cell.getBoundingClientRect().width >= row - 1};
  })"""


@pytest.mark.parametrize("width", [360, 1280])
def test_no_list_of_the_roll_panel_cuts_its_choice_beside_another(open_as, screenshot, width):
    campaigns = played_table()
    page = open_as("ana", width=width, height=900)
    cut = []
    for system, (campaign, _scene, character) in campaigns.items():
        page.goto(reverse("mechanics:roll", args=[campaign.pk, character.pk]))
        panel = page.locator(".roll-panel")
        kinds = panel.locator(".roll-kinds label")
        for index in range(kinds.count()):
            kinds.nth(index).click()
            shown = panel.locator(".roll-kinds input").nth(index)
            assert shown.is_checked()
            for found in panel.evaluate(LISTS):
                if found["cut"] and not found["alone"]:
                    cut.append(
                        (system, kinds.nth(index).inner_text(), found["name"], found["chosen"])
                    )
        screenshot(page, system)
    assert cut == []


@pytest.mark.parametrize("width", [360, 1280])
def test_the_roll_log_filters_show_their_choice(open_as, width):
    campaigns = played_table("tinieblas")
    campaign = campaigns["tinieblas"][0]
    page = open_as("master", width=width, height=900)
    page.goto(reverse("mechanics:log", args=[campaign.pk]))
    found = page.locator("#roll-filters").evaluate(LISTS)
    assert {entry["name"] for entry in found} >= {"character", "scene"}
    assert [entry for entry in found if entry["cut"] and not entry["alone"]] == []


def test_the_campaign_forms_lists_show_their_choice_whole_on_a_phone(open_as, screenshot):
    """No list of the new campaign's form cuts its choice at 360 px, not even one with its
    row to itself: the XP rubric's default says "As the system says" in the list and names
    the systems below it."""
    from tests.factories import UserFactory

    UserFactory(username="master")
    page = open_as("master", width=360, height=800)
    page.goto(reverse("campaigns:create"))
    form = page.locator("main form").first
    found = form.evaluate(LISTS)
    assert "xp_rubric" in {entry["name"] for entry in found}
    assert [entry for entry in found if entry["cut"]] == []
    screenshot(page, "campaign-form")
