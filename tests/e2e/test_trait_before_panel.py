"""A trait tapped while the sheet's roll panel is still on its way: the panel opens with
that trait chosen, even when the first load answers between the tap and the trait's own
answer (roll-dock.js: the tap cancels the load)."""

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.test_roll import lucia

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_trait_tapped_before_the_panel_loaded_stays_chosen(open_as):
    campaign, character = lucia()
    page = open_as("jugadora", width=360, height=800)
    held = {}
    roll_url = re.compile(rf"/characters/{character.pk}/roll/")

    def kind(request) -> str:
        return "trait" if "trait=" in request.url else "load"

    # A slow connection: every request for the panel waits until the test lets it go.
    page.route(roll_url, lambda route: held.setdefault(kind(route.request), route))
    with page.expect_request(lambda request: bool(roll_url.search(request.url))):
        page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    with page.expect_request(lambda request: "trait=" in request.url):
        page.get_by_role("link", name="Tirar Investigación").click()

    # The sheet's first load answers first, then the trait's request.
    with contextlib.suppress(PlaywrightError):  # cancelled by the tap
        held["load"].continue_()
    held["trait"].continue_()
    skill = page.locator(f"#roll-panel-{character.pk}").get_by_label("Habilidad", exact=True)
    expect(skill).to_have_value("investigacion")
