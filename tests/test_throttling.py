"""Login throttling: repeated wrong passwords lock out the username and the address."""

import ipaddress
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from config.throttling import client_ip
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

HERE = "10.0.0.1"
ELSEWHERE = "10.0.0.2"


@pytest.fixture(autouse=True)
def _small_limit(settings):
    settings.AXES_FAILURE_LIMIT = 3


@pytest.fixture
def dora(db):
    return UserFactory(username="dora")


def log_in(client, username, password, *, address=HERE, url=None):
    return client.post(
        url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def fail(client, settings, username="dora", *, address=HERE, url=None):
    """Wrong passwords up to the limit: the last failure already answers with the lock."""
    statuses = [
        log_in(client, username, "mal", address=address, url=url).status_code
        for _attempt in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]


def test_after_the_limit_even_the_right_password_is_refused(client, settings, dora):
    settings.AXES_FAILURE_LIMIT = 5
    fail(client, settings)
    response = log_in(client, "dora", PASSWORD)
    assert response.status_code == 429
    assert "Demasiados intentos" in response.text
    assert "15 minutos" in response.text
    assert client.get(reverse("campaigns:list")).status_code == 302


def test_the_lockout_page_is_the_sites_page_in_english_too(client, settings, dora):
    fail(client, settings)
    client.cookies.load({"django_language": "en"})
    response = log_in(client, "dora", PASSWORD)
    assert response.status_code == 429
    assert "Too many attempts" in response.text
    assert "paused for 15 minutes" in response.text
    assert 'class="navbar' in response.text


def test_below_the_limit_the_right_password_logs_in(client, settings, dora):
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "dora", "mal")
    assert log_in(client, "dora", PASSWORD).status_code == 302


def test_a_locked_username_is_refused_from_another_address(client, settings, dora):
    fail(client, settings)
    assert log_in(client, "dora", PASSWORD, address=ELSEWHERE).status_code == 429


def test_a_locked_address_is_refused_for_every_username(client, settings, dora):
    UserFactory(username="eva")
    for number in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, f"nadie{number}", "mal")
    assert log_in(client, "eva", PASSWORD).status_code == 429
    assert log_in(client, "eva", PASSWORD, address=ELSEWHERE).status_code == 302


def test_the_admin_login_is_throttled_too(client, settings):
    UserFactory(username="root", is_staff=True, is_superuser=True)
    admin_login = reverse("admin:login")
    fail(client, settings, "root", url=admin_login)
    response = log_in(client, "root", PASSWORD, url=admin_login)
    assert response.status_code == 429
    assert "Demasiados intentos" in response.text
    assert client.get(reverse("admin:index")).status_code == 302


def test_failures_on_the_admin_count_for_the_site_login(client, settings, dora):
    fail(client, settings, url=reverse("admin:login"))
    assert log_in(client, "dora", PASSWORD).status_code == 429


def test_axes_reset_lifts_the_lock(client, settings, dora):
    fail(client, settings)
    call_command("axes_reset", verbosity=0)
    assert log_in(client, "dora", PASSWORD).status_code == 302


def test_the_lock_ends_after_the_cool_off(client, settings, dora):
    fail(client, settings)
    expired = timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    AccessAttempt.objects.update(attempt_time=expired)
    assert log_in(client, "dora", PASSWORD).status_code == 302


def test_without_a_proxy_the_address_is_the_peer(settings):
    settings.CRONICA_PROXY_COUNT = 0
    request = RequestFactory().get("/", REMOTE_ADDR=HERE, HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(request) == HERE


def test_behind_one_proxy_the_address_is_the_one_the_proxy_appended(settings):
    settings.CRONICA_PROXY_COUNT = 1
    forwarded = "6.6.6.6, 203.0.113.7"  # the first was written by the client: not trusted
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == "203.0.113.7"


def test_a_forged_header_from_a_client_that_reaches_the_app_server_directly_is_ignored(settings):
    settings.CRONICA_PROXY_COUNT = 1
    request = RequestFactory().get("/", REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_FOR=HERE)
    assert client_ip(request) == "198.51.100.9"


def test_behind_two_proxies_each_hop_must_come_from_a_trusted_proxy(settings):
    settings.CRONICA_PROXY_COUNT = 2
    settings.CRONICA_TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1"),
                                        ipaddress.ip_network("10.0.0.0/8")]  # fmt: skip
    chain = "6.6.6.6, 203.0.113.7, 10.1.2.3"
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=chain)
    assert client_ip(request) == "203.0.113.7"
    # The nearest proxy was handed the request by an outsider: the outsider is the client.
    chain = "6.6.6.6, 203.0.113.7"
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=chain)
    assert client_ip(request) == "203.0.113.7"


def test_a_hop_that_is_not_an_address_is_not_believed(settings):
    settings.CRONICA_PROXY_COUNT = 1
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="nadie")
    assert client_ip(request) == "127.0.0.1"
