"""A 3d6 + NdP mage in a browser casts a spell that leaves too little Prana for the same one
again: the success is shown without an error, only a note; a second cast is refused with
the reason and rolls nothing (docs/rules.md#ndp-magic)."""

import pytest
from playwright.sync_api import expect

from characters.models import Resource
from mechanics.models import Roll
from tests.factories import UserFactory, campaign_with, make_character
from tests.mechanics import rolling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
fixed_dice = rolling.fixed_dice


def test_ndp_spell_success_shows_no_error_and_a_cast_without_prana_is_refused(
    open_as, screenshot, fixed_dice
):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="ana")
    campaign = campaign_with("ndp", gm, players=[player], name="Las Marcas")
    sigrid = make_character(
        campaign, player, name="Sigrid", ratings={"voluntad": 2, "arcano": 2, "vitalidad": 1}
    )

    page = open_as("ana", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{sigrid.pk}/roll/")
    panel = page.locator(f"#roll-panel-{sigrid.pk}")
    panel.locator(".roll-kinds label", has_text="Conjuro arcano").click()
    panel.get_by_label("Poder (1 daño)").fill("9")
    panel.get_by_label("Poder (1 daño)").blur()
    odds = page.locator(f"#roll-odds-{sigrid.pk}")
    expect(odds).to_contain_text("Coste de Prana 9")

    fixed_dice(6)  # 18 + Voluntad 2 exceeds 9
    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{sigrid.pk}")
    expect(result).to_contain_text("Éxito")
    expect(result).to_contain_text("Prana: 10 → 1")
    expect(odds).to_contain_text("Para repetirla tal cual:")
    expect(odds).to_contain_text("Sigrid tiene 1 de Prana; esto necesita 9.")
    expect(panel.locator(".alert-danger")).to_have_count(0)
    screenshot(page, "spell-cast")

    panel.get_by_role("button", name="Tirar los dados").click()
    alert = panel.locator(".alert-danger")
    expect(alert).to_have_text("Sigrid tiene 1 de Prana; esto necesita 9.")
    expect(result).not_to_contain_text("Éxito")
    screenshot(page, "second-cast-refused")
    assert Roll.objects.filter(character=sigrid).count() == 1
    assert Resource.objects.get(character=sigrid, key="prana").current == 1
