"""A long fight's group review in a browser: its wounds page like rolls, "Later" and
"Earlier" go both ways, with JavaScript and without it."""

import random

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from campaigns import services
from campaigns.chronicle import TIMELINE_PAGE
from campaigns.models import Membership
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services import health as health_services
from mechanics.services.rolls import roll_store
from mechanics.systems.base import DamageInput
from tests.factories import CampaignFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fight():
    """A scene of three rolls and more wounds (and their undoing) than a page holds."""
    gm = UserFactory(username="narradora")
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    lucia = make_character(campaign, None, name="Lucía", user=gm)
    scene = services.scene_create(campaign=campaign, title="La pelea", participants=[lucia])
    for seed in range(3):
        record = roll_dice(4, rng=random.Random(seed))
        roll_store(campaign=campaign, user=gm, record=record, character=lucia, scene=scene)
    for turn in range(TIMELINE_PAGE + 2):
        if turn % 2:
            health_services.health_event_undo(character=lucia, user=gm)
        else:
            health_services.character_apply_damage(
                character=lucia, user=gm, damage=DamageInput(1, "B"), scene=scene
            )
    return gm, scene


def check_both_ways(page, scene, screenshot=None) -> None:
    page.goto(scene.get_absolute_url())
    review = page.locator("#group-review")
    expect(review.locator(".scene-timeline-roll")).to_have_count(3)
    expect(review.locator(".scene-timeline-item")).to_have_count(TIMELINE_PAGE)
    expect(review.get_by_role("link", name="Anteriores")).to_have_count(0)
    review.get_by_role("link", name="Posteriores").click()
    expect(review.locator(".scene-timeline-item")).to_have_count(5)
    expect(review.locator(".scene-timeline-roll")).to_have_count(0)
    expect(review.get_by_role("link", name="Posteriores")).to_have_count(0)
    if screenshot is not None:
        screenshot(page, "second-page")
    review.get_by_role("link", name="Anteriores").click()
    expect(review.locator(".scene-timeline-roll")).to_have_count(3)
    expect(review.locator(".scene-timeline-item")).to_have_count(TIMELINE_PAGE)


def test_a_long_fight_pages_both_ways(open_as, fight, screenshot):
    gm, scene = fight
    check_both_ways(open_as(gm), scene, screenshot)


def test_a_long_fight_pages_both_ways_without_javascript(browser, live_server, fight):
    gm, scene = fight
    client = Client()
    client.force_login(gm)
    context = browser.new_context(
        java_script_enabled=False, locale="es-ES", base_url=live_server.url
    )
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    try:
        check_both_ways(context.new_page(), scene)
    finally:
        context.close()
