"""Friction (issue 14): no console errors while clicking dots during creation."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_character_creation import dots
from tests.factories import UserFactory, campaign_with

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_clicking_dots_during_creation_logs_no_console_error(open_as):
    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("tinieblas", gm, players=[player])
    page = open_as(player, width=360, height=780)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/campaigns/{campaign.pk}/characters/new/")
    expect(page.locator("#left-attributes-mental")).to_have_text("quedan 5")
    clicks = [
        ("Inteligencia", 3, "attr_inteligencia"),
        ("Inteligencia", 1, "attr_inteligencia"),
        ("Fuerza", 5, "attr_fuerza"),
        ("Academicismo", 3, "skill_academicismo"),
        ("Mérito 1: puntos", 2, "merit_0_dots"),
    ]
    for name, value, field in clicks:
        dots(page, name, value)
        expect(page.locator(f"input[name={field}]:checked")).to_have_value(str(value))
    # The last answer of the points counter has come: Fuerza 5 costs 5 (the fifth dot 2).
    expect(page.locator("#creation-points [data-budget=attributes-physical]")).to_contain_text("5")
    page.wait_for_load_state("networkidle")
    assert errors == []
