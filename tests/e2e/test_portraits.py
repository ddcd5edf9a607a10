"""A player gives their character a portrait from the sheet, on a phone and a laptop; an
NdP sheet folds its untrained skills."""

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def jpeg(tmp_path, name="retrato.jpg"):
    path = tmp_path / name
    picture = Image.new("RGB", (900, 1200), (120, 20, 30))
    for x in range(300, 600):  # a pale face in the middle, to see the crop on screen
        for y in range(300, 700):
            picture.putpixel((x, y), (230, 200, 170))
    picture.save(path, format="JPEG")
    return path


@pytest.mark.parametrize("width", [360, 1280])
def test_a_player_uploads_a_portrait_and_the_sheet_header_shows_it(
    open_as, screenshot, tmp_path, width
):
    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("tinieblas", gm, players=[player])
    lucia = make_character(campaign, player, name="Lucía Vidal", concept="Periodista")
    page = open_as(player, width=width)
    page.goto(lucia.get_absolute_url())

    # A text file dressed as a PNG is refused; what was typed stays.
    page.get_by_role("link", name="Editar").click()
    page.get_by_label("Concepto").fill("Reportera en apuros")
    fake = tmp_path / "retrato.png"
    fake.write_text("no soy una imagen")
    page.get_by_label("Retrato").set_input_files(fake)
    page.get_by_role("button", name="Guardar").click()
    expect(page.get_by_text("Este archivo no es una imagen JPEG, PNG o WebP.")).to_be_visible()
    expect(page.get_by_label("Concepto")).to_have_value("Reportera en apuros")

    page.get_by_label("Retrato").set_input_files(jpeg(tmp_path))
    page.get_by_role("button", name="Guardar").click()

    portrait = page.get_by_role("img", name="Retrato de Lucía Vidal")
    expect(portrait).to_be_visible()
    expect(page.locator(".sheet-concept")).to_have_text("Reportera en apuros")
    # Served and decoded by the browser: a broken image has no natural width.
    page.wait_for_function(
        "img => img.complete && img.naturalWidth === 160", arg=portrait.element_handle()
    )
    screenshot(page, f"sheet-{width}")


def test_an_ndp_sheet_folds_its_untrained_skills_and_unfolds_them(open_as, screenshot):
    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("ndp", gm, players=[player])
    irene = make_character(campaign, player, name="Irene", ratings={"combate_c_a_c": 5})
    page = open_as(player, width=360)
    page.goto(irene.get_absolute_url())
    expect(page.locator("#trait-combate_c_a_c")).to_be_visible()
    expect(page.locator("#trait-sigilo")).to_be_hidden()
    # A group with no trained skill folds with its heading.
    expect(page.locator(".trait-group", has=page.locator("#trait-sigilo"))).to_be_hidden()
    screenshot(page, "folded-360")
    page.get_by_label("Ocultar habilidades sin entrenar").uncheck()
    expect(page.locator("#trait-sigilo")).to_be_visible()
