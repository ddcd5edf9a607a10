"""The chronicle in a browser: a GM opens a scene, two players write their diaries."""

import random

import pytest
from playwright.sync_api import expect

from campaigns.models import Membership, Scene
from characters.models import Character, DiaryEntry
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store
from tests.factories import CampaignFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def write_diary(page, scene_url: str, name: str, text: str, *, only_gm: bool = False) -> None:
    page.goto(scene_url)
    page.get_by_role("link", name=f"Escribir el diario de {name}").click()
    expect(page.get_by_role("heading", name=f"Diario de {name}")).to_be_visible()
    page.get_by_label("Entrada de diario").fill(text)
    if only_gm:
        page.get_by_label("Solo el máster").check()
    page.get_by_role("button", name="Publicar").click()
    expect(page.get_by_text("Entrada de diario publicada.")).to_be_visible()


def test_gm_creates_a_scene_and_both_players_write_their_diaries(open_as, screenshot):
    gm = UserFactory(username="narradora")
    pablo = UserFactory(username="pablo")
    marta = UserFactory(username="marta")
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    for user, role in ((gm, "gm"), (pablo, "player"), (marta, "player")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    make_character(campaign, pablo, name="Lucía")
    make_character(campaign, marta, name="Mateo")
    make_character(campaign, None, name="El Prior", user=gm)

    # The GM creates the scene from the campaign page.
    gm_page = open_as("narradora")
    gm_page.goto(f"/campaigns/{campaign.pk}/")
    gm_page.locator("#scenes").get_by_role("link", name="Nueva escena").click()
    gm_page.get_by_label("Título").fill("La noche del incendio")
    gm_page.get_by_label("Lugar").fill("Archivo de la catedral, Toledo")
    gm_page.get_by_label("Resumen").fill("El archivo arde. **Alguien** cerró las puertas.")
    gm_page.get_by_label("Lucía · pablo").check()
    gm_page.get_by_label("Mateo · marta").check()
    screenshot(gm_page, "scene-form-1280")
    gm_page.get_by_role("button", name="Crear escena").click()
    expect(gm_page.get_by_role("heading", name="La noche del incendio")).to_be_visible()
    scene = Scene.objects.get()
    assert sorted(c.name for c in scene.participants.all()) == ["Lucía", "Mateo"]
    scene_url = gm_page.url

    # Pablo, on a phone, previews and publishes Lucía's diary for the group.
    pablo_page = open_as("pablo", width=360, height=780)
    pablo_page.goto(scene_url)
    expect(pablo_page.get_by_role("link", name="Escribir el diario de Mateo")).to_have_count(0)
    pablo_page.get_by_role("link", name="Escribir el diario de Lucía").click()
    pablo_page.get_by_label("Entrada de diario").fill(
        "Olía a **humo** antes de ver las llamas.\n\n- Cerrojos echados\n- Un sello roto"
    )
    pablo_page.get_by_role("button", name="Vista previa").click()
    expect(pablo_page.locator("#diary-preview strong")).to_have_text("humo")
    screenshot(pablo_page, "diary-preview-360")
    pablo_page.get_by_role("button", name="Publicar").click()
    expect(pablo_page.get_by_text("Entrada de diario publicada.")).to_be_visible()

    # Marta writes Mateo's diary for the GM only.
    marta_page = open_as("marta", width=1280)
    write_diary(marta_page, scene_url, "Mateo", "Fui yo quien cerró la puerta.", only_gm=True)
    assert DiaryEntry.objects.filter(status="published").count() == 2

    # Rolls made during the scene join its timeline; the GM's secret one only for GMs.
    roll_store(
        campaign=campaign,
        user=pablo,
        record=roll_dice(6, rng=random.Random(3)),
        character=Character.objects.get(name="Lucía"),
        scene=scene,
        label="Astucia + Investigación",
    )
    roll_store(
        campaign=campaign,
        user=gm,
        record=roll_dice(4, rng=random.Random(4)),
        scene=scene,
        label="Percepción del Prior",
        secret=True,
    )

    # Pablo sees his own entry, not Mateo's GM-only confession.
    pablo_page.goto(scene_url)
    expect(pablo_page.get_by_role("heading", name="Diario de Lucía")).to_be_visible()
    expect(pablo_page.get_by_text("Fui yo quien cerró la puerta.")).to_have_count(0)
    expect(pablo_page.get_by_text("Astucia + Investigación")).to_be_visible()
    expect(pablo_page.get_by_text("Percepción del Prior")).to_have_count(0)
    screenshot(pablo_page, "scene-player-360")

    # The GM sees both diaries, keeps a note and closes the scene (htmx, no reload).
    gm_page.goto(scene_url)
    expect(gm_page.get_by_role("heading", name="Diario de Lucía")).to_be_visible()
    expect(gm_page.get_by_role("heading", name="Diario de Mateo")).to_be_visible()
    expect(gm_page.get_by_text("Fui yo quien cerró la puerta.")).to_be_visible()
    expect(gm_page.get_by_text("Percepción del Prior")).to_be_visible()
    gm_page.get_by_label("Nota del máster").fill("Mateo miente: el sello es del Prior.")
    gm_page.get_by_role("button", name="Añadir nota").click()
    expect(gm_page.locator("#gm-notes")).to_contain_text("el sello es del Prior")
    gm_page.get_by_role("button", name="Cerrar escena").click()
    expect(gm_page.get_by_role("button", name="Reabrir escena")).to_be_visible()
    assert Scene.objects.get().status == "closed"
    screenshot(gm_page, "scene-gm-1280")

    gm_phone = open_as("narradora", width=360, height=780)
    gm_phone.goto(scene_url)
    screenshot(gm_phone, "scene-gm-360")
    gm_phone.goto(f"/campaigns/{campaign.pk}/scenes/")
    expect(gm_phone.get_by_text("2 entradas de diario · 2 tiradas")).to_be_visible()
    screenshot(gm_phone, "timeline-gm-360")
    gm_phone.goto(f"/campaigns/{campaign.pk}/")
    expect(gm_phone.locator("#scenes")).to_contain_text("La noche del incendio")
    screenshot(gm_phone, "dashboard-gm-360")

    pablo_page.goto(f"/campaigns/{campaign.pk}/scenes/")
    expect(pablo_page.get_by_text("1 entrada de diario · 1 tirada")).to_be_visible()
    screenshot(pablo_page, "timeline-player-360")
