"""A Hitos scene in a browser: the GM writes a situation aspect, the player declares a
narrative fact with it for a drama point, and the fact is in the scene's record."""

import pytest
from playwright.sync_api import expect

from campaigns import services as campaign_services
from characters.models import Resource
from mechanics.models import NarrativeFact
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_the_gm_sets_a_situation_aspect_and_the_player_declares_a_fact_with_it(
    open_as, screenshot, width
):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    pepa = make_character(campaign, player, name="Pepa")
    scene = campaign_services.scene_create(
        campaign=campaign, title="El muelle", participants=[pepa]
    )
    points = Resource.objects.get(character=pepa, key="drama_points").current

    page = open_as("narradora", width=width, height=900)
    page.goto(scene.get_absolute_url())
    page.get_by_role("link", name="Aspectos de situación y hechos narrativos").click()
    page.get_by_label("Aspecto de la situación").fill("Niebla espesa")
    page.get_by_role("button", name="Añadir a la escena").click()
    aspects = page.locator("#situation-aspects li.situation-aspect .situation-text")
    expect(aspects).to_have_text(["Niebla espesa"])
    screenshot(page, f"gm-situation-{width}")

    page = open_as("jugadora", width=width, height=900)
    page.goto(scene.get_absolute_url())
    page.get_by_role("link", name="Aspectos de situación y hechos narrativos").click()
    expect(page.locator("#fact-pool")).to_have_text(f"Pepa tiene {points} puntos dramáticos.")
    page.get_by_label("Aspecto que activas").select_option(label="El muelle: Niebla espesa")
    page.get_by_label("El hecho").fill("Entre la niebla, el bote de los contrabandistas encalla.")
    page.get_by_role("button", name="Declarar el hecho").click()
    facts = page.locator("#narrative-facts article.narrative-fact")
    expect(facts).to_have_count(1)
    expect(facts.locator(".fact-text")).to_have_text(
        "Entre la niebla, el bote de los contrabandistas encalla."
    )
    expect(facts.locator(".fact-cost")).to_have_text(
        "Activando «Niebla espesa» por un punto dramático."
    )
    expect(page.locator("#fact-pool")).to_have_text(f"Pepa tiene {points - 1} puntos dramáticos.")
    screenshot(page, f"player-fact-{width}")

    page.goto(scene.get_absolute_url())
    expect(page.locator(".scene-timeline-fact")).to_contain_text("Hecho narrativo de Pepa")
    screenshot(page, f"scene-timeline-{width}")
    assert NarrativeFact.objects.get().character == pepa
