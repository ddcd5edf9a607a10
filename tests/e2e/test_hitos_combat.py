"""Hitos aspects in the combat panel, in a browser: the GM has the target activate its
own aspect against the attack, the odds say the attack keeps m, and the roll takes the
target's drama point."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from characters.models import Resource
from characters.services import aspect_add
from mechanics.services import combat as combat_services
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_gm_has_the_target_hinder_the_attack_with_an_aspect(open_as, screenshot):
    gm = UserFactory(username="narradora")
    campaign = campaign_with("hitos", gm, name="Mesa")
    hero = make_character(
        campaign, None, user=gm, name="Héroe", ratings={"reflejos": 4, "combate": 4}
    )
    foe = make_character(campaign, None, user=gm, name="Sicario", ratings={"reflejos": 1})
    aspect_add(character=foe, user=gm, kind="complicacion", text="Escurridizo")
    scene = services.scene_create(campaign=campaign, title="Azotea", participants=[hero, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)

    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/{combat.pk}/")
    form = page.locator("#combat-attack")
    form.locator("#id_attacker").select_option(label="Héroe")
    form.locator("#id_target").select_option(label="Sicario")
    form.get_by_label("El objetivo activa un aspecto").select_option(label="Escurridizo")
    expect(page.locator("#combat-odds")).to_contain_text(
        "Sicario activa «Escurridizo»: el ataque se queda con m."
    )
    screenshot(page, "hitos-combat-aspects")
    page.get_by_role("button", name="Tirar el ataque").click()
    expect(page.locator("#combat-panel .alert-success")).to_be_visible()
    assert Resource.objects.get(character=foe, key="drama_points").current == 2
