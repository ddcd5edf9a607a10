"""A player looks for a word that is only in a diary, typed without its accent, from the
campaign's top bar, and lands on the diary."""

import re

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Membership
from characters import services as character_services
from tests.factories import CampaignFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_finds_a_diary_by_a_word_without_its_accent(open_as, screenshot):
    gm, pablo, marta = (UserFactory(username=name) for name in ("narradora", "pablo", "marta"))
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    for user, role in ((gm, "gm"), (pablo, "player"), (marta, "player")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    lucia = make_character(campaign, pablo, name="Lucía")
    sancho = make_character(campaign, marta, name="Sancho")
    scene = services.scene_create(
        campaign=campaign, title="El incendio", participants=[lucia, sancho]
    )
    services.scene_create(campaign=campaign, title="La posada", summary="Cenamos en silencio.")
    entry = character_services.diary_save(
        scene=scene,
        character=sancho,
        user=marta,
        # Markup the diary's page hides: the snippet hides it too.
        body=(
            "Vi al prior quemar el sello en **Valdepeñas**<script>alert(1)</script>, "
            "y juré [callarlo](javascript:alert(1))."
        ),
        status="published",
        visibility="group",
    )

    page = open_as("pablo")
    page.goto(campaign.get_absolute_url())
    # "/" reaches the labelled box in the top bar from anywhere on the page.
    page.locator("body").press("/")
    box = page.get_by_role("searchbox", name="Buscar en esta campaña")
    expect(box).to_be_focused()
    box.fill("valdepenas")
    box.press("Enter")

    expect(page).to_have_url(re.compile(r"/search/\?q=valdepenas"))
    diaries = page.get_by_role("region", name=re.compile("Diarios"))
    expect(diaries.locator("mark")).to_have_text("Valdepeñas")
    expect(diaries.locator(".search-snippet")).to_have_text(
        "Vi al prior quemar el sello en Valdepeñas, y juré callarlo."
    )
    expect(page.locator(".search-hit")).to_have_count(1)
    screenshot(page, "results-1280")

    # With htmx the results follow the box as the player types.
    field = page.get_by_role("searchbox", name="Palabras que buscar")
    field.fill("quemaron")
    expect(diaries.locator("mark")).to_have_text("quemar")
    field.fill("silencio")
    expect(page.get_by_role("region", name=re.compile("Escenas"))).to_contain_text("La posada")
    expect(page.locator(".search-hit")).to_have_count(1)
    field.fill("valdepenas")
    hit = page.get_by_role("link", name=re.compile("Diario de Sancho"))
    expect(hit).to_be_visible()
    hit.click()

    expect(page).to_have_url(re.compile(rf"/scenes/{scene.pk}/.*#diary-{entry.pk}$"))
    diary = page.locator(f"#diary-{entry.pk}")
    expect(diary).to_contain_text("Valdepeñas")
    expect(diary).to_be_in_viewport()


def test_the_results_page_reads_well_on_a_phone_without_javascript(browser, live_server):
    from django.conf import settings
    from django.test import Client

    gm, ana = UserFactory(username="narradora"), UserFactory(username="ana")
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    for user, role in ((gm, "gm"), (ana, "player")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    services.scene_create(campaign=campaign, title="El puente", summary="Cruzamos el puente.")
    client = Client()
    client.force_login(ana)
    context = browser.new_context(
        viewport={"width": 360, "height": 780}, java_script_enabled=False, locale="es-ES"
    )
    try:
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/search/")
        page.get_by_role("searchbox", name="Palabras que buscar").fill("puentes")
        page.get_by_role("button", name="Buscar", exact=True).last.click()
        expect(page.locator(".search-hit mark").first).to_have_text("puente")
        from tests.e2e.conftest import SCREENSHOTS

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "search-no-js-360.png"), full_page=True)
    finally:
        context.close()
