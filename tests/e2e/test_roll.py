"""The roll panel in a browser: odds that follow the set-up, a roll on the server, the
dice on screen and the Willpower pool spent."""

import re

import pytest
from playwright.sync_api import expect

from characters.models import Resource
from mechanics.models import Roll
from tests.e2e.conftest import SCREENSHOTS
from tests.factories import PASSWORD, CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()
    expect(page.get_by_role("heading", name="Mis campañas")).to_be_visible()


def lucia():
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Sombras de Toledo", system="tinieblas", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(
        campaign,
        player,
        name="Lucía Ferrer",
        ratings={
            "inteligencia": 3,
            "astucia": 3,
            "aplomo": 2,
            "fuerza": 2,
            "destreza": 3,
            "compostura": 3,
            "armas_de_fuego": 2,
            "investigacion": 3,
            "fuerza_de_voluntad": 5,
        },
    )
    return campaign, character


@pytest.mark.parametrize("width", [360, 1280])
def test_player_sees_odds_change_rolls_and_spends_willpower(new_page, screenshot, width):
    campaign, character = lucia()
    page = new_page(width=width, height=900)
    log_in(page, "jugadora")
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    # The sheet loads its roll panel with htmx.
    panel = page.locator(f"#sheet-rolls #roll-panel-{character.pk}")
    expect(panel).to_be_visible()
    panel.get_by_label("Atributo", exact=True).select_option("inteligencia")
    panel.get_by_label("Habilidad", exact=True).select_option("investigacion")
    odds = page.locator(f"#roll-odds-{character.pk}")
    expect(odds.locator(".roll-summary")).to_have_text("6 dados")
    before = odds.locator(".odds-success .odds-value").get_attribute("value")
    screenshot(page, f"panel-{width}")

    panel.get_by_label("+3 dados").check()
    expect(odds.locator(".roll-summary")).to_have_text("9 dados")
    after = odds.locator(".odds-success .odds-value").get_attribute("value")
    assert float(after) > float(before)
    expect(odds).to_contain_text("Fuerza de Voluntad: +3 dados")

    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{character.pk}")
    expect(result.locator("li.die")).not_to_have_count(0)
    assert result.locator("li.die").count() >= 9
    expect(page.locator(f"#roll-panel-{character.pk} [data-pool=willpower]")).to_contain_text(
        "4 de 5"
    )
    expect(result).to_contain_text(re.compile(r"Fuerza de Voluntad: 5 → 4"))
    # The sheet's own pool (outside the panel) shows the spent point too, without a reload.
    expect(page.locator("#sheet-resources #pool-willpower [data-pool-value]")).to_contain_text("4")
    screenshot(page, f"rolled-{width}")
    # The panel alone, to look at it closely on a phone.
    page.locator(f"#roll-panel-{character.pk}").screenshot(
        path=str(SCREENSHOTS / f"roll-panel-{width}.png")
    )

    assert Resource.objects.get(character=character, key="willpower").current == 4
    roll = Roll.objects.get(character=character)
    assert roll.record["effects"]["willpower_spent"] == 1
    assert roll.user.username == "jugadora"
