"""Over-long input on the anonymous forms gets a clear refusal, never a server error.

Runs on SQLite and, through scripts/with-postgres.sh, on PostgreSQL, which (unlike SQLite)
refuses a value longer than its column: what reaches the database must fit.
"""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.factories import UserFactory
from tests.html import parse

pytestmark = pytest.mark.django_db

LONG = "x" * 300


@pytest.mark.parametrize("page", ["login", "admin:login"])
def test_an_over_long_username_on_a_login_page_is_refused_clearly(client, page):
    response = client.post(reverse(page), {"username": LONG, "password": "mal"})
    assert response.status_code == 200
    assert "como máximo 150 caracteres" in response.text
    assert LONG in response.text  # what was typed is kept


@pytest.mark.parametrize("page", ["login", "admin:login"])
def test_an_over_long_username_is_not_counted_as_a_login_failure(client, page):
    client.post(reverse(page), {"username": LONG, "password": "mal"})
    assert not AccessAttempt.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("username", LONG, "como máximo 150 caracteres"),
        ("email", "a" * 250 + "@example.org", "como máximo 254 caracteres"),
    ],
)
def test_an_over_long_field_on_the_sign_up_form_is_refused_clearly(client, field, value, message):
    password = "lluvia-sobre-toledo-1987"
    data = {"username": "nuevo", "email": "nuevo@example.org",
            "password1": password, "password2": password}  # fmt: skip
    response = client.post(reverse("signup"), {**data, field: value})
    assert response.status_code == 200
    assert message in response.text
    assert value in response.text
    assert not User.objects.exists()


def test_an_over_long_password_signs_up_and_logs_in(client):
    password = "lluvia-" * 200
    data = {"username": "nuevo", "password1": password, "password2": password}
    assert client.post(reverse("signup"), data).status_code == 302
    client.post(reverse("logout"))
    assert (
        client.post(reverse("login"), {"username": "nuevo", "password": password}).status_code
        == 302
    )


def test_an_over_long_address_on_the_reset_form_is_refused_clearly(client):
    UserFactory(username="lucia", email="lucia@example.org")
    value = "a" * 250 + "@example.org"
    response = client.post(reverse("password_reset"), {"email": value})
    assert response.status_code == 200
    assert "como máximo 254 caracteres" in response.text
    assert value in response.text
    assert mail.outbox == []


def _reset_form_url(client) -> str:
    """The set-a-new-password page of a real reset link (Django moves the token aside)."""
    user = UserFactory(username="lucia", email="lucia@example.org")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    link = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)])
    return client.get(link, follow=True).redirect_chain[-1][0]


@pytest.mark.parametrize("page", ["login", "admin:login", "signup", "password_reset", "confirm"])
@pytest.mark.parametrize("length", [300, 60_001])
def test_every_field_of_the_anonymous_forms_refuses_an_over_long_value_clearly(
    client, page, length
):
    """Each text field of each form, one at a time, at a length past any column."""
    url = _reset_form_url(client) if page == "confirm" else reverse(page)
    form = parse(client.get(url).text).find_all("form", method="post")[-1]
    fields = [
        element.attrs["name"]
        for element in form.find_all("input")
        if element.attrs.get("type", "text") in {"text", "email", "password"}
    ]
    assert fields
    for name in fields:
        value = "x" * length
        response = client.post(url, dict.fromkeys(fields, "x") | {name: value})
        assert response.status_code < 500, (page, name)
        limit = parse(client.get(url).text).one("input", name=name).attrs.get("maxlength")
        if limit and response.status_code == 200:
            assert "como máximo" in response.text, (page, name)
            assert value in response.text, (page, name)
