"""Login throttling: repeated wrong passwords lock out the username and the address."""

import ipaddress
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core import signing
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts import devices
from accounts.models import DeviceFailures
from config.throttling import client_ip
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

HERE = "10.0.0.1"
ELSEWHERE = "10.0.0.2"


@pytest.fixture(autouse=True)
def _small_limit(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.CRONICA_LOGIN_ADDRESS_FAILURES = 30


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


def test_failures_for_several_usernames_from_one_address_do_not_lock_the_group_behind_it(
    client, settings, dora
):
    UserFactory(username="eva")
    for number in range(3):
        fail(client, settings, f"nadie{number}")
    assert log_in(client, "eva", PASSWORD).status_code == 302


def test_an_address_is_locked_after_its_own_higher_limit_for_devices_never_signed_in_there(
    client, settings, dora
):
    settings.CRONICA_LOGIN_ADDRESS_FAILURES = 7
    UserFactory(username="eva")
    for number in range(6):
        assert log_in(client, f"nadie{number}", "mal").status_code == 200
    assert log_in(client, "nadie6", "mal").status_code == 429
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


def test_a_forged_header_neither_dodges_the_address_lock_nor_locks_the_address_it_names(
    client, settings, dora
):
    settings.CRONICA_PROXY_COUNT = 1
    settings.CRONICA_LOGIN_ADDRESS_FAILURES = 3
    direct, victim = "198.51.100.9", "203.0.113.7"
    for number in range(3):
        client.post(reverse("login"), {"username": f"nadie{number}", "password": "mal"},
                    REMOTE_ADDR=direct, HTTP_X_FORWARDED_FOR=victim)  # fmt: skip
    refused = client.post(reverse("login"), {"username": "dora", "password": PASSWORD},
                          REMOTE_ADDR=direct, HTTP_X_FORWARDED_FOR="192.0.2.200")  # fmt: skip
    assert refused.status_code == 429
    proxied = Client().post(reverse("login"), {"username": "dora", "password": PASSWORD},
                            REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=victim)  # fmt: skip
    assert proxied.status_code == 302


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


# --- Device cookies: nobody else's failures lock the owner out of a device signed in before


def signed_in_device(settings, username="dora", *, address=HERE) -> Client:
    """A browser that logged in as the user once, then logged out: it keeps its cookie."""
    device = Client()
    assert log_in(device, username, PASSWORD, address=address).status_code == 302
    device.post(reverse("logout"))
    assert devices.COOKIE in device.cookies
    return device


def test_a_device_that_signed_in_before_logs_in_while_strangers_keep_the_username_locked(
    client, settings, dora
):
    device = signed_in_device(settings)
    fail(client, settings, address=ELSEWHERE)
    assert log_in(client, "dora", PASSWORD, address=ELSEWHERE).status_code == 429
    # From the same address as the guesser, too: only the cookie counts.
    assert log_in(device, "dora", PASSWORD, address=ELSEWHERE).status_code == 302


def test_a_stranger_repeating_failures_every_cool_off_never_locks_the_owners_device_out(
    client, settings, dora
):
    device = signed_in_device(settings)
    for _round in range(3):
        AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME)
        fail(client, settings, address=ELSEWHERE)
        assert log_in(device, "dora", PASSWORD).status_code == 302
        device.post(reverse("logout"))


def test_wrong_passwords_on_a_trusted_device_lock_that_device_and_nothing_else(
    client, settings, dora
):
    device = signed_in_device(settings)
    fail(device, settings)
    assert log_in(device, "dora", PASSWORD).status_code == 429
    assert not AccessAttempt.objects.exists()
    # A device without the cookie is judged by the username's lock, which is still open.
    assert log_in(client, "dora", PASSWORD, address=ELSEWHERE).status_code == 302


def test_a_trusted_device_lock_ends_after_the_cool_off(client, settings, dora):
    device = signed_in_device(settings)
    fail(device, settings)
    expired = timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    DeviceFailures.objects.update(last_failure=expired)
    assert log_in(device, "dora", PASSWORD).status_code == 302


def test_a_device_cookie_vouches_only_for_the_username_it_was_issued_to(client, settings, dora):
    UserFactory(username="eva")
    device = signed_in_device(settings, "eva")
    fail(client, settings, address=ELSEWHERE)
    assert log_in(device, "dora", PASSWORD).status_code == 429


def test_a_forged_or_tampered_device_cookie_is_not_trusted(client, settings, dora):
    tampered = signed_in_device(settings, "dora").cookies[devices.COOKIE].value[:-2] + "xx"
    forged = signing.dumps({"user": "dora", "device": "mine"}, salt="another-salt")
    fail(client, settings, address=ELSEWHERE)
    for value in (forged, tampered, "dora"):
        attacker = Client()
        attacker.cookies[devices.COOKIE] = value
        assert log_in(attacker, "dora", PASSWORD).status_code == 429


def test_the_device_cookie_is_signed_http_only_lax_and_kept_for_a_year(client, settings, dora):
    response = log_in(client, "dora", PASSWORD)
    cookie = response.cookies[devices.COOKIE]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == 365 * 24 * 3600
    data = signing.loads(cookie.value, salt=devices.SALT)
    assert data["user"] == "dora"
    assert len(data["device"]) >= 40


def test_the_admin_login_leaves_a_device_cookie_too(client, settings):
    UserFactory(username="root", is_staff=True, is_superuser=True)
    response = log_in(client, "root", PASSWORD, url=reverse("admin:login"))
    assert response.status_code == 302
    assert (
        signing.loads(response.cookies[devices.COOKIE].value, salt=devices.SALT)["user"] == "root"
    )
