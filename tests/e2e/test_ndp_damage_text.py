"""3d6 + NdP in a browser: damage typed in the roll panel's attack too large for the engine
says so under the field, naming the limit, and keeps the text (docs/rules.md#damage-text,
docs/rules.md#ndp-damage-limits); with a sign between dice and bonus the attack rolls."""

import pytest
from playwright.sync_api import expect

from mechanics.models import Roll
from tests.e2e.test_live_table import held_answer, press
from tests.factories import UserFactory, campaign_with, make_character
from tests.mechanics import rolling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
fixed_dice = rolling.fixed_dice


@pytest.mark.parametrize("width", [360, 1280])
def test_player_types_damage_too_large_and_is_told_the_limit(
    open_as, screenshot, fixed_dice, width
):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("ndp", gm, players=[player], name="Las Marcas")
    hero = make_character(campaign, player, name="Aldara", ratings={"pelea": 4})

    page = open_as("jugadora", width=width, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{hero.pk}/roll/")
    panel = page.locator(f"#roll-panel-{hero.pk}")
    panel.locator(".roll-kinds").get_by_text("Ataque", exact=True).click()
    expect(panel.get_by_role("group", name="Arma y objetivo")).to_be_visible()
    panel.get_by_label("Habilidad", exact=True).select_option("pelea")
    panel.get_by_label("Adversidad que superar").fill("8")
    damage = panel.get_by_label("Daño del arma")
    damage.fill("999d6")
    damage.blur()
    panel.get_by_role("button", name="Tirar los dados").click()

    panel = page.locator(f"#roll-panel-{hero.pk}")
    damage = panel.get_by_label("Daño del arma")
    cell = panel.locator(".roll-cell", has=page.locator(f"#roll{hero.pk}_damage"))
    expect(cell.locator(".invalid-feedback")).to_have_text("Como mucho 20 dados de daño.")
    expect(damage).to_have_value("999d6")
    expect(damage).to_have_attribute("aria-invalid", "true")
    screenshot(page, f"too-large-{width}")
    assert not Roll.objects.exists()

    # Dice and a bonus with no sign: asked for, not guessed.
    damage.fill("1d6 2")
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(cell.locator(".invalid-feedback")).to_have_text(
        "Pon + o − entre los dados y el bono, por ejemplo 1d6+2."
    )
    expect(panel.get_by_label("Daño del arma")).to_have_value("1d6 2")
    assert not Roll.objects.exists()

    panel.get_by_label("Daño del arma").fill("1d6+2")
    fixed_dice(6)
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{hero.pk} .roll-card")).to_be_visible()
    roll = Roll.objects.get(character=hero)
    assert roll.record["details"]["damage_roll"]["dice"] == "1d6"


def test_a_press_on_roll_rolls_though_the_odds_answering_the_field_just_left_move_the_button(
    open_as, fixed_dice, screenshot
):
    """The player mends the damage and presses «Tirar los dados» at once: the press leaves
    the field, the odds above the button answer that change with five rows where one note
    stood, and the button is drawn lower while still pressed. Let go where it was, the
    press rolls (the browser alone would click nothing: the press ends off the button)."""
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("ndp", gm, players=[player], name="Las Marcas")
    hero = make_character(campaign, player, name="Aldara", ratings={"pelea": 4})
    page = open_as("jugadora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{hero.pk}/roll/")
    panel = page.locator(f"#roll-panel-{hero.pk}")
    panel.locator(".roll-kinds").get_by_text("Ataque", exact=True).click()
    panel.get_by_label("Habilidad", exact=True).select_option("pelea")
    panel.get_by_label("Adversidad que superar").fill("8")
    panel.get_by_label("Daño del arma").fill("1d6 2")
    panel.get_by_role("button", name="Tirar los dados").click()
    # The roll's answer, refused, has drawn the panel again (the odds say so before it).
    cell = panel.locator(".roll-cell", has=page.locator(f"#roll{hero.pk}_damage"))
    expect(cell.locator(".invalid-feedback")).to_have_text(
        "Pon + o − entre los dados y el bono, por ejemplo 1d6+2."
    )
    odds = page.locator(f"#roll-odds-{hero.pk}")
    expect(odds).to_contain_text("Corrige la tirada")
    held = []

    def hold_mended_odds(route):
        if "1d6%2B2" in route.request.url and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.route(lambda url: "part=odds" in url, hold_mended_odds)
    panel.get_by_label("Daño del arma").fill("1d6+2")
    button = panel.get_by_role("button", name="Tirar los dados")
    before = button.bounding_box()
    fixed_dice(6)
    press(page, button)
    route, answer = held_answer(page, held, "odds")
    route.fulfill(response=answer)
    expect(odds).to_contain_text("Impacto: herida grave")
    assert button.bounding_box()["y"] > before["y"] + before["height"]
    page.mouse.up()
    expect(page.locator(f"#roll-result-{hero.pk} .roll-card")).to_be_visible()
    assert Roll.objects.count() == 1
    screenshot(page, "rolled-though-the-button-moved")
