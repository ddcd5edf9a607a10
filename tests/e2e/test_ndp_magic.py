"""3d6 + NdP magic in a browser: a mage builds a spell from the gesture table, sees its Prana
cost and exact odds, casts, fails and loses half the Prana; the GM advances an hour and a
point of Prana comes back (docs/rules.md#ndp-magic)."""

import pytest
from playwright.sync_api import expect

from characters.models import Resource
from mechanics.models import Roll
from mechanics.rules.ndp import odds as ndp_odds
from mechanics.rules.ndp.rolls import ArcaneSpec
from tests.factories import UserFactory, campaign_with, make_character
from tests.mechanics import rolling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
fixed_dice = rolling.fixed_dice


@pytest.mark.parametrize("width", [360, 1280])
def test_ndp_mage_fails_a_spell_loses_half_the_prana_and_an_hour_brings_one_back(
    open_as, screenshot, fixed_dice, width
):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="maga")
    campaign = campaign_with("ndp", gm, players=[player], name="Mesa")
    iria = make_character(
        campaign, player, name="Iria", ratings={"voluntad": 2, "arcano": 2, "vitalidad": 1}
    )
    prana = Resource.objects.get(character=iria, key="prana")
    assert (prana.current, prana.maximum) == (10, 10)
    sheet_url = f"/campaigns/{campaign.pk}/characters/{iria.pk}/"

    page = open_as("maga", width=width, height=900)
    page.goto(f"{sheet_url}roll/")
    panel = page.locator(f"#roll-panel-{iria.pk}")
    panel.locator(".roll-kinds label", has_text="Conjuro arcano").click()
    panel.get_by_label("Poder (1 daño)").fill("3")
    panel.get_by_label("Distancia (10 metros)").fill("2")
    panel.get_by_label("Distancia (10 metros)").blur()
    odds = page.locator(f"#roll-odds-{iria.pk}")
    expect(odds).to_contain_text("Coste de Prana 5: todo si sale, 3 si falla.")
    expect(odds).to_contain_text("Poder 3: 3 daño · Distancia 2: 21 m")
    exact = ndp_odds.arcane_odds(ArcaneSpec(level=2, prana=5)).p_success
    expect(odds.locator(".odds-success data")).to_have_attribute("value", repr(exact))
    screenshot(page, f"spell-built-{width}")

    fixed_dice(1)  # 1 + 1 + 1 + Voluntad 2 = 5 does not exceed 5
    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{iria.pk}")
    expect(result).to_contain_text("Fallo")
    expect(result).to_contain_text("Prana: 10 → 7")
    expect(page.locator('[data-pool="prana"] .roll-pool-value')).to_have_text("7 de 10")
    screenshot(page, f"spell-failed-{width}")
    assert Roll.objects.get(character=iria).kind == "arcane"

    page = open_as("narradora", width=width, height=900)
    page.goto(sheet_url)
    expect(page.locator("#pool-prana [data-pool-value]")).to_have_attribute(
        "aria-label", "Prana 7 de 10"
    )
    time = page.locator("#health-time")
    time.locator("summary").click()
    time.get_by_label("Cuánto tiempo").fill("1")
    time.get_by_label("Unidad").select_option("hours")
    time.get_by_role("button", name="Avanzar", exact=True).click()
    expect(page.locator("#sheet-health .health-notice")).to_contain_text("Pasa el tiempo: 1 hora")
    page.reload()
    expect(page.locator("#pool-prana [data-pool-value]")).to_have_attribute(
        "aria-label", "Prana 8 de 10"
    )
    screenshot(page, f"hour-later-{width}")
    assert Resource.objects.get(character=iria, key="prana").current == 8
