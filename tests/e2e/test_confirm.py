"""Destructive actions ask first: a dialog with JavaScript, a page without it."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Membership
from characters.models import Specialty
from tests.e2e.conftest import SCREENSHOTS
from tests.factories import (
    PASSWORD,
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    make_character,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form [type=submit]").click()
    expect(page.get_by_role("heading", name="Mis campañas")).to_be_visible()


@pytest.fixture
def table(db):
    gm = UserFactory(username="narradora")
    pablo = UserFactory(username="pablo")
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=pablo, role="player")
    return campaign, gm, pablo


def test_expelling_a_member_asks_in_a_dialog_that_can_be_cancelled(new_page, table, screenshot):
    campaign, _gm, pablo = table
    page = new_page()
    log_in(page, "narradora")
    page.goto(campaign.get_absolute_url())
    members = page.locator("#members")
    members.get_by_text("Gestionar miembros").click()
    members.get_by_role("button", name="Expulsar").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("¿Expulsar a pablo de Sombras de Toledo?")
    screenshot(page, "dialog-1280")
    # Esc (or Cancel) changes nothing.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert Membership.objects.filter(user=pablo).exists()

    members.get_by_role("button", name="Expulsar").click()
    dialog.get_by_role("button", name="Cancelar").click()
    expect(dialog).to_be_hidden()
    assert Membership.objects.filter(user=pablo).exists()

    members.get_by_role("button", name="Expulsar").click()
    dialog.get_by_role("button", name="Expulsar").click()
    expect(page.get_by_text("pablo ha sido expulsado de la campaña.")).to_be_visible()
    assert not Membership.objects.filter(user=pablo).exists()


def test_removing_a_specialty_asks_then_the_sheet_updates_in_place(new_page, table):
    campaign, _gm, pablo = table
    character = make_character(campaign, pablo, name="Lucía", ratings={"ciencia": 2})
    Specialty.objects.create(character=character, skill_key="ciencia", name="Química")
    page = new_page(width=360, height=780)
    log_in(page, "narradora")
    page.goto(character.get_absolute_url())
    specialties = page.locator("#specialties")
    expect(specialties).to_contain_text("Química")
    specialties.get_by_role("button", name="Quitar Química").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("¿Quitar Química de la ficha de Lucía?")
    dialog.get_by_role("button", name="Quitar").click()
    expect(specialties).not_to_contain_text("Química")
    assert not Specialty.objects.filter(character=character).exists()


def test_without_javascript_leaving_asks_on_a_page_first(browser, live_server, table, request):
    campaign, _gm, pablo = table
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        log_in(page, "pablo")
        page.goto(campaign.get_absolute_url())
        page.get_by_role("button", name="Dejar la campaña").click()
        expect(page.get_by_role("heading", name="¿Dejar Sombras de Toledo?")).to_be_visible()
        assert Membership.objects.filter(user=pablo).exists()
        page.get_by_role("button", name="Dejar la campaña").click()
        expect(page.get_by_text("Has dejado Sombras de Toledo.")).to_be_visible()
        assert not Membership.objects.filter(user=pablo).exists()
    except Exception:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}--FAILED.png"))
        raise
    finally:
        context.close()
