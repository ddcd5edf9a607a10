"""Who a request is signed in as: the session row and its user, in one query
(`accounts.sessions`, `accounts.backends`), with Django's own rules kept."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import Session
from accounts.sessions import EARLIER_BACKEND
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGE = reverse("campaigns:list")


@pytest.fixture
def lucia(client):
    user = UserFactory(username="lucia")
    client.force_login(user)
    return user


def _signed_in(client) -> bool:
    return client.get(PAGE).status_code == 200


def test_a_signed_in_user_is_read_with_the_session_in_one_query(client, lucia):
    assert _signed_in(client)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(PAGE)
    assert response.context["user"] == lucia
    sql = [query["sql"] for query in queries]
    reads = [one for one in sql if 'FROM "accounts_session"' in one]
    assert len(reads) == 1
    assert 'JOIN "auth_user"' in reads[0]
    assert not any('FROM "auth_user"' in one for one in sql)


def test_each_session_finds_its_own_user(client, lucia):
    mateo = UserFactory(username="mateo")
    other = client.__class__()
    other.force_login(mateo)
    assert client.get(PAGE).context["user"] == lucia
    assert other.get(PAGE).context["user"] == mateo


def test_an_expired_session_signs_out(client, lucia):
    assert _signed_in(client)
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    response = client.get(PAGE)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_an_unknown_session_key_signs_out(client, lucia):
    assert _signed_in(client)
    Session.objects.all().delete()
    assert client.get(PAGE).status_code == 302


def test_a_deactivated_user_is_signed_out(client, lucia):
    assert _signed_in(client)
    lucia.is_active = False
    lucia.save(update_fields=["is_active"])
    assert client.get(PAGE).status_code == 302


def test_a_new_password_elsewhere_signs_this_session_out(client, lucia):
    assert _signed_in(client)
    lucia.set_password("otra-clave-distinta-42")
    lucia.save()
    assert client.get(PAGE).status_code == 302


def test_signing_in_with_the_password_form_keeps_the_session(client):
    UserFactory(username="mateo", password="nubes-sobre-avila-77")
    client.logout()
    response = client.post(
        reverse("login"), {"username": "mateo", "password": "nubes-sobre-avila-77"}
    )
    assert response.status_code == 302
    assert client.get(PAGE).context["user"].username == "mateo"


def test_a_session_signed_in_before_the_backend_changed_stays_signed_in(client, lucia):
    session = client.session
    session[BACKEND_SESSION_KEY] = EARLIER_BACKEND
    session.save()
    assert client.get(PAGE).context["user"] == lucia


def test_a_sessions_row_names_whom_it_signs_in_and_no_one_once_signed_out(client, lucia):
    assert Session.objects.get(session_key=client.session.session_key).user == lucia
    client.get(PAGE)
    client.post(reverse("logout"))
    assert not Session.objects.filter(user=lucia).exists()


def test_the_deploy_moves_djangos_sessions_with_their_users(client, lucia):
    """accounts/migrations/0004: nobody signed in before it is signed out by it."""
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore
    from django.contrib.sessions.models import Session as DjangoSession

    moving = import_module("accounts.migrations.0004_sessions_moved")
    key = client.session.session_key
    data = Session.objects.get(session_key=key).session_data
    Session.objects.all().delete()
    DjangoSession.objects.create(
        session_key=key, session_data=data, expire_date=timezone.now() + timedelta(days=1)
    )
    signed_out = DjangoStore()
    signed_out["django_language"] = "en"
    signed_out.create()
    expired = DjangoStore()
    expired["django_language"] = "es"
    expired.create()
    DjangoSession.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )

    moving.move_sessions(apps, None)

    assert dict(Session.objects.values_list("session_key", "user")) == {
        key: lucia.pk,
        signed_out.session_key: None,
    }
    assert not DjangoSession.objects.exists()
    assert client.get(PAGE).context["user"] == lucia
