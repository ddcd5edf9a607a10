"""The site's look, photographed: a sheet and the campaign page at phone and desktop width,
in light and dark mode (test-results/e2e/, to be looked at)."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.played import PASSWORD, played_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_a_sheet_and_the_campaign_page_wear_the_sites_look(new_page, screenshot, width, scheme):
    campaigns = played_table()
    page = new_page(width=width, height=800)
    page.emulate_media(color_scheme=scheme)
    page.goto(reverse("login"))
    # The login page opens with the focus on the user name (Django's autofocus).
    expect(page.locator("#id_username")).to_be_focused()
    page.locator("#id_username").fill("ana")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form [type=submit]").click()
    expect(page.locator("#campaign-list .system-chip")).to_have_count(4)
    screenshot(page, f"campaigns-{width}-{scheme}")
    accents = {}
    for system, (campaign, _scene, character) in campaigns.items():
        page.goto(reverse("campaigns:detail", args=[campaign.pk]))
        expect(page.locator("body")).to_have_attribute("data-system", system)
        accents[system] = page.locator(".system-chip").first.evaluate(
            "e => getComputedStyle(e).backgroundColor"
        )
        if system in {"tinieblas", "ndp"}:
            screenshot(page, f"campaign-{system}-{width}-{scheme}")
        page.goto(reverse("characters:sheet", args=[campaign.pk, character.pk]))
        expect(page.locator(".roll-panel")).to_be_visible()
        screenshot(page, f"sheet-{system}-{width}-{scheme}")
    # Each system's own stylesheet gives it an accent of its own.
    assert len(set(accents.values())) == len(campaigns) == 4
