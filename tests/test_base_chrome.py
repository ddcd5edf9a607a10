"""The page chrome (templates/base.html: head, menu, footer) is rendered once per
language and what it shows, and cached: each user still gets their own name, admin link,
page path, system and CSRF token."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from tests.factories import CampaignFactory, MembershipFactory
from tests.html import parse

pytestmark = pytest.mark.django_db

ADMIN = reverse("admin:index")


def _reader(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def _menu(client, url: str):
    response = client.get(url)
    assert response.status_code == 200
    return parse(response.text).one("nav", class_="cronica-bar")


@pytest.mark.parametrize("player_first", [True, False])
def test_each_user_gets_their_own_name(campaign, player, observer, player_first):
    url = reverse("campaigns:list")
    readers = [(_reader(player), player), (_reader(observer), observer)]
    for client, user in readers if player_first else readers[::-1]:
        for _ in range(2):  # the second from the cache
            assert _menu(client, url).one("a", class_="dropdown-toggle").text() == user.username


@pytest.mark.parametrize("gm_first", [True, False])
def test_only_a_gm_gets_the_admin_link(campaign, gm, player, gm_first):
    url = reverse("campaigns:list")
    readers = [(_reader(gm), True), (_reader(player), False)]
    for client, administers in readers if gm_first else readers[::-1]:
        for _ in range(2):
            assert bool(_menu(client, url).find_all("a", href=ADMIN)) is administers


def test_a_player_who_starts_running_a_campaign_gets_the_admin_link(campaign, player):
    client = _reader(player)
    url = reverse("campaigns:list")
    assert not _menu(client, url).find_all("a", href=ADMIN)
    MembershipFactory(campaign=CampaignFactory(created_by=player), user=player, role="gm")
    assert _menu(client, url).find_all("a", href=ADMIN)
    Membership.objects.filter(user=player, role="gm").delete()
    assert not _menu(client, url).find_all("a", href=ADMIN)


def test_the_language_form_returns_to_the_page_it_is_on(campaign, player):
    client = _reader(player)
    home = reverse("campaigns:list")
    for url in (home, f"{home}?orden=nombre", home):
        menu = _menu(client, url)
        assert menu.one("input", name="next").attrs["value"] == url


def test_the_body_names_the_campaigns_system(gm):
    client = _reader(gm)
    for system in ("hitos", "tinieblas", "hitos"):
        campaign = CampaignFactory(created_by=gm, system=system)
        MembershipFactory(campaign=campaign, user=gm, role="gm")
        body = parse(client.get(campaign.get_absolute_url()).text).one("body")
        assert body.attrs["data-system"] == system


def test_the_menus_forms_carry_each_browsers_own_token(campaign, player):
    url = reverse("campaigns:list")
    _menu(_reader(player, enforce_csrf_checks=True), url)
    client = _reader(player, enforce_csrf_checks=True)
    logout = _menu(client, url).one("form", action=reverse("logout"))
    token = logout.one("input", name="csrfmiddlewaretoken").attrs["value"]
    assert client.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 302
    assert client.get(url).status_code == 302  # signed out: sent to the login page


def test_each_page_gets_a_nonce_of_its_own_on_its_scripts(client, campaign, player):
    """The CSP nonce of `{% htmx_script %}` is the request's, never a cached one."""
    client.force_login(player)
    url = reverse("campaigns:detail", args=[campaign.pk])
    first, second = (
        {
            script.attrs["nonce"]
            for script in parse(client.get(url).text).find_all("script", nonce=True)
        }
        for _ in range(2)
    )
    assert len(first) == 1
    assert first != second


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_the_admin_pages_carry_the_site_icon(client, request, campaign, who):
    """Without it the browser asks for /favicon.ico, a 404 in the console. The admin's
    login (anyone) and its index (a GM; the others are sent to its login)."""
    client.force_login(request.getfixturevalue(who))
    response = client.get(ADMIN, follow=True)
    assert response.status_code == 200
    page = parse(response.text)
    assert page.one("link", rel="icon", type="image/svg+xml").attrs["href"] == static(
        "icons/favicon.svg"
    )
    assert page.one(id="site-name").text() == "Administración de Crónica"
    assert bool(page.find_all("form", id="login-form")) is (who != "gm")
