"""3d6 + NdP Auxiliar in a browser: the GM sees the odds of the healer's roll before
rolling, they follow the adversity and the limb the healer uses (a fractured one takes 2d4),
and the treatment is rolled from the same form."""

import pytest
from playwright.sync_api import expect

from mechanics.models import HealthEvent
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_gm_sees_the_auxiliar_odds_change_with_the_adversity_and_treats(open_as, screenshot):
    gm = UserFactory(username="narradora")
    bob = UserFactory(username="bob")
    campaign = CampaignFactory(name="Las Marcas", system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=bob, role="player")
    hero = make_character(campaign, bob, name="Héroe", ratings={"auxiliar": 4})
    for _ in range(2):  # two grave cortante wounds on the torso: Hemorragia leve
        health_services.character_apply_damage(
            character=hero, user=gm, damage=DamageInput(8, "cortante", rd=4, part="torso")
        )
    for _ in range(2):  # two grave contundente wounds on the left arm: Fracturado
        health_services.character_apply_damage(
            character=hero, user=gm, damage=DamageInput(5, "contundente", part="brazo_izquierdo")
        )
    page = open_as(gm)
    page.goto(f"/campaigns/{campaign.pk}/characters/{hero.pk}/")
    panel = page.locator("#health-auxiliar")
    panel.locator("summary").click()
    odds = page.locator("#health-auxiliar-odds")
    expect(odds).to_contain_text("Elige quién cura")
    panel.get_by_label("Quién cura").select_option(label="Héroe")
    success = odds.locator(".odds-success data")
    # Auxiliar 4 must exceed 9: 3d6 ≥ 6, all but 10 of the 216 throws.
    expect(success).to_have_attribute("value", repr(206 / 216))
    expect(odds.locator(".roll-summary")).to_have_text("3d6 + 4 contra 9")
    panel.get_by_label("Adversidad que superar").fill("15")
    # Against 15: 3d6 ≥ 12, 81 of the 216 throws.
    expect(success).to_have_attribute("value", repr(81 / 216))
    expect(odds.locator(".roll-summary")).to_have_text("3d6 + 4 contra 15")
    # Héroe treats himself with his fractured left arm: 2 Desgracias.
    panel.get_by_label("Extremidad con la que cura").select_option(label="Brazo izquierdo")
    expect(odds.locator(".roll-summary")).to_have_text("3d6 + 4 − 2d4 contra 15")
    expect(odds).to_contain_text("Desgracias por Fracturado −2d4")
    screenshot(page, "odds")
    panel.get_by_role("button", name="Tirar Auxiliar").click()
    expect(page.locator(".health-notice")).to_contain_text("contra 15")
    assert HealthEvent.objects.filter(character=hero, kind="treatment").count() == 1
    screenshot(page, "treated")
