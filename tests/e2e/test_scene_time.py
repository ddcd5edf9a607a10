"""The scene page's "time passes" card keeps what the GM typed when it is refused."""

import pytest
from playwright.sync_api import expect

from campaigns import services as campaign_services
from mechanics.models import HealthEvent
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_time_without_an_amount_is_refused_with_the_reason_and_unit_kept(open_as, screenshot):
    gm = UserFactory(username="narradora")
    pablo = UserFactory(username="pablo")
    campaign = campaign_with("tinieblas", gm, players=[pablo])
    lucia = make_character(campaign, pablo, name="Lucía")
    scene = campaign_services.scene_create(
        campaign=campaign, title="El camino a Toledo", participants=[lucia]
    )
    page = open_as("narradora", width=390, height=844)
    page.goto(scene.get_absolute_url())
    card = page.locator("#scene-time")
    card.get_by_label("Motivo").fill("Viaje a Toledo")
    card.locator("#scene-time-rested").uncheck()
    card.get_by_label("Unidad").select_option("days")
    # The amount left empty: the browser lets it go, the server refuses it.
    card.get_by_role("button", name="Que pase").click()
    expect(card.locator("#scene-time-error")).to_have_text("Di cuánto tiempo pasa.")
    expect(card.get_by_label("Motivo")).to_have_value("Viaje a Toledo")
    expect(card.get_by_label("Unidad")).to_have_value("days")
    expect(card.locator("#scene-time-rested")).not_to_be_checked()
    screenshot(page, "time-refused-390")
    card.get_by_label("Cantidad").fill("3")
    card.get_by_role("button", name="Que pase").click()
    expect(page.get_by_text("3 días han pasado para 1 personaje.")).to_be_visible()
    screenshot(page, "time-after-refusal-390")
    event = HealthEvent.objects.get()
    assert (event.reason, event.inputs) == ("Viaje a Toledo", {"hours": 72, "rested": False})
