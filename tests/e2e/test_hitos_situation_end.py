"""The GM ends a Hitos situation aspect in a browser and is told so (it answered 500)."""

import pytest
from playwright.sync_api import expect

from campaigns import services as campaign_services
from mechanics.models import SituationAspect
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_gm_ends_a_situation_aspect(open_as):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    pepa = make_character(campaign, player, name="Pepa")
    scene = campaign_services.scene_create(
        campaign=campaign, title="El muelle", participants=[pepa]
    )
    aspect = SituationAspect.objects.create(scene=scene, text="Niebla espesa")

    page = open_as(gm)
    page.goto(scene.get_absolute_url())
    page.get_by_role("link", name="Aspectos de situación y hechos narrativos").click()
    page.locator(f"#situation-{aspect.pk}").get_by_role("button", name="Terminarlo").click()
    expect(page.get_by_text("El aspecto de situación «Niebla espesa» termina.")).to_be_visible()
    expect(page.locator(f"#situation-{aspect.pk} .badge")).to_have_text("terminado")
