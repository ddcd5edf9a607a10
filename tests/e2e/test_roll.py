"""The roll panel in a browser: odds that follow the set-up, a roll on the server, the
dice on screen and the Willpower pool spent."""

import re

import pytest
from playwright.sync_api import expect

from characters.models import Resource
from mechanics.models import Roll
from tests.e2e.conftest import SCREENSHOTS
from tests.factories import (
    PASSWORD,
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    make_character,
)
from tests.mechanics import rolling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
fixed_dice = rolling.fixed_dice


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


ATTACKS = {
    "hitos": {"reflejos": 5, "combate": 4, "fortaleza": 4},
    "ndp": {"pelea": 4, "esquivar": 3},
    "objetivo": {"fuerza": 7, "armas_cc": 5, "resistencia": 8},
}


@pytest.mark.parametrize("system", list(ATTACKS))
def test_attack_panels_of_the_other_systems_roll_and_show_damage(open_as, fixed_dice, system):
    gm = UserFactory(username="narradora")
    campaign = CampaignFactory(name="Prueba", system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    character = make_character(campaign, None, name="Rufo", ratings=ATTACKS[system])
    for width in (360, 1280):
        page = open_as("narradora", width=width, height=900)
        page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/roll/")
        panel = page.locator(f"#roll-panel-{character.pk}")
        panel.locator(".roll-kinds").get_by_text("Ataque", exact=True).click()
        # Only the attack's fields show once "Ataque" is chosen.
        expect(panel.get_by_role("group", name="Arma y objetivo")).to_be_visible()
        if system == "ndp":
            panel.get_by_label("Habilidad", exact=True).select_option("pelea")
            panel.get_by_label("Adversidad que superar").fill("8")
            panel.get_by_label("Adversidad que superar").blur()
        elif system == "objetivo":
            panel.get_by_label("Habilidad", exact=True).select_option("armas_cc")
            panel.get_by_label("Arma", exact=True).select_option("mandoble")
            panel.get_by_label("Defensa del objetivo (o dificultad por distancia)").fill("14")
            panel.get_by_label("Defensa del objetivo (o dificultad por distancia)").blur()
        else:
            panel.get_by_label("Dificultad o Defensa").fill("12")
            panel.get_by_label("Dificultad o Defensa").blur()
        expect(panel.locator(".odds-success")).to_contain_text("Impacto")
        # Nines (sixes on a d6) hit in every system, and no die explodes.
        fixed_dice(9)
        panel.get_by_role("button", name="Tirar los dados").click()
        card = page.locator(f"#roll-result-{character.pk} .roll-card")
        expect(card).to_be_visible()
        roll = Roll.objects.filter(character=character).latest("pk")
        damage = roll.record["effects"]["damage"]
        assert damage is not None
        assert damage > 0
        expect(card).to_have_attribute("data-roll", str(roll.pk))
        expect(card.locator(".roll-lines")).to_contain_text(re.compile(rf"Daño: {damage}\b"))
        page.locator(f"#roll-panel-{character.pk}").screenshot(
            path=str(SCREENSHOTS / f"roll-panel-{system}-{width}.png")
        )
    assert Roll.objects.filter(character=character, kind="attack").count() == 2


def test_gm_sets_up_an_opposed_roll_between_two_characters(open_as, screenshot):
    campaign, lucia_ = lucia()
    bruto = make_character(campaign, None, name="Bruto", ratings={"fuerza": 4, "pelea": 3})
    page = open_as("narradora", width=1280)
    page.goto(f"/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Tiradas del narrador").click()
    page.locator("#id_a-character").select_option(str(lucia_.pk))
    page.locator("#id_a-attribute").select_option("fuerza")
    page.locator("#id_b-character").select_option(str(bruto.pk))
    page.locator("#id_b-attribute").select_option("fuerza")
    page.locator("#id_b-skill").select_option("pelea")
    expect(page.locator("#gm-roll-odds .odds-win")).to_contain_text("Gana Lucía Ferrer")
    page.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator("#gm-roll-result .roll-card")).to_have_count(2)
    screenshot(page, "gm-opposed")
    rolls = Roll.objects.filter(campaign=campaign)
    assert rolls.count() == 2
    assert len({roll.group for roll in rolls}) == 1


def test_an_extended_action_chosen_again_throws_its_own_pool(open_as, screenshot, fixed_dice):
    """The panel opened anew (Inteligencia, no skill) and the action chosen: its pool and
    target fields hide, the odds say what it throws and the chance of completing it in the
    rolls left, and the roll throws it."""
    campaign, character = lucia()
    page = open_as("jugadora")
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#sheet-rolls #roll-panel-{character.pk}")
    panel.get_by_text("Acción extendida", exact=True).first.click()
    panel.get_by_label("Habilidad", exact=True).select_option("investigacion")
    panel.get_by_label("Éxitos necesarios").fill("5")
    panel.get_by_label("Número máximo de tiradas").fill("3")
    panel.get_by_text("Más opciones").click()
    panel.get_by_label("¿Para qué es la tirada?").fill("Descifrar el diario")
    fixed_dice(*[1] * 6)
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{character.pk} li.die")).to_have_count(6)

    page.reload()
    panel.get_by_text("Acción extendida", exact=True).first.click()
    skill = panel.get_by_label("Habilidad", exact=True)
    expect(skill).to_have_value("")
    odds = page.locator(f"#roll-odds-{character.pk}")
    expect(odds.locator(".roll-summary")).to_have_text("3 dados")
    panel.get_by_label("Acción", exact=True).select_option(label="Descifrar el diario (0/5)")
    expect(odds.locator(".roll-summary")).to_have_text("6 dados")
    expect(odds).to_contain_text("Progreso: 0 de 5 éxitos")
    left = "Completarla en las 2 tiradas que quedan"
    expect(odds.locator(".odds-complete dt")).to_have_text(left)
    for field in (skill, panel.get_by_label("Éxitos necesarios")):
        expect(field).to_be_hidden()
    screenshot(page, "action-chosen")
    fixed_dice(*[1] * 6)
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{character.pk} li.die")).to_have_count(6)
    last = Roll.objects.filter(character=character).order_by("-pk").first()
    assert (last.record["details"]["pool"], last.record["details"]["rolls_made"]) == (6, 2)


def test_the_odds_follow_a_number_as_it_is_typed(open_as):
    """Without leaving the field: the odds box refreshes once typing pauses."""
    campaign, character = lucia()
    page = open_as("jugadora")
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#sheet-rolls #roll-panel-{character.pk}")
    panel.get_by_label("Habilidad", exact=True).select_option("investigacion")
    odds = page.locator(f"#roll-odds-{character.pk}")
    expect(odds.locator(".roll-summary")).to_have_text("6 dados")
    panel.get_by_text("Más opciones").click()
    other = panel.get_by_label("Otros dados")
    other.click()
    other.press("Control+a")
    other.press_sequentially("12")
    expect(odds.locator(".roll-summary")).to_have_text("18 dados")
    expect(other).to_be_focused()


def test_a_wrong_target_left_in_an_extended_action_does_not_block_a_simple_roll(
    open_as, screenshot, fixed_dice
):
    """By keyboard: a wrong target typed in the extended action, then back to a simple
    roll, whose fields hide the target: its odds show and it rolls."""
    campaign, character = lucia()
    page = open_as("jugadora")
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#sheet-rolls #roll-panel-{character.pk}")
    odds = page.locator(f"#roll-odds-{character.pk}")
    simple = panel.get_by_label("Tirada simple")
    simple.focus()
    page.keyboard.press("ArrowRight")
    target = panel.get_by_label("Éxitos necesarios")
    expect(target).to_be_visible()
    target.focus()
    page.keyboard.type("-1")
    page.keyboard.press("Tab")
    expect(odds).to_contain_text("Éxitos necesarios: Asegúrate de que este valor es mayor")
    panel.get_by_label("Acción extendida").focus()
    page.keyboard.press("ArrowLeft")
    expect(simple).to_be_checked()
    expect(target).to_be_hidden()
    expect(odds.locator(".roll-summary")).to_have_text("3 dados")
    expect(odds).not_to_contain_text("Éxitos necesarios")
    fixed_dice(8, 1, 1)
    button = panel.get_by_role("button", name="Tirar los dados")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"#roll-result-{character.pk} li.die")).to_have_count(3)
    expect(button).to_be_focused()
    screenshot(page, "simple-after-extended")
    assert Roll.objects.get(character=character).kind == "pool"
