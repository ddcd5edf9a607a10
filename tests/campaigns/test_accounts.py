import pytest
from django.urls import reverse

from campaigns.models import Membership
from tests.factories import PASSWORD, InvitationFactory, UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = {"username": "nueva", "password1": "una-clave-larga-42", "password2": "una-clave-larga-42"}


def test_visitor_signs_up_and_is_logged_in(client):
    response = client.post(reverse("signup"), SIGNUP)
    assert response.status_code == 302
    assert client.get(reverse("campaigns:list")).status_code == 200


def test_signup_with_mismatched_passwords_keeps_the_username(client):
    response = client.post(reverse("signup"), {**SIGNUP, "password2": "otra-cosa-distinta"})
    assert response.status_code == 200
    assert 'value="nueva"' in response.text
    assert "no coinciden" in response.text


def test_invite_only_site_refuses_a_plain_signup(client, settings):
    settings.CRONICA_SIGNUP = "invite"
    assert client.get(reverse("signup")).status_code == 403
    client.post(reverse("signup"), SIGNUP)
    assert not Membership.objects.exists()


def test_invite_only_site_accepts_a_signup_through_an_invitation(client, settings, campaign):
    settings.CRONICA_SIGNUP = "invite"
    invitation = InvitationFactory(campaign=campaign)
    client.get(invitation.get_absolute_url())
    response = client.post(reverse("signup"), SIGNUP)
    assert response.status_code == 302
    assert response["Location"] == invitation.get_absolute_url()


def test_signup_ignores_an_offsite_next(client):
    response = client.post(reverse("signup") + "?next=https://evil.example/", SIGNUP)
    assert response["Location"] == reverse("campaigns:list")


def test_user_logs_in_and_out(client):
    UserFactory(username="dora")
    response = client.post(reverse("login"), {"username": "dora", "password": PASSWORD})
    assert response.status_code == 302
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("campaigns:list")).status_code == 302


def test_wrong_password_shows_a_message(client):
    UserFactory(username="dora")
    response = client.post(reverse("login"), {"username": "dora", "password": "mal"})
    assert response.status_code == 200
    assert "correctos" in response.text


def test_user_changes_their_password(client):
    user = UserFactory(username="dora")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "otra-clave-9876",
            "new_password2": "otra-clave-9876",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("otra-clave-9876")


def test_english_is_complete_for_the_sign_up_page(client):
    client.cookies.load({"django_language": "en"})
    response = client.get(reverse("signup"))
    assert "Create your account" in response.text
    assert "Nombre de usuario" not in response.text
