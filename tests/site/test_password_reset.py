"""Forgotten password: a link by email chooses a new one; and where the mail goes."""

import io
import re
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import outbox
from accounts.models import RequestCount
from config.console_mail import EmailBackend as ConsoleBackend
from config.email import CONSOLE, SMTP, mailer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "lluvia-sobre-toledo-1987"


def reset_link(message) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


@pytest.fixture
def lucia(db):
    return UserFactory(username="lucia", email="lucia@example.org")


def test_the_login_page_offers_the_forgotten_password_form(client):
    response = client.get(reverse("login"))
    assert f'href="{reverse("password_reset")}"' in response.text
    assert "¿Has olvidado tu contraseña?" in response.text


def test_a_reset_link_by_email_sets_a_new_password(client, lucia):
    response = client.post(reverse("password_reset"), {"email": "LUCIA@example.org"})
    outbox.wait()
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["lucia@example.org"]
    assert message.subject == "Elige una contraseña nueva para Crónica"
    assert "Hola, lucia:" in message.body
    assert message.from_email == settings.DEFAULT_FROM_EMAIL

    # The link leads to the form (Django swaps the token for a session first).
    form_page = client.get(reset_link(message), follow=True)
    assert form_page.status_code == 200
    assert "Elige una contraseña nueva" in form_page.text
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    lucia.refresh_from_db()
    assert lucia.check_password(NEW_PASSWORD)
    # Through the login form: the throttling backend authenticates requests only.
    login = client.post(reverse("login"), {"username": "lucia", "password": NEW_PASSWORD})
    assert login.status_code == 302


def test_a_used_link_no_longer_works(client, lucia):
    client.post(reverse("password_reset"), {"email": lucia.email})
    outbox.wait()
    link = reset_link(mail.outbox[0])
    form_page = client.get(link, follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    again = client.get(link, follow=True)
    assert "Este enlace ya no sirve" in again.text
    assert 'name="new_password1"' not in again.text


def test_two_different_new_passwords_are_refused_with_a_message(client, lucia):
    client.post(reverse("password_reset"), {"email": lucia.email})
    outbox.wait()
    form_page = client.get(reset_link(mail.outbox[0]), follow=True)
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert "Los dos campos de contraseña no coinciden" in response.text
    lucia.refresh_from_db()
    assert not lucia.check_password(NEW_PASSWORD)


def test_an_unknown_address_gets_the_same_answer_and_no_email(client, lucia):
    response = client.post(reverse("password_reset"), {"email": "nadie@example.org"})
    outbox.wait()
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_the_email_speaks_english_to_who_chose_english(client, lucia):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.post(reverse("password_reset"), {"email": lucia.email})
    outbox.wait()
    assert mail.outbox[0].subject == "Choose a new password for Crónica"
    assert "Hello, lucia:" in mail.outbox[0].body
    done = client.get(reverse("password_reset_done"))
    assert "Check your email" in done.text


def test_mail_goes_to_the_console_unless_configured():
    assert mailer({}) == {"BACKEND": CONSOLE}
    assert mailer({"EMAIL_URL": "console://"}) == {"BACKEND": CONSOLE}


def test_the_site_sends_from_its_configured_mailer():
    assert settings.DEFAULT_FROM_EMAIL
    assert "default" in settings.MAILERS


def test_email_url_configures_smtp_with_tls():
    found = mailer({"EMAIL_URL": "smtp://mesa%40example.org:s3cr%2Ft@mail.example.org:2525?tls=1"})
    assert found == {
        "BACKEND": SMTP,
        "OPTIONS": {
            "host": "mail.example.org",
            "port": 2525,
            "username": "mesa@example.org",
            "password": "s3cr/t",
            "use_tls": True,
            "use_ssl": False,
        },
    }


def test_smtps_means_implicit_tls():
    options = mailer({"EMAIL_URL": "smtps://u:p@mail.example.org"})["OPTIONS"]
    assert (options["use_ssl"], options["use_tls"], options["port"]) == (True, False, None)


def test_email_host_and_friends_configure_smtp_without_a_url():
    found = mailer(
        {
            "EMAIL_HOST": "smtp.example.org",
            "EMAIL_PORT": "587",
            "EMAIL_HOST_USER": "mesa",
            "EMAIL_HOST_PASSWORD": "secreto",
            "EMAIL_USE_TLS": "true",
        }
    )
    assert found["BACKEND"] == SMTP
    assert found["OPTIONS"] == {
        "host": "smtp.example.org",
        "port": 587,
        "username": "mesa",
        "password": "secreto",
        "use_tls": True,
        "use_ssl": False,
    }


def test_a_configured_smtp_mailer_opens_with_those_options(settings):
    from django.core import mail as django_mail

    settings.MAILERS = {"default": mailer({"EMAIL_URL": "smtp://u:p@mail.example.org?tls=1"})}
    backend = django_mail.mailers.default
    assert (backend.host, backend.port, backend.use_tls) == ("mail.example.org", 587, True)
    assert (backend.username, backend.password) == ("u", "p")


@pytest.mark.parametrize(
    "environ",
    [
        {"EMAIL_URL": "http://mail.example.org"},
        {"EMAIL_URL": "smtp://"},
        {"EMAIL_URL": "smtp://h:99999999"},
        {"EMAIL_HOST": "h", "EMAIL_PORT": "x"},
        {"EMAIL_HOST": "h", "EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"},
    ],
)
def test_a_bad_email_configuration_is_explained(environ):
    with pytest.raises(ImproperlyConfigured):
        mailer(environ)


def settings_in_a_fresh_interpreter(**env: str) -> str:
    """The default mailer and silenced checks that config.settings makes of `env`."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DJANGO_"))}
    code = (
        "from config import settings as s;"
        "print(s.MAILERS['default']['BACKEND'], getattr(s, 'SILENCED_SYSTEM_CHECKS', []))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env={**clean, "DJANGO_DEBUG": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout


def test_the_site_mails_through_smtp_when_email_url_is_set():
    found = settings_in_a_fresh_interpreter(EMAIL_URL="smtp://u:p@mail.example.org?tls=1")
    assert found.startswith(SMTP)
    assert "mail.E001" not in found


def test_the_console_default_is_deliberate_for_the_deploy_check():
    # Our console backend is not one Django's deploy check knows: nothing to silence.
    assert settings_in_a_fresh_interpreter().strip() == f"{CONSOLE} []"


def test_a_reset_link_printed_on_the_console_is_one_line_that_works_when_copied(client, lucia):
    lucia.username = "lucía-de-la-" + "montaña" * 6  # long and not ASCII: quoted-printable
    lucia.save()
    client.post(reverse("password_reset"), {"email": lucia.email})
    outbox.wait()
    printed = io.StringIO()
    ConsoleBackend(stream=printed).send_messages(mail.outbox)
    text = printed.getvalue()
    [line] = [line for line in text.splitlines() if "/password/reset/" in line]
    link = re.fullmatch(r"https?://[^/\s]+(/\S+)", line).group(1)
    assert link == reset_link(mail.outbox[0])
    form_page = client.get(link, follow=True)
    assert 'name="new_password1"' in form_page.text
    assert "Subject: Elige una contraseña nueva para Crónica" in text
    assert f"Hola, {lucia.username}:" in text


# --- Limits, and the same answer whether the address has an account or not --------------


def ask(client, email, address="10.0.0.1"):
    response = client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)
    outbox.wait()
    return response


def test_reset_requests_are_limited_per_address_with_a_clear_message(client, settings, lucia):
    settings.CRONICA_RESET_PER_ADDRESS = 3
    assert [ask(client, f"n{number}@example.org").status_code for number in range(2)] == [302] * 2
    assert ask(client, lucia.email).status_code == 302
    refused = ask(client, lucia.email)
    assert refused.status_code == 429
    assert "Demasiadas peticiones de contraseña nueva" in refused.text
    assert 'value="lucia@example.org"' in refused.text
    assert len(mail.outbox) == 1
    assert ask(client, lucia.email, address="10.0.0.2").status_code == 302


def test_reset_requests_are_limited_per_email_from_any_address(client, settings, lucia):
    settings.CRONICA_RESET_PER_EMAIL = 2
    for number in range(2):
        assert ask(client, "LUCIA@example.org", address=f"10.0.1.{number}").status_code == 302
    assert ask(client, lucia.email, address="10.0.1.9").status_code == 429
    assert len(mail.outbox) == 2
    assert not RequestCount.objects.filter(key__endswith="10.0.1.9").exists()  # wrote nothing
    # An address without an account is limited alike: the refusal tells nothing.
    for number in range(2):
        ask(client, "nadie@example.org", address=f"10.0.2.{number}")
    assert ask(client, "nadie@example.org", address="10.0.2.9").status_code == 429


def test_the_reset_limits_lift_after_an_hour(client, settings, lucia):
    settings.CRONICA_RESET_PER_EMAIL = 1
    ask(client, lucia.email)
    assert ask(client, lucia.email).status_code == 429
    RequestCount.objects.update(since=timezone.now() - timedelta(hours=1, seconds=1))
    assert ask(client, lucia.email).status_code == 302
    assert len(mail.outbox) == 2


def test_the_reset_response_renders_and_sends_no_mail_itself(client, lucia):
    """Known and unknown addresses answer alike: the mail is made after the response."""
    here = threading.get_ident()
    rendered = []

    def record(sender, template, **kwargs):
        rendered.append((template.name, threading.get_ident()))

    template_rendered.connect(record)
    try:
        with CaptureQueriesContext(connection) as known:
            response = client.post(
                reverse("password_reset"), {"email": lucia.email}, REMOTE_ADDR="10.0.0.1"
            )
        assert response.status_code == 302
        outbox.wait()
        with CaptureQueriesContext(connection) as unknown:
            client.post(
                reverse("password_reset"), {"email": "nadie@example.org"}, REMOTE_ADDR="10.0.0.2"
            )
        outbox.wait()
    finally:
        template_rendered.disconnect(record)
    mails = [(name, thread) for name, thread in rendered if "password_reset_" in name]
    assert sorted(name for name, _thread in mails) == [
        "registration/password_reset_email.txt",
        "registration/password_reset_subject.txt",
    ]
    assert all(thread != here for _name, thread in mails)
    assert len(mail.outbox) == 1
    assert len(known.captured_queries) == len(unknown.captured_queries)
