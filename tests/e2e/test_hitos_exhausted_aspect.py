"""An exhausted Hitos aspect in a browser: the player pays a roll by exhausting her
character's aspect, her sheet offers no way to recover it and says it waits for the GM;
the GM recovers it on the sheet, and her sheet and roll panel offer it again
(docs/rules.md#hitos-recovery)."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory, campaign_with, make_character
from tests.mechanics import rolling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

fixed_dice = rolling.fixed_dice


def test_the_player_exhausts_an_aspect_and_only_the_gm_recovers_it(open_as, screenshot, fixed_dice):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    irene = make_character(
        campaign,
        player,
        name="Irene",
        ratings={"intelecto": 4, "cultura": 3},
        aspects=[("concepto", "Bibliotecaria curiosa"), ("cita", "«Todo está escrito»")],
    )
    aspect = irene.aspects.get(kind="concepto")

    # The player rolls Cultura, paying her aspect by exhausting it.
    page = open_as(player, width=360, height=800)
    page.goto(irene.get_absolute_url())
    panel = page.locator(f"#roll-panel-{irene.pk}")
    # The sheet loads its roll panel first (a trait clicked meanwhile races that load).
    expect(panel).to_be_attached()
    page.get_by_role("link", name="Tirar Cultura").click()
    # Open once the trait's answer is drawn, which would take a choice made before it.
    expect(page.locator(f"#roll-dock-{irene.pk}")).to_have_attribute("role", "dialog")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value("cultura")
    panel.get_by_label("Activar un aspecto (se usa el dado mayor)").select_option(
        label="Bibliotecaria curiosa"
    )
    panel.get_by_label("Agotando el aspecto").check()
    # The odds follow: the roll keeps M.
    expect(panel.locator(".roll-summary")).to_contain_text("M + ")
    fixed_dice(3, 6, 7)
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(panel.locator(".roll-card")).to_contain_text("Aspecto agotado: Bibliotecaria curiosa")

    # Her sheet: exhausted, waiting for the GM, no "Recuperar".
    page.goto(irene.get_absolute_url())
    row = page.locator(f"#aspect-{aspect.pk}")
    expect(row).to_contain_text("agotado")
    expect(row).to_contain_text("hasta que el máster lo recupere")
    expect(row.get_by_role("button")).to_have_count(0)
    row.scroll_into_view_if_needed()
    screenshot(page, "player-exhausted-360")

    # The GM recovers it on the sheet, in place.
    gm_page = open_as(gm)
    gm_page.goto(irene.get_absolute_url())
    gm_row = gm_page.locator(f"#aspect-{aspect.pk}")
    gm_row.get_by_role("button", name="Recuperar").click()
    expect(gm_row.get_by_role("button", name="Agotar")).to_be_visible()
    expect(gm_row).not_to_contain_text("agotado")
    screenshot(gm_page, "gm-recovered-1280")

    # Her sheet offers it again, and so does her roll panel.
    page.reload()
    expect(row.get_by_role("button", name="Agotar")).to_be_visible()
    expect(row).not_to_contain_text("agotado")
    expect(panel).to_be_attached()
    page.get_by_role("link", name="Tirar Cultura").click()
    choices = panel.get_by_label("Activar un aspecto (se usa el dado mayor)")
    expect(choices.locator("option", has_text="Bibliotecaria curiosa")).to_have_count(1)
    screenshot(page, "player-usable-again-360")
