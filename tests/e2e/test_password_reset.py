"""A player who forgot the password gets a link by email and chooses a new one."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from accounts import outbox
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_forgotten_password_is_replaced_through_the_emailed_link(new_page, screenshot):
    UserFactory(username="lucia", email="lucia@example.org")
    page = new_page(width=360, height=780)
    page.goto("/accounts/login/")
    page.get_by_role("link", name="¿Has olvidado tu contraseña?").click()
    expect(page.get_by_role("heading", name="Contraseña olvidada")).to_be_visible()
    page.locator("#id_email").fill("lucia@example.org")
    screenshot(page, "reset-form-360")
    page.get_by_role("button", name="Envíame un enlace").click()
    expect(page.get_by_role("heading", name="Mira tu correo")).to_be_visible()

    # The live server runs in this process: its mail lands in the test outbox, once the
    # background thread has sent it (accounts.outbox).
    outbox.wait()
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+", mail.outbox[0].body).group(0)
    page.goto(link)
    expect(page.get_by_role("heading", name="Elige una contraseña nueva")).to_be_visible()
    page.locator("#id_new_password1").fill("faro-de-finisterre-77")
    page.locator("#id_new_password2").fill("faro-de-finisterre-77")
    page.get_by_role("button", name="Guardar la contraseña").click()
    expect(page.get_by_role("heading", name="Contraseña guardada")).to_be_visible()

    page.get_by_role("link", name="Iniciar sesión").last.click()
    page.locator("#id_username").fill("lucia")
    page.locator("#id_password").fill("faro-de-finisterre-77")
    page.locator("main form [type=submit]").click()
    expect(page.get_by_role("heading", name="Mis campañas")).to_be_visible()


def test_asking_again_too_soon_is_refused_with_a_message_and_the_address_kept(new_page, settings):
    settings.CRONICA_RESET_PER_EMAIL = 1
    page = new_page(width=360, height=780)
    for _attempt in range(2):
        page.goto("/accounts/password/reset/")
        page.locator("#id_email").fill("nadie@example.org")
        page.get_by_role("button", name="Envíame un enlace").click()
    expect(page.get_by_text("Demasiadas peticiones de contraseña nueva")).to_be_visible()
    expect(page.locator("#id_email")).to_have_value("nadie@example.org")
    outbox.wait()
    assert mail.outbox == []
