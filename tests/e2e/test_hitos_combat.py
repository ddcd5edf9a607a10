"""Hitos aspects against a roll, in a browser: in the combat panel the GM has the target
activate its own aspect against the attack; in a player's roll panel the GM has a rival
use her aspect against her. The odds say the roll keeps m, and the drama points move."""

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


def test_gm_hinders_a_players_roll_with_her_own_aspect_and_she_gains_the_point(open_as):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    pepa = make_character(campaign, player, name="Pepa", ratings={"reflejos": 4})
    rival = make_character(campaign, None, user=gm, name="Rival")
    aspect_add(character=pepa, user=gm, kind="complicacion", text="Cojo")

    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{pepa.pk}/roll/")
    panel = page.locator(f"#roll-panel-{pepa.pk}")
    panel.get_by_label("Un rival activa un aspecto contra esta tirada").select_option(label="Rival")
    panel.get_by_label("Aspecto del rival").select_option(label="Cojo")
    expect(panel).to_contain_text("Rival activa «Cojo» contra esta tirada: se queda con m.")
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{pepa.pk} .roll-card")).to_be_visible()
    assert Resource.objects.get(character=rival, key="drama_points").current == 2
    assert Resource.objects.get(character=pepa, key="drama_points").current == 4
