"""Trait labels in the roll panel follow a GM's edit at once: the owner has the sheet open
with the panel docked on a skill; the GM, in another browser, changes what the panel names
(a rating, a specialty, a campaign's skill name); the owner opens the panel again from the
same, unreloaded sheet and reads the new label, and the roll uses it."""

import pytest
from playwright.sync_api import expect

from mechanics.models import Roll
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The skill the owner rolls, the sheet's ratings, its option in the panel before and after
# the GM's edit.
CASES = {
    "tinieblas": ("ciencia", {"inteligencia": 3, "ciencia": 2}, "Ciencia (2)", "Ciencia (3)"),
    "hitos": ("cultura", {"intelecto": 3, "cultura": 2}, "Cultura (2)", "Cultura (3)"),
    "ndp": ("pelea", {"pelea": 2}, "Pelea (2)", "Pelea (3)"),
    "objetivo": (
        "armas_cc",
        {"fuerza": 7, "armas_cc": 5},
        "Armas CC (5)",
        "Espada y daga (5)",
    ),
}


def gm_edits(gm_page, system: str, campaign, character, key: str) -> None:
    """The GM's change, made in the GM's own browser the way a GM makes it."""
    if system == "objetivo":
        # The campaign's skill list: the GM renames the skill.
        gm_page.goto(f"/campaigns/{campaign.pk}/characters/trait-lists/")
        row = gm_page.locator(f"#trait-lists details:has(input[name='edit-{key}-name'])")
        row.locator("summary").click()
        row.locator(f"input[name='edit-{key}-name']").fill("Espada y daga")
        row.get_by_role("button", name="Guardar").click()
        expect(gm_page.locator("#trait-lists")).to_contain_text("Espada y daga guardado")
        return
    gm_page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    if system == "ndp":
        gm_page.locator(f"#trait-{key}-up").click()
        expect(gm_page.locator(f"#trait-{key} .trait-value")).to_contain_text("3")
        return
    gm_page.locator(f"#trait-{key}-3").click()
    expect(gm_page.locator(f"#trait-{key}-3")).to_have_class("dot-btn filled")
    if system == "tinieblas":
        # And a specialty for that skill, which the panel offers as a die more.
        specialties = gm_page.locator("#specialties")
        specialties.locator("summary", has_text="Añadir una especialidad").click()
        specialties.get_by_label("Habilidad").select_option(key)
        specialties.get_by_label("Especialidad").fill("Botánica")
        specialties.get_by_role("button", name="Añadir").click()
        expect(specialties).to_contain_text("Botánica")


@pytest.mark.parametrize("system", list(CASES))
def test_the_panel_shows_the_gms_change_when_the_owner_opens_it_again(open_as, screenshot, system):
    key, ratings, before, after = CASES[system]
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with(system, gm, players=[player], name="Prueba")
    character = make_character(campaign, player, name="Rufo", ratings=ratings)

    page = open_as(player)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    trait = page.locator(f'a[data-roll-trait="{key}"]')
    trait.click()
    dock = page.locator(f"#roll-dock-{character.pk}")
    expect(dock).to_have_attribute("role", "dialog")
    skill = panel.get_by_label("Habilidad", exact=True)
    expect(skill).to_have_value(key)
    expect(skill.locator("option:checked")).to_have_text(before)

    gm_page = open_as(gm)
    gm_edits(gm_page, system, campaign, character, key)

    # The owner's page has not been reloaded; the panel opened again reads the sheet anew.
    page.keyboard.press("Escape")
    expect(dock).not_to_have_attribute("role", "dialog")
    trait.click()
    expect(dock).to_have_attribute("role", "dialog")
    expect(skill.locator("option:checked")).to_have_text(after)
    if system == "tinieblas":
        specialty = panel.get_by_label("Especialidad (+1 dado)")
        expect(specialty.locator("option", has_text="Ciencia: Botánica")).to_have_count(1)
        expect(panel.locator(".roll-summary")).to_have_text("6 dados")
    if system == "objetivo":
        # The odds' breakdown names it as well.
        expect(panel.locator(".roll-steps")).to_contain_text("Espada y daga +5")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    screenshot(page, f"{system}-panel-after-gm-edit")

    # The roll uses the new label too.
    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{character.pk} .roll-card")
    expect(result).to_be_visible()
    roll = Roll.objects.get(character=character)
    expect(result).to_have_attribute("data-roll", str(roll.pk))
    name = after.rsplit(" (", 1)[0]
    assert roll.record["details"]["traits"]["skill"] == name
    expect(result).to_contain_text(name)
