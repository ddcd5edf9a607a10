"""A GM hides a player's diary in a browser; the author still reads it, marked hidden."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Membership
from characters import services as character_services
from characters.models import DiaryEntry
from tests.factories import CampaignFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXT = "Vi al prior quemar el sello."


def test_the_gm_hides_a_diary_and_its_author_still_reads_it(open_as, screenshot):
    gm, pablo, marta = (UserFactory(username=name) for name in ("narradora", "pablo", "marta"))
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    for user, role in ((gm, "gm"), (pablo, "player"), (marta, "player")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    lucia = make_character(campaign, pablo, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="El incendio", participants=[lucia])
    character_services.diary_save(
        scene=scene, character=lucia, user=pablo, body=TEXT, status="published", visibility="group"
    )
    url = scene.get_absolute_url()

    # The GM hides it from the scene page, through the confirm dialog.
    gm_page = open_as("narradora")
    gm_page.goto(url)
    diary = gm_page.locator("article.diary-entry", has_text=TEXT)
    diary.get_by_role("button", name="Ocultar al grupo").click()
    dialog = gm_page.get_by_role("dialog")
    expect(dialog).to_contain_text("¿Ocultar al grupo el diario de Lucía?")
    dialog.get_by_role("button", name="Ocultar").click()
    expect(gm_page.get_by_text("Entrada del diario oculta")).to_be_visible()
    expect(diary.get_by_text("Oculto por el máster")).to_be_visible()
    expect(diary.get_by_role("button", name="Mostrar de nuevo al grupo")).to_be_visible()
    assert DiaryEntry.objects.get().hidden_by == gm

    # Another player no longer sees it.
    marta_page = open_as("marta", width=360, height=780)
    marta_page.goto(url)
    expect(marta_page.get_by_role("heading", name="El incendio")).to_be_visible()
    expect(marta_page.get_by_text(TEXT)).to_have_count(0)

    # Its author, on a phone, still reads it, marked hidden.
    pablo_page = open_as("pablo", width=360, height=780)
    pablo_page.goto(url)
    mine = pablo_page.locator("article.diary-entry", has_text=TEXT)
    expect(mine).to_be_visible()
    expect(mine.get_by_text("Oculto por el máster")).to_be_visible()
    expect(mine.get_by_role("button", name="Ocultar al grupo")).to_have_count(0)
    screenshot(pablo_page, "author-sees-hidden-360")
    screenshot(gm_page, "gm-sees-hidden-1280")
