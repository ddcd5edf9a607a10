"""A Dado objetivo attack from a sheet's roll panel, in a browser: on his phone a player
aims his character's sword at an NPC in the scene's fight; the odds take the NPC's
Defensa, not the one typed; the hit waits in the GM's combat panel, who applies it
(docs/rules.md#objetivo-roll-panel-attacks)."""

import pytest
from playwright.sync_api import expect

from mechanics.models import CombatAttack
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_accessibility import axe_violations
from tests.factories import UserFactory, campaign_with
from tests.mechanics import rolling
from tests.mechanics_web.rolls import objetivo_tavern_fight

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

fixed_dice = rolling.fixed_dice


def in_view(page, locator, name: str) -> None:
    """What the player sees on his phone with `locator` scrolled to the middle of the
    docked panel (clear of its sticky close bar), in one step: the panel may reload once
    after its own roll, its result kept."""
    locator.evaluate("element => element.scrollIntoView({block: 'center'})")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"objetivo-roll-attack-{name}.png"))


def test_player_attacks_an_npc_from_his_sheet_and_the_gm_applies_the_damage(
    open_as, screenshot, fixed_dice
):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugador")
    campaign = campaign_with("objetivo", gm, players=[player], name="Mesa")
    combat, fred, maton = objetivo_tavern_fight(campaign, gm, player)

    page = open_as("jugador", width=360, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{fred.pk}/")
    trait = page.get_by_role("link", name="Tirar Fuerza")
    trait.scroll_into_view_if_needed()
    trait.click()
    panel = page.locator(f"#roll-panel-{fred.pk}")
    expect(page.locator(f"#roll-dock-{fred.pk}")).to_have_attribute("role", "dialog")
    panel.get_by_text("Ataque", exact=True).click()
    panel.get_by_label("Arma", exact=True).select_option("espada")
    panel.get_by_label("Habilidad", exact=True).select_option("armas_cc")
    odds = page.locator(f"#roll-odds-{fred.pk}")
    # Without a target the Defensa typed counts: 30 is out of reach.
    panel.get_by_label("Defensa del objetivo (o dificultad por distancia)").fill("30")
    panel.get_by_label("Defensa del objetivo (o dificultad por distancia)").blur()
    expect(odds).to_contain_text("contra 30")
    panel.get_by_label("Objetivo", exact=True).select_option(label="Matón")
    expect(odds).to_contain_text("Defensa de Matón: 10, la dificultad.")
    expect(odds).to_contain_text("contra 10")
    expect(odds).to_contain_text("El daño de un impacto espera al máster en el panel de combate.")
    in_view(page, panel.get_by_label("Objetivo", exact=True), "aims-360")
    in_view(page, odds, "odds-360")
    assert axe_violations(page, "light") == []

    fixed_dice(5, 5, 5, 4)  # the median 5 + 9 = 14 hits Defensa 10; the sword's 1d10: 4
    panel.get_by_role("button", name="Tirar los dados").click()
    words = panel.locator(".roll-attack-words")
    expect(words).to_have_text(
        "Fred alcanza a Matón: el daño espera al máster en el panel de combate."
    )
    expect(panel.locator(".roll-card")).to_contain_text("Ataque a Matón")
    in_view(page, words, "hit-360")
    assert CombatAttack.objects.get().is_pending

    # The GM finds it waiting in the combat panel and applies it.
    gm_page = open_as("narradora", width=1280, height=900)
    gm_page.goto(f"/campaigns/{campaign.pk}/scenes/{combat.scene_id}/combat/{combat.pk}/")
    pending = gm_page.locator("#combat-pending")
    expect(pending).to_contain_text("Fred alcanza a Matón")
    expect(pending.locator(".combat-damage")).to_have_text("−4 PV")
    screenshot(gm_page, "objetivo-gm-pending-1280")
    gm_page.get_by_role("button", name="Aplicar el daño a Matón").click()
    expect(gm_page.locator("#combat-status")).to_contain_text("Daño aplicado a Matón")
    assert CombatAttack.objects.get().status == CombatAttack.Status.APPLIED

    gm_page.goto(f"/campaigns/{campaign.pk}/characters/{maton.pk}/")
    expect(gm_page.locator("#sheet-health")).to_contain_text("12/16")
    screenshot(gm_page, "objetivo-npc-sheet-1280")
