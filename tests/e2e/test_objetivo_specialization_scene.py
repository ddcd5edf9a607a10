"""Dado objetivo in a browser: the specialization, used once in a scene, is greyed out in
the roll panel while that scene is chosen and free again when the player picks another open
scene, without a reload of the page (docs/rules.md#objetivo-specialization)."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Scene
from characters.models import Character
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_specialization_box_follows_the_scene_chosen(open_as, screenshot):
    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("objetivo", gm, players=[player])
    pepa = make_character(
        campaign, player, name="Pepa", ratings={"fuerza": 5, "pelea": 3, "resistencia": 8}
    )
    road = Scene.objects.create(campaign=campaign, title="El camino")
    tavern = Scene.objects.create(campaign=campaign, title="La taberna")
    for scene in (road, tavern):
        scene.participants.add(pepa)
    # Used in the tavern, the scene the panel chooses first (the newest she is in).
    Character.objects.filter(pk=pepa.pk).update(
        details={"specialization": "pelea", "specialization_used_scene": tavern.pk}
    )
    page = open_as(player)
    page.goto(pepa.get_absolute_url())
    page.evaluate("window.sheetMarker = 1")
    panel = page.locator(f"#roll-panel-{pepa.pk}")
    panel.get_by_label("Habilidad", exact=True).select_option("pelea")
    box = panel.get_by_role("checkbox", name="Usar la especialización en Pelea")
    scene = panel.get_by_label("Escena de la tirada")
    expect(scene).to_have_value(str(tavern.pk))
    expect(box).to_be_disabled()
    expect(panel).to_contain_text("Ya se ha usado en esta escena.")

    scene.select_option(label="El camino")
    expect(box).to_be_enabled()
    expect(panel).to_contain_text("Una vez por escena.")
    # The choices stay as they were.
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value("pelea")
    box.check()
    expect(panel.locator(".roll-odds")).to_contain_text("dado mayor")
    screenshot(page, "another-scene")

    panel.get_by_label("Escena de la tirada").select_option(label="La taberna")
    expect(panel.get_by_role("checkbox", name="Usar la especialización en Pelea")).to_be_disabled()
    assert page.evaluate("window.sheetMarker") == 1
