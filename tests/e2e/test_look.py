"""The site's look, photographed: a sheet and the campaign page at phone and desktop width,
in light and dark mode (test-results/e2e/, to be looked at)."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from campaigns.models import Campaign
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


@pytest.mark.parametrize("width", [390, 1280])
def test_the_login_page_focuses_the_user_name_when_its_address_ends_in_main(new_page, width):
    """Browsers skip autofocus when the address has a fragment: the skip link's #main,
    which the redirect to sign in keeps (a link to a page of the site followed while
    signed out). static/js/app.js focuses the field all the same."""
    call_command("seed_demo", system=["tinieblas"], stdout=io.StringIO())
    campaign = Campaign.objects.get()
    page = new_page(width=width, height=800)
    page.goto(campaign.get_absolute_url() + "#main")
    expect(page).to_have_url(f"{reverse('login')}?next={campaign.get_absolute_url()}#main")
    expect(page.locator("#id_username")).to_be_focused()
    page.goto(reverse("login") + "#main")
    expect(page.locator("#id_username")).to_be_focused()
    # Typing at once signs in.
    page.keyboard.type("ana")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator("#campaign-list .system-chip")).to_have_count(1)
