"""History, import and the Dado objetivo trait lists in a browser, phone and desktop."""

import json
import re

import pytest
from playwright.sync_api import expect

from characters import services
from characters.models import Character
from mechanics.systems.registry import get_system
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    make_character,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE, DESKTOP = 360, 1280


def campaign_with(system: str):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Operación Medianoche", system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign, gm, player


def test_gm_edits_the_trait_lists_without_reloading(open_as, screenshot):
    campaign, _gm, player = campaign_with("objetivo")
    make_character(campaign, player, name="Fred", ratings={"sigilo": 3})
    for width, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = open_as("narradora", width=width)
        page.goto(f"/campaigns/{campaign.pk}/characters/trait-lists/")
        expect(
            page.get_by_role("heading", name="Listas de atributos y habilidades")
        ).to_be_visible()
        screenshot(page, f"starter-{name}")
    # The last page (desktop): add a skill and move it, the page is not reloaded.
    page.evaluate("window.notReloaded = true")
    skills = page.locator("section", has=page.get_by_role("heading", name="Habilidades"))
    skills.get_by_label("Nombre", exact=True).last.fill("Pilotar")
    skills.get_by_role("button", name="Añadir").click()
    expect(page.get_by_text("Pilotar añadido.")).to_be_visible()
    page.get_by_role("button", name="Subir Pilotar").click()
    expect(page.get_by_text("Orden guardado.")).to_be_visible()
    expect(page.get_by_role("button", name="Quitar Sigilo")).to_be_disabled()
    assert page.evaluate("window.notReloaded") is True
    screenshot(page, "after-add-desktop")
    names = [spec.name for spec in get_system("objetivo").trait_specs(campaign)]
    assert names[-2:] == ["Pilotar", "Sigilo"]


def test_player_reads_the_history_on_a_phone(open_as, screenshot):
    campaign, gm, player = campaign_with("tinieblas")
    character = make_character(campaign, player, name="Elena Roldán", concept="Forense")
    services.trait_set(character=character, user=gm, key="fuerza", rating=3)
    services.resource_adjust(character=character, user=player, key="willpower", delta=-1)
    services.character_update(
        character=character,
        user=player,
        description="Metódica, ojerosa, siempre con olor a formol. " * 4,
    )
    page = open_as("jugadora", width=PHONE, height=780)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/history/")
    expect(page.get_by_role("heading", name="Historial de Elena Roldán")).to_be_visible()
    expect(page.get_by_text("Fuerza de Voluntad (reserva)")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
    screenshot(page, "history-phone")


def test_gm_imports_a_sheet_and_sees_problems_first(open_as, screenshot, tmp_path):
    campaign, gm, player = campaign_with("tinieblas")
    source = CampaignFactory(name="Origen", system="tinieblas", created_by=gm)
    MembershipFactory(campaign=source, user=gm, role="gm")
    original = make_character(source, None, name="Mateo Ibarra", user=gm, ratings={"pelea": 4})
    page = open_as("narradora", width=PHONE, height=780)
    with page.expect_download() as download:
        page.goto(f"/campaigns/{source.pk}/characters/{original.pk}/history/")
        page.get_by_role("link", name="Exportar (JSON)").click()
    path = tmp_path / "mateo.json"
    download.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["name"] == "Mateo Ibarra"

    broken = tmp_path / "roto.json"
    broken.write_text(json.dumps({**data, "traits": [{"key": "telequinesis", "rating": 2}]}))
    page.goto(f"/campaigns/{campaign.pk}/characters/import/")
    page.get_by_label("Archivo de personaje (JSON)").set_input_files(broken)
    page.get_by_label("Propietario").select_option(label="jugadora")
    page.get_by_role("button", name="Importar").click()
    expect(page.get_by_text("Rasgo desconocido «telequinesis»")).to_be_visible()
    expect(page.get_by_label("Propietario")).to_have_value(str(player.pk))
    screenshot(page, "import-refused-phone")

    page.get_by_label("Archivo de personaje (JSON)").set_input_files(path)
    page.get_by_role("button", name="Importar").click()
    expect(page).to_have_url(re.compile(rf"/campaigns/{campaign.pk}/characters/\d+/$"))
    imported = Character.objects.get(campaign=campaign)
    assert imported.owner == player
    assert services.ratings_of(imported)["pelea"] == 4


def test_gm_pages_through_a_long_history_without_reloading(open_as, screenshot):
    campaign, gm, player = campaign_with("tinieblas")
    character = make_character(campaign, player, name="Elena Roldán")
    for rating in [2, 3, 4, 5, 4, 3, 2, 1] * 4:
        services.trait_set(character=character, user=gm, key="pelea", rating=rating)
    page = open_as("narradora", width=DESKTOP)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/history/")
    expect(page.get_by_text("Página 1 de 2")).to_be_visible()
    screenshot(page, "history-desktop")
    page.evaluate("window.notReloaded = true")
    page.get_by_role("link", name="Más antiguos").click()
    expect(page.get_by_text("Página 2 de 2")).to_be_visible()
    expect(page.get_by_text("Ficha creada")).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    assert page.url.endswith("?page=2")
