"""What the table does when a request cannot go through: a session that ended while the
sheet was open sends the player to sign in and back to the sheet when she rolls (never the
login page drawn inside the roll panel), while the live table's own refreshes leave the
page where it is and say so; a lost connection says so instead of doing nothing."""

import re

import pytest
from playwright.sync_api import expect

from accounts.models import Session
from mechanics.models import Roll
from tests.e2e.test_live_table import live, not_reloaded
from tests.e2e.test_roll import lucia
from tests.factories import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def open_sheet(page, campaign, character):
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#sheet-rolls #roll-panel-{character.pk}")
    expect(panel.get_by_role("button", name="Tirar los dados")).to_be_visible()
    return panel


def test_a_roll_after_the_session_ended_signs_in_again_and_comes_back_to_the_sheet(
    open_as, screenshot
):
    campaign, character = lucia()
    page = open_as("jugadora", width=360, height=800)
    panel = open_sheet(page, campaign, character)
    Session.objects.all().delete()  # a week after signing in, the session ends

    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    assert not Roll.objects.exists()
    screenshot(page, "login")
    page.locator("#id_username").fill("jugadora")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()

    expect(page).to_have_url(re.compile(rf"/characters/{character.pk}/$"))
    panel = open_sheet(page, campaign, character)
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{character.pk} li.die")).not_to_have_count(0)
    assert Roll.objects.count() == 1


def test_a_roll_with_no_connection_says_so_and_goes_through_once_it_is_back(open_as, screenshot):
    campaign, character = lucia()
    page = open_as("jugadora", width=360, height=800)
    panel = open_sheet(page, campaign, character)
    roll_url = re.compile(rf"/characters/{character.pk}/roll/$")
    page.route(roll_url, lambda route: route.abort("internetdisconnected"))

    panel.get_by_role("button", name="Tirar los dados").click()
    notice = page.locator("#request-trouble")
    expect(notice).to_contain_text("Sin conexión con el sitio")
    expect(notice).to_be_visible()
    # Said at once to screen readers too.
    expect(page.locator("#request-trouble-announcer")).to_contain_text("no se ha enviado nada")
    screenshot(page, "offline")
    assert not Roll.objects.exists()

    page.unroute(roll_url)
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{character.pk} li.die")).not_to_have_count(0)
    expect(notice).to_be_hidden()
    assert Roll.objects.count() == 1


def test_a_live_refresh_after_the_session_ended_leaves_the_page_and_says_so(open_live):
    _campaign, character = lucia()
    page = open_live(character.owner, width=360, height=800)
    live(page, character.get_absolute_url())
    Session.objects.all().delete()

    # The GM raises a trait: the pushed change finds the session gone.
    character.traits.filter(key="investigacion").update(rating=4)
    notice = page.locator("#request-trouble")
    expect(notice).to_contain_text("Tu sesión ha terminado")
    expect(notice).to_be_visible()
    assert not_reloaded(page)
    assert page.url.endswith(character.get_absolute_url())
