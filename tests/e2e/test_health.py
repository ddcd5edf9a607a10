"""The health section in browsers: the GM wounds a character from the sheet and the
player's open sheet follows without a reload, penalty and roll odds included; how the
health panel looks on a phone and on a desktop."""

import pytest
from playwright.sync_api import expect

from mechanics.models import HealthEvent
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.e2e.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def health_shot(page, request, name: str) -> None:
    """The health section alone, beside the full-page screenshot (easier to look at)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#sheet-health").screenshot(
        path=str(SCREENSHOTS / f"{request.node.name}--{name}.png")
    )


def table():
    gm = UserFactory(username="narradora")
    bob = UserFactory(username="bob")
    campaign = CampaignFactory(name="Sombras de Toledo", system="tinieblas", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=bob, role="player")
    lucia = make_character(
        campaign,
        bob,
        name="Lucía Ferrer",
        ratings={"inteligencia": 3, "astucia": 3, "destreza": 3, "investigacion": 3},
    )
    doctor = make_character(
        campaign, None, name="Doctora Ruiz", user=gm, ratings={"inteligencia": 3, "medicina": 4}
    )
    return campaign, gm, bob, lucia, doctor


def roll_set_up(page, character) -> None:
    """Inteligencia + Investigación on the sheet's roll panel: 6 dice unhurt."""
    panel = page.locator(f"#roll-panel-{character.pk}")
    panel.get_by_label("Atributo", exact=True).select_option("inteligencia")
    panel.get_by_label("Habilidad", exact=True).select_option("investigacion")
    expect(page.locator(f"#roll-odds-{character.pk} .roll-summary")).to_have_text("6 dados")


@pytest.mark.parametrize("width", [360, 1280])
def test_gm_wounds_a_character_and_the_players_open_sheet_follows_without_a_reload(
    open_as, screenshot, request, width
):
    campaign, gm, bob, lucia, _doctor = table()
    sheet = f"/campaigns/{campaign.pk}/characters/{lucia.pk}/"
    player_page = open_as(bob, width=width, height=900)
    gm_page = open_as(gm, width=1280)
    player_page.goto(sheet)
    gm_page.goto(sheet)
    expect(player_page.locator(".health-state")).to_have_text("Ileso")
    roll_set_up(player_page, lucia)

    # The GM opens the damage panel on the sheet and applies 2 lethal and 2 bashing.
    panel = gm_page.locator("#health-damage")
    panel.locator("summary").click()
    # Its form loads when first opened.
    expect(panel.get_by_label("Niveles de daño")).to_be_visible()
    health_shot(gm_page, request, "gm-damage-open")
    panel.get_by_label("Niveles de daño").fill("2")
    panel.get_by_text("Letal", exact=True).click()
    panel.get_by_label("Motivo").fill("Navajazo en el callejón")
    panel.get_by_role("button", name="Aplicar daño").click()
    expect(gm_page.locator(".health-notice")).to_contain_text("Daño aplicado: 2 L")
    expect(gm_page.locator(".health-state")).to_have_text("Lastimado")

    # The player's page shows it within the poll's period, and the odds lose a die.
    expect(player_page.locator(".health-state")).to_have_text("Lastimado")
    live = player_page.locator(f"#health-live-{lucia.pk}")
    expect(live).to_contain_text("penalización -1")
    expect(live).to_contain_text("Navajazo en el callejón")
    expect(live.locator(".health-box.marked")).to_have_count(2)
    odds = player_page.locator(f"#roll-odds-{lucia.pk}")
    expect(odds.locator(".roll-summary")).to_have_text("5 dados")
    expect(odds).to_contain_text("Penalizador por heridas −1")
    # The player's choices survived the panel's refresh.
    expect(
        player_page.locator(f"#roll-panel-{lucia.pk}").get_by_label("Habilidad", exact=True)
    ).to_have_value("investigacion")
    assert player_page.evaluate("performance.getEntriesByType('navigation').length") == 1
    # Only the GM has the controls.
    expect(player_page.locator("#health-damage")).to_have_count(0)

    # Worse: from somewhere else (as the scene's combat panel would), two more lethal.
    health_services.character_apply_damage(
        character=lucia, user=gm, damage=DamageInput(2, "L"), reason="Segundo navajazo"
    )
    expect(player_page.locator(".health-state")).to_have_text("Herido")
    expect(odds.locator(".roll-summary")).to_have_text("4 dados")
    expect(gm_page.locator(".health-state")).to_have_text("Herido")
    screenshot(player_page, f"player-{width}")
    health_shot(player_page, request, f"player-health-{width}")
    health_shot(gm_page, request, f"gm-health-{width}")


@pytest.mark.parametrize("width", [360, 1280])
def test_gm_gives_first_aid_undoes_and_advances_time_in_the_page(
    open_as, screenshot, request, width
):
    campaign, gm, _bob, lucia, doctor = table()
    for _ in range(3):
        health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    page = open_as(gm, width=width, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/")
    health = page.locator("#sheet-health")
    expect(health.locator(".health-state")).to_have_text("Lesionado")

    aid = health.locator("#health-first-aid")
    aid.locator("summary").click()
    aid.get_by_label("Quién cura").select_option(label="Doctora Ruiz")
    aid.get_by_label("Con equipo médico adecuado (sin −2)").check()
    screenshot(page, f"gm-first-aid-{width}")
    health_shot(page, request, f"gm-first-aid-health-{width}")
    aid.get_by_role("button", name="Tirar primeros auxilios").click()
    expect(health.locator(".health-notice")).to_contain_text("Primeros auxilios de Doctora Ruiz")
    # The doctor's dice are on the event, drawn as dice.
    first = health.locator(".health-event").first
    expect(first.locator("li.die")).not_to_have_count(0)
    treated = HealthEvent.objects.filter(character=lucia).first()
    assert treated.kind == "treatment"
    assert treated.roll.character_id == doctor.pk

    # Undo takes it back (the roll stays in the log).
    first.get_by_role("button", name="Deshacer").click()
    expect(health.locator(".health-state")).to_have_text("Lesionado")
    expect(health.locator(".health-event").nth(1)).to_contain_text("deshecho")

    rest = health.locator("#health-time")
    rest.locator("summary").click()
    expect(rest.get_by_role("button", name="Descanso 8 h")).to_be_visible()
    rest.get_by_label("Cuánto tiempo").fill("1")
    rest.get_by_label("Unidad").select_option("weeks")
    rest.get_by_role("button", name="Avanzar", exact=True).click()
    expect(health.locator(".health-notice")).to_contain_text("Pasa el tiempo: 1 semana")
    expect(health.locator(".health-state")).to_have_text("Lastimado")
    expect(health).to_contain_text("Se cura del todo en")
    health.locator("#health-damage summary").click()
    screenshot(page, f"gm-panel-{width}")
    health_shot(page, request, f"gm-panel-health-{width}")
    page.emulate_media(color_scheme="dark")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-bs-theme", "dark")
    health_shot(page, request, f"gm-panel-health-dark-{width}")
    page.emulate_media(color_scheme="light")
    page.get_by_role("link", name="Todo el historial de salud").click()
    expect(page.get_by_role("heading", name="Salud de Lucía Ferrer")).to_be_visible()
    expect(page.locator(".health-event")).to_have_count(6)
    screenshot(page, f"history-{width}")


def other_system_table(system):
    gm = UserFactory(username="narradora")
    bob = UserFactory(username="bob")
    campaign = CampaignFactory(name="Crónica de prueba", system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=bob, role="player")
    ratings = {
        "hitos": {"fortaleza": 4, "voluntad": 2, "intelecto": 4, "profesion": 3},
        "ndp": {"auxiliar": 4},
        "objetivo": {"resistencia": 8},
    }[system]
    hero = make_character(campaign, bob, name="Héroe", ratings=ratings)
    return campaign, gm, hero


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize(
    ("system", "fields", "state"),
    [
        ("hitos", {"Puntos de daño": "4", "RD": "1"}, "Sano"),
        ("ndp", {"Tirada del arma o daño neto": "9", "RD": "2"}, "Sin heridas"),
        ("objetivo", {"PV perdidos": "7"}, "Incapacitado"),
    ],
)
def test_each_systems_damage_panel_in_the_browser(open_as, request, system, fields, state, width):
    campaign, gm, hero = other_system_table(system)
    page = open_as(gm, width=width, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{hero.pk}/")
    panel = page.locator("#health-damage")
    panel.locator("summary").click()
    for label, value in fields.items():
        panel.get_by_label(label).fill(value)
    if system == "ndp":
        panel.get_by_label("Parte del cuerpo").select_option("brazo_derecho")
        panel.get_by_text("Cortante", exact=True).click()
    panel.get_by_role("button", name="Aplicar daño").click()
    expect(page.locator(".health-notice")).to_contain_text("Daño aplicado")
    event = HealthEvent.objects.get(character=hero)
    assert event.kind == "damage"
    if system == "ndp":
        expect(page.locator("#sheet-health")).to_contain_text("Brazo derecho: 7 → grave")
        expect(page.locator(".health-state")).to_have_text("Con heridas")
    elif system == "objetivo":
        expect(page.locator(".health-state")).to_have_text(state)
    for details in page.locator("#sheet-health details").all():
        if details.get_attribute("open") is None:
            details.locator("summary").click()
    health_shot(page, request, f"{system}-{width}")


def test_ndp_gm_bleeds_a_round_and_marks_unconscious_with_one_click_each(open_as):
    campaign, gm, hero = other_system_table("ndp")
    for _ in range(2):
        health_services.character_apply_damage(
            character=hero, user=gm, damage=DamageInput(8, "cortante", rd=4, part="torso")
        )
    page = open_as(gm)
    page.goto(f"/campaigns/{campaign.pk}/characters/{hero.pk}/")
    actions = page.locator("#sheet-health .health-gm-actions")
    actions.get_by_role("button", name="Sangrar una ronda").click()
    expect(page.locator(".health-notice")).to_contain_text("Una ronda de hemorragia")
    actions.get_by_role("button", name="Marcar inconsciente").click()
    expect(page.locator(".health-notice")).to_contain_text("Cae inconsciente")
    expect(page.locator(".health-summary")).to_contain_text("inconsciente")
    actions.get_by_role("button", name="Vuelve en sí").click()
    expect(page.locator(".health-notice")).to_contain_text("Vuelve en sí")
    assert [e.summary for e in HealthEvent.objects.filter(character=hero)][:3] == [
        "Vuelve en sí",
        "Cae inconsciente",
        "Una ronda de hemorragia",
    ]


def test_a_health_tool_opened_on_its_own_page_works_with_javascript_on(open_as):
    """Its link is for browsers without JavaScript, but the page may be opened anyway
    (a bookmark, a new tab): its form posts plainly and lands back on the sheet."""
    campaign, gm, _bob, lucia, _doctor = table()
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(2, "L"))
    page = open_as(gm)
    page.goto(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/health/time/")
    page.get_by_role("button", name="1 semana").click()
    expect(page).to_have_url(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/#sheet-health")
    expect(page.locator("#sheet-health .health-state")).to_have_text("Ileso")
    assert HealthEvent.objects.filter(character=lucia, kind="time").exists()


def test_enter_in_the_amount_of_time_advances_by_the_amount_typed(open_as):
    """Enter in "How long" (a form's implicit submission) passes the time typed, not
    the first quick choice (Descanso 8 h): on the sheet and on the scene page."""
    from campaigns.services.chronicle import scene_create

    campaign, gm, _bob, lucia, _doctor = table()
    for _ in range(2):
        health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    page = open_as(gm)
    page.goto(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/")
    health = page.locator("#sheet-health")
    rest = health.locator("#health-time")
    rest.locator("summary").focus()
    page.keyboard.press("Enter")
    amount = rest.get_by_label("Cuánto tiempo")
    expect(amount).to_be_visible()
    amount.focus()
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("s")
    expect(rest.get_by_label("Unidad")).to_have_value("weeks")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(health.locator(".health-notice")).to_contain_text("Pasa el tiempo: 2 semanas")
    assert HealthEvent.objects.filter(character=lucia).first().inputs["hours"] == 336

    scene = scene_create(campaign=campaign, title="La posada", participants=[lucia])
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/")
    time = page.locator("#scene-time")
    time.get_by_label("Cantidad").focus()
    page.keyboard.type("3")
    page.keyboard.press("Tab")
    page.keyboard.type("d")
    expect(time.get_by_label("Unidad")).to_have_value("days")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.locator(".alert-success")).to_contain_text("3 días han pasado")
    assert HealthEvent.objects.filter(character=lucia).first().inputs["hours"] == 72


def test_light_bashing_shows_it_heals_in_a_few_minutes_on_the_open_sheets(open_as, request):
    campaign, gm, bob, lucia, _doctor = table()
    sheet = f"/campaigns/{campaign.pk}/characters/{lucia.pk}/"
    player_page = open_as(bob, width=360, height=780)
    gm_page = open_as(gm, width=1280)
    player_page.goto(sheet)
    gm_page.goto(sheet)
    expect(player_page.locator(".health-state")).to_have_text("Ileso")
    expect(player_page.locator(".health-time-left")).to_have_count(0)

    # Two levels of bashing: Lastimado, gone in minutes (the seed's "unos minutos").
    panel = gm_page.locator("#health-damage")
    panel.locator("summary").click()
    panel.get_by_label("Niveles de daño").fill("2")
    panel.get_by_text("Contundente", exact=True).click()
    panel.get_by_role("button", name="Aplicar daño").click()
    expect(gm_page.locator(".health-notice")).to_contain_text("Daño aplicado: 2 B")
    expect(gm_page.locator(".health-time-left")).to_have_text("Se cura del todo en unos minutos")
    # The player's open sheet follows with the same time.
    expect(player_page.locator(".health-state")).to_have_text("Lastimado")
    expect(player_page.locator(".health-time-left")).to_have_text(
        "Se cura del todo en unos minutos"
    )
    health_shot(player_page, request, "light-bashing-360")
