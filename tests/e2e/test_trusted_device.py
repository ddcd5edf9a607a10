"""Someone else's wrong passwords do not lock a player out of the browser they logged in
with before (device cookies); a browser that never logged in as them is locked."""

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, username: str):
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()


def test_a_browser_that_logged_in_before_still_logs_in_while_a_stranger_guesses(new_page, settings):
    UserFactory(username="master")
    own = new_page()
    log_in(own, "master")
    expect(own.get_by_role("heading", name="Mis campañas")).to_be_visible()
    own.get_by_role("button", name="master").click()
    own.get_by_role("button", name="Cerrar sesión").click()
    expect(own.locator("#id_username")).to_be_visible()

    guesser = Client()
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        guesser.post(reverse("login"), {"username": "master", "password": "mal"},
                     REMOTE_ADDR="203.0.113.9")  # fmt: skip

    log_in(own, "master")
    expect(own.get_by_role("heading", name="Mis campañas")).to_be_visible()

    elsewhere = new_page()
    log_in(elsewhere, "master")
    expect(elsewhere.get_by_role("heading", name="Demasiados intentos")).to_be_visible()
