"""A Hitos character's concept is its Concepto aspect in a browser: the player edits her
concept on the sheet, and the aspect follows on her page, with no reload
(docs/rules.md#hitos-aspects)."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_player_edits_her_concept_and_the_concepto_aspect_follows(open_as, screenshot):
    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    irene = make_character(
        campaign,
        player,
        name="Irene",
        concept="Periodista sin miedo",
        aspects=[("concepto", "Periodista sin miedo")],
    )
    concepto = irene.aspects.get(kind="concepto")
    page = open_as(player, width=360, height=800)
    page.goto(irene.get_absolute_url())
    page.evaluate("window.sheetMarker = 1")
    page.locator("#sheet-story").get_by_role("link", name="Editar").click()
    concept = page.get_by_role("textbox", name="Concepto")
    expect(page.locator("#id_story-concept_helptext")).to_contain_text(
        "También es el aspecto Concepto"
    )
    concept.fill("Periodista retirada")
    page.get_by_role("button", name="Guardar").click()
    expect(page.locator("#sheet-story")).to_contain_text("Periodista retirada")
    expect(page.locator(f"#aspect-{concepto.pk}")).to_contain_text("Periodista retirada")
    page.locator(f"#aspect-{concepto.pk}").scroll_into_view_if_needed()
    screenshot(page, "concept-and-aspect-360")
    assert page.evaluate("window.sheetMarker") == 1
