"""Seed rules at the table, in a browser: an objetivo GM hands a destiny point back and the
player's next roll goes one level down; a Hitos player uses a rival's aspect against them
and the rival gains the point, then the GM ends the session and the scene aspects are gone."""

import pytest
from playwright.sync_api import expect

from characters.models import Aspect, Resource
from characters.services.sheet import aspect_add
from mechanics.models import Roll
from tests.factories import UserFactory, campaign_with, make_character
from tests.mechanics import rolling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
fixed_dice = rolling.fixed_dice


def table(system):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    return campaign_with(system, gm, players=[player], name="Mesa"), gm, player


@pytest.mark.parametrize("width", [360, 1280])
def test_objetivo_gm_hands_a_destiny_point_back_and_the_next_roll_goes_down(
    open_as, screenshot, fixed_dice, width
):
    campaign, _gm, player = table("objetivo")
    pepa = make_character(campaign, player, name="Pepa", ratings={"fuerza": 5, "pelea": 3})
    points = Resource.objects.get(character=pepa, key="destiny_points").current
    sheet_url = f"/campaigns/{campaign.pk}/characters/{pepa.pk}/"

    page = open_as("narradora", width=width, height=900)
    page.goto(sheet_url)
    pool = page.locator("#pool-destiny_points")
    pool.get_by_role("button", name="Devolver un punto de destino").click()
    expect(pool.locator(".pool-pending")).to_have_text(
        "Punto devuelto: la próxima tirada baja un nivel."
    )
    expect(pool.locator("[data-pool-value]")).to_have_text(str(points + 1))
    screenshot(page, f"handed-back-{width}")

    page = open_as("jugadora", width=width, height=900)
    page.goto(f"{sheet_url}roll/")
    panel = page.locator(f"#roll-panel-{pepa.pk}")
    panel.get_by_label("Atributo", exact=True).select_option("fuerza")
    panel.get_by_label("Habilidad", exact=True).select_option("pelea")
    odds = page.locator(f"#roll-odds-{pepa.pk}")
    expect(odds.locator(".roll-note")).to_contain_text(["Se devolvió un punto de destino"])
    fixed_dice(4, 10, 10)
    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{pepa.pk}")
    expect(result.locator("li.die")).not_to_have_count(0)
    screenshot(page, f"next-roll-{width}")
    record = Roll.objects.get(character=pepa).record
    assert record["details"]["level"] == -1
    assert record["details"]["target_dice"] == [4]


def test_hitos_rivals_aspect_then_the_gm_ends_the_session(open_as, screenshot, fixed_dice):
    campaign, gm, player = table("hitos")
    rival_player = UserFactory(username="rival")
    campaign.memberships.create(user=rival_player, role="player")
    pepa = make_character(campaign, player, name="Pepa", ratings={"reflejos": 4, "combate": 3})
    rocco = make_character(campaign, rival_player, name="Rocco")
    Aspect.objects.create(character=rocco, kind="complicacion", text="Confiado en exceso")
    aspect_add(character=pepa, user=gm, kind="temporal", text="Cegada", duration="scene")
    theirs = Resource.objects.get(character=rocco, key="drama_points").current

    page = open_as("jugadora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{pepa.pk}/roll/")
    panel = page.locator(f"#roll-panel-{pepa.pk}")
    panel.get_by_label("Característica", exact=True).select_option("reflejos")
    panel.get_by_label("Habilidad", exact=True).select_option("combate")
    panel.get_by_label("Activar un aspecto (se usa el dado mayor)").select_option(
        label="Rocco: Confiado en exceso"
    )
    fixed_dice(3, 6, 7)
    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{pepa.pk}")
    expect(result).to_contain_text(f"Rocco gana el punto dramático ({theirs} → {theirs + 1})")
    screenshot(page, "rivals-aspect")
    assert Resource.objects.get(character=rocco, key="drama_points").current == theirs + 1

    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/")
    page.locator("#session-end").get_by_role("button", name="Terminar sesión").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Terminar sesión").click()
    expect(page.locator(".messages")).to_contain_text("Sesión 1 terminada.")
    expect(page.locator(".messages")).to_contain_text("Pepa pierde el aspecto temporal «Cegada».")
    screenshot(page, "session-ended")
    assert not Aspect.objects.filter(character=pepa, kind="temporal").exists()
