"""A first evening with the demo, per system: a player opens their sheet, rolls a trait in
one more tap with the result in view and the page still, saves the set-up under a name and
rolls it again in one tap from the top of the sheet (at phone and laptop widths)."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from mechanics.models import Roll, SavedRoll
from tests.e2e.conftest import SCREENSHOTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A skill each demo sheet of ana's rolls.
SKILL = {
    "tinieblas": "investigacion",
    "hitos": "percepcion",
    "ndp": "percibir",
    "objetivo": "buscar",
}


def scroll_y(page) -> float:
    return page.evaluate("window.scrollY")


def shot(page, name: str) -> None:
    """What the player sees (the viewport, not the whole page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"saved-roll-{name}.png"))


@pytest.mark.parametrize("system", list(SKILL))
def test_the_demo_sheet_rolls_a_trait_saves_it_and_rolls_it_again_from_the_top(open_as, system):
    call_command("seed_demo", system=[system], stdout=io.StringIO())
    campaign = Campaign.objects.get(system=system)
    ana = get_user_model().objects.get(username="ana")
    character = campaign.characters.get(owner=ana)
    for width in (360, 1280):
        page = open_as(ana, width=width, height=800)
        page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
        panel = page.locator(f"#roll-panel-{character.pk}")
        expect(panel).to_be_attached()
        dock = page.locator(f"#roll-dock-{character.pk}")
        bar = page.locator(f"#saved-rolls-{character.pk}")
        # The demo's own saved roll is at the top of the sheet, in view on arrival.
        expect(bar.get_by_role("button").first).to_be_in_viewport()
        shot(page, f"{system}-sheet-{width}")

        # A trait opens the docked panel with it chosen; one more tap rolls, in view.
        trait = page.locator(f'a[data-roll-trait="{SKILL[system]}"]')
        trait.scroll_into_view_if_needed()
        trait.click()
        expect(dock).to_have_attribute("role", "dialog")
        expect(panel.get_by_label("Habilidad", exact=True)).to_have_value(SKILL[system])
        before = scroll_y(page)
        panel.get_by_role("button", name="Tirar los dados").click()
        result = page.locator(f"#roll-result-{character.pk} .roll-card")
        expect(result).to_be_in_viewport()
        assert scroll_y(page) == before
        rolled = Roll.objects.filter(character=character).latest("pk")
        expect(result).to_have_attribute("data-roll", str(rolled.pk))

        # Save the set-up under a name: the bar at the top of the sheet offers it at once.
        name = f"Mi tirada {width}"
        panel.get_by_text("Guardar esta preparación").click()
        panel.get_by_label("Nombre de la tirada guardada").fill(name)
        panel.get_by_role("button", name="Guardar", exact=True).click()
        expect(panel.get_by_role("status").filter(has_text=f"Guardada «{name}»")).to_be_visible()
        saved_button = bar.get_by_role("button", name=name)
        expect(saved_button).to_be_attached()
        saved = SavedRoll.objects.get(character=character, name=name)
        assert saved.setup["skill"] == [SKILL[system]]

        # Back at the top of the sheet: one tap rolls it, the result in view, nothing moves.
        page.keyboard.press("Escape")
        expect(dock).not_to_have_attribute("role", "dialog")
        page.evaluate("window.scrollTo(0, 0)")
        expect(saved_button).to_be_in_viewport()
        before = scroll_y(page)
        saved_button.click()
        expect(dock).to_have_attribute("role", "dialog")
        again = Roll.objects.filter(character=character, label=name)
        expect(result).not_to_have_attribute("data-roll", str(rolled.pk))
        expect(result).to_be_in_viewport()
        assert scroll_y(page) == before
        expect(result).to_have_attribute("data-roll", str(again.get().pk))
        shot(page, f"{system}-result-{width}")


def test_a_name_already_taken_stays_in_the_field_to_be_corrected(open_as, screenshot):
    call_command("seed_demo", system=["tinieblas"], stdout=io.StringIO())
    campaign = Campaign.objects.get(system="tinieblas")
    ana = get_user_model().objects.get(username="ana")
    character = campaign.characters.get(owner=ana)
    taken = SavedRoll.objects.filter(character=character).first().name
    page = open_as(ana, width=390, height=844)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    panel.get_by_text("Guardar esta preparación").click()
    name = panel.get_by_label("Nombre de la tirada guardada")
    name.fill(taken.upper())
    panel.get_by_role("button", name="Guardar", exact=True).click()
    expect(panel.get_by_text("Ya hay una tirada guardada con ese nombre.")).to_be_visible()
    expect(name).to_have_value(taken.upper())
    screenshot(page, "saved-name-taken-390")
    name.fill(f"{taken} otra vez")
    panel.get_by_role("button", name="Guardar", exact=True).click()
    expect(panel.get_by_role("status")).to_contain_text(f"Guardada «{taken} otra vez»")
    expect(name).to_have_value("")
