"""The Dado objetivo combat panel in a browser: the GM types the distance of a shot and the
difficulty follows the revolver's ranges and cover, then hands a destiny point back from
the shooter's row."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from characters.models import Resource
from mechanics.services import combat as combat_services
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_gm_shoots_at_a_distance_and_hands_a_destiny_point_back_from_the_panel(
    open_as, screenshot, width
):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with("objetivo", gm, players=[player], name="Mesa")
    fred = make_character(
        campaign, player, name="Fred", ratings={"destreza": 8, "armas_dist": 4, "resistencia": 8}
    )
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)

    page = open_as("narradora", width=width, height=900)
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/{combat.pk}/")
    form = page.locator("#combat-attack")
    form.get_by_label("Atacante").select_option(label="Fred")
    form.get_by_label("Objetivo", exact=True).select_option(label="Forajido")
    form.get_by_label("Arma", exact=True).select_option("revolver")
    form.get_by_label("Distancia al objetivo (m)").fill("50")
    form.get_by_label("Distancia al objetivo (m)").blur()
    defence = page.locator("#combat-attack .combat-defence")
    expect(defence).to_have_text("20")
    expect(page.locator("#combat-odds")).to_contain_text("50 m, alcance medio")
    page.locator("#combat-attack").get_by_label(
        "El objetivo está a cubierto (un paso más difícil)"
    ).check()
    expect(page.locator("#combat-attack .combat-defence")).to_have_text("25")
    screenshot(page, f"range-{width}")

    row = page.locator(".combat-fighter", has_text="Fred")
    row.get_by_role("button", name="Devolver un punto de destino").click()
    row = page.locator(".combat-fighter", has_text="Fred")
    expect(row.locator(".combat-pool-pending")).to_have_text(
        "Punto devuelto: la próxima tirada baja un nivel."
    )
    expect(page.get_by_text("Punto de destino devuelto")).to_be_visible()
    screenshot(page, f"handed-back-in-combat-{width}")
    assert Resource.objects.get(character=fred, key="destiny_points").current == 1


def test_a_late_refresh_of_the_attack_form_never_overwrites_the_distance_being_typed(open_as):
    gm = UserFactory(username="narradora")
    campaign = campaign_with("objetivo", gm, name="Mesa")
    fred = make_character(campaign, None, user=gm, name="Fred", ratings={"destreza": 8})
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)

    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/{combat.pk}/")
    form = page.locator("#combat-attack")
    form.get_by_label("Atacante").select_option(label="Fred")
    form.get_by_label("Objetivo", exact=True).select_option(label="Forajido")
    expect(form.get_by_label("Objetivo", exact=True)).to_have_value(str(foe.pk))
    # The refresh asked for by the weapon is held until the distance has been typed.
    held = []

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(lambda url: "/attack/?" in url, hold_the_first)
    with page.expect_request(lambda request: "/attack/?" in request.url):
        form.get_by_label("Arma", exact=True).select_option("revolver")
    form.get_by_label("Distancia al objetivo (m)").fill("50")
    held[0].continue_()
    page.wait_for_function(
        "() => !document.querySelector('#combat-attack form').classList.contains('htmx-request')"
    )
    form.get_by_label("Distancia al objetivo (m)").blur()
    expect(page.locator("#combat-attack .combat-defence")).to_have_text("20")
    expect(form.get_by_label("Distancia al objetivo (m)")).to_have_value("50")


def posted(response, path: str) -> bool:
    return response.request.method == "POST" and response.url.endswith(path)


def test_gm_spends_a_destiny_point_on_initiative_and_the_revolver_waits_a_round(open_as):
    gm = UserFactory(username="narradora")
    campaign = campaign_with("objetivo", gm, name="Mesa")
    fred = make_character(
        campaign, None, user=gm, name="Fred", ratings={"destreza": 8, "armas_dist": 4}
    )
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    Resource.objects.filter(character=fred, key="destiny_points").update(current=1)
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)

    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/{combat.pk}/")
    page.get_by_label("Fred gasta un punto de destino (dado mayor)").check()
    page.get_by_role("button", name="Tirar iniciativa").click()
    expect(page.get_by_role("button", name="Siguiente turno")).to_be_visible()
    expect(page.get_by_label("Fred gasta un punto de destino (dado mayor)")).to_have_count(0)
    assert Resource.objects.get(character=fred, key="destiny_points").current == 0

    form = page.locator("#combat-attack")
    form.get_by_label("Atacante").select_option(label="Fred")
    form.get_by_label("Objetivo", exact=True).select_option(label="Forajido")
    form.get_by_label("Arma", exact=True).select_option("revolver")
    expect(page.locator("#combat-attack .combat-defence")).to_have_text("15")
    # The initiative's notice is still on the panel: wait for the attack's own answer.
    with page.expect_response(lambda response: posted(response, "/attack/")):
        page.get_by_role("button", name="Tirar el ataque").click()
    expect(
        page.locator(".combat-attack-pending, #combat-panel .alert-success").first
    ).to_be_visible()
    # Two turns later a new round starts: the revolver is still reloading.
    # Each turn's panel is in place before the next click.
    current = page.locator('#combat-panel [aria-current="step"]')
    first = current.get_attribute("id")
    page.get_by_role("button", name="Siguiente turno").click()
    expect(current).not_to_have_attribute("id", first)
    expect(page.locator("#combat-round")).to_have_text("Asalto 1")
    page.get_by_role("button", name="Siguiente turno").click()
    expect(page.locator("#combat-round")).to_have_text("Asalto 2")
    form = page.locator("#combat-attack")
    form.get_by_label("Atacante").select_option(label="Fred")
    form.get_by_label("Objetivo", exact=True).select_option(label="Forajido")
    form.get_by_label("Arma", exact=True).select_option("revolver")
    expect(form).to_contain_text("El Revolver de Fred está recargando")


def test_other_weapon_damage_too_large_or_no_dice_says_which(open_as, screenshot):
    gm = UserFactory(username="narradora")
    campaign = campaign_with("objetivo", gm, name="Mesa")
    fred = make_character(campaign, None, user=gm, name="Fred", ratings={"fuerza": 5})
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)

    page = open_as("narradora", width=360, height=780)
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/{combat.pk}/")
    form = page.locator("#combat-attack")
    form.get_by_label("Atacante").select_option(label="Fred")
    form.get_by_label("Objetivo", exact=True).select_option(label="Forajido")
    form.get_by_label("Arma", exact=True).select_option("custom")
    damage = page.locator("#combat-attack").get_by_label("Daño de otra arma")
    damage.fill("999d999")
    damage.blur()
    cell = page.locator("#combat-attack .combat-cell", has=page.locator("#id_damage"))
    expect(cell.locator(".invalid-feedback")).to_have_text(
        "«999d999» es demasiado grande: el daño de un arma es como mucho 20 dados de hasta "
        "100 caras."
    )
    expect(page.locator("#id_damage")).to_have_value("999d999")
    screenshot(page, "damage-too-large-360")
    page.locator("#id_damage").fill("1d0")
    page.locator("#id_damage").blur()
    expect(cell.locator(".invalid-feedback")).to_have_text(
        "Un dado de 0 caras no tira nada: escribe sus caras, por ejemplo 1d6."
    )
    screenshot(page, "damage-no-dice-360")
    page.locator("#id_damage").fill("2d6+1")
    page.locator("#id_damage").blur()
    expect(cell.locator(".invalid-feedback")).to_have_count(0)
