"""Tick boxes are touch targets on a phone (DESIGN): the campaign's settings, which a GM
changes on the phone at the table."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory, campaign_with

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TOUCH_PX = 44


def test_the_campaign_settings_tick_boxes_are_touch_targets_on_a_phone(open_as, screenshot):
    gm = UserFactory(username="narradora")
    campaign = campaign_with("tinieblas", gm, name="La mesa")
    page = open_as(gm, width=390, height=844)
    page.goto(f"/campaigns/{campaign.pk}/edit/")
    approval = page.get_by_label("Las compras con PX esperan la aprobación del máster")
    expect(approval).to_be_visible()
    screenshot(page, "campaign-settings-390")
    rows = page.locator("form .form-check:visible")
    assert rows.count() >= 3
    for index in range(rows.count()):
        row = rows.nth(index).bounding_box()
        box = rows.nth(index).locator(".form-check-input").bounding_box()
        assert row["height"] >= TOUCH_PX - 0.5, rows.nth(index).inner_text()
        assert min(box["width"], box["height"]) >= 22, rows.nth(index).inner_text()
        # The label beside its box, not pushed below it.
        label = rows.nth(index).locator(".form-check-label").bounding_box()
        assert label["y"] < box["y"] + box["height"], rows.nth(index).inner_text()
    # A tap anywhere on the row's label ticks it.
    page.get_by_text("Las compras con PX esperan la aprobación del máster").click()
    expect(approval).to_be_checked()
