"""A Hitos attack from a sheet's roll panel, in a browser: on her phone a player aims her
character's attack at an armoured NPC in the scene's fight; the odds take its Defensa and
its armour's RD; the hit waits in the GM's combat panel, who applies it to the NPC's
Resistencia (docs/rules.md#hitos-roll-panel-attacks)."""

import pytest
from playwright.sync_api import expect

from mechanics.models import CombatAttack
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_accessibility import axe_violations
from tests.factories import UserFactory, campaign_with
from tests.mechanics import rolling
from tests.mechanics_web.rolls import hitos_rooftop_fight

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

fixed_dice = rolling.fixed_dice


def in_view(page, locator, name: str) -> None:
    """What the player sees on her phone with `locator` scrolled into the docked panel.
    Scrolled in one step in the page: a live reload of the panel meanwhile would detach
    an element Playwright waits on to be stable."""
    locator.evaluate("element => element.scrollIntoView({block: 'nearest'})")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"hitos-roll-attack-{name}.png"))


def test_player_attacks_an_npc_from_her_sheet_and_the_gm_applies_the_damage(
    open_as, screenshot, fixed_dice
):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    combat, hero, foe = hitos_rooftop_fight(campaign, gm, player)

    # The player, on her phone, rolls from her sheet: Reflejos, then an attack on Sicario.
    page = open_as("jugadora", width=360, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{hero.pk}/")
    trait = page.get_by_role("link", name="Tirar Reflejos")
    trait.scroll_into_view_if_needed()
    trait.click()
    panel = page.locator(f"#roll-panel-{hero.pk}")
    expect(page.locator(f"#roll-dock-{hero.pk}")).to_have_attribute("role", "dialog")
    panel.get_by_text("Ataque", exact=True).click()
    # An attack is always Reflejos + Combate: the check's choices step aside.
    expect(panel.get_by_label("Habilidad", exact=True)).to_be_hidden()
    expect(panel.get_by_label("Característica", exact=True)).to_be_hidden()
    panel.get_by_label("Objetivo", exact=True).select_option(label="Sicario")
    odds = page.locator(f"#roll-odds-{hero.pk}")
    expect(odds).to_contain_text("Defensa de Sicario: 7, la dificultad.")
    expect(odds).to_contain_text("− RD 2")
    in_view(page, panel.get_by_label("Objetivo", exact=True), "aims-360")
    in_view(page, odds, "odds-360")
    assert axe_violations(page, "light") == []

    fixed_dice(3, 4, 9)  # C 4 + 8 = 12 hits Defensa 7; damage C 4 + 2 − RD 2 = 4
    panel.get_by_role("button", name="Tirar los dados").click()
    words = panel.locator(".roll-attack-words")
    expect(words).to_have_text(
        "Héroe alcanza a Sicario: el daño espera al máster en el panel de combate."
    )
    expect(panel.locator(".roll-card")).to_contain_text("Ataque a Sicario")
    in_view(page, words, "hit-360")
    assert CombatAttack.objects.get().is_pending

    # The GM finds it waiting in the combat panel and applies it.
    gm_page = open_as("narradora", width=1280, height=900)
    gm_page.goto(f"/campaigns/{campaign.pk}/scenes/{combat.scene_id}/combat/{combat.pk}/")
    pending = gm_page.locator("#combat-pending")
    expect(pending).to_contain_text("Héroe alcanza a Sicario")
    expect(pending.locator(".combat-damage")).to_have_text("4")
    screenshot(gm_page, "gm-pending-1280")
    gm_page.get_by_role("button", name="Aplicar el daño a Sicario").click()
    expect(gm_page.locator("#combat-status")).to_contain_text("Daño aplicado a Sicario")

    gm_page.goto(f"/campaigns/{campaign.pk}/characters/{foe.pk}/")
    expect(gm_page.locator("#sheet-health")).to_contain_text("17/21")
    expect(gm_page.locator("#equipment")).to_contain_text("Chaleco · RD 2")
    screenshot(gm_page, "npc-sheet-1280")
