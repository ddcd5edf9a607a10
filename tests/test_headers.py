"""Privacy headers: a feature policy everywhere, nothing private stored, an HttpOnly CSRF cookie."""

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_character

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


@pytest.fixture
def sheet(campaign, player):
    return make_character(campaign, player, name="Lucía")


def member_urls(campaign, sheet):
    return [
        (reverse("campaigns:list"), {}),
        (reverse("campaigns:detail", args=[campaign.pk]), {}),
        (reverse("campaigns:timeline", args=[campaign.pk]), {}),
        (sheet.get_absolute_url(), {}),
        (reverse("characters:export", args=[campaign.pk, sheet.pk]), {}),
        (reverse("mechanics:log", args=[campaign.pk]), {}),
        (reverse("mechanics:log_export", args=[campaign.pk]) + "?format=json", {}),
        (reverse("mechanics:feed", args=[campaign.pk]), HTMX),
        (reverse("password_change"), {}),
    ]


@pytest.mark.parametrize("role", ["gm", "player"])
def test_every_answer_to_a_member_is_private_and_not_stored(client, request, campaign, sheet, role):
    client.force_login(request.getfixturevalue(role))
    for url, headers in member_urls(campaign, sheet):
        response = client.get(url, **headers)
        assert response.status_code == 200, url
        assert {"private", "no-store"} <= directives(response), url
        assert "public" not in directives(response), url


def test_a_strangers_404_is_not_stored_either(client, campaign, sheet, stranger):
    client.force_login(stranger)
    response = client.get(sheet.get_absolute_url())
    assert response.status_code == 404
    assert {"private", "no-store"} <= directives(response)


def test_the_feed_still_asks_to_revalidate(client, campaign, player):
    client.force_login(player)
    response = client.get(reverse("mechanics:feed", args=[campaign.pk]), **HTMX)
    assert {"private", "no-cache", "no-store"} <= directives(response)


@pytest.mark.parametrize("logged_in", [True, False])
def test_every_response_refuses_camera_microphone_and_location(client, gm, logged_in):
    if logged_in:
        client.force_login(gm)
    for url in (reverse("login"), reverse("campaigns:list"), "/no-such-page/"):
        policy = client.get(url)["Permissions-Policy"]
        for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
            assert feature in policy, url


def test_the_csrf_cookie_is_out_of_reach_of_scripts(client):
    response = client.get(reverse("login"))
    cookie = response.cookies[settings.CSRF_COOKIE_NAME]
    assert cookie["httponly"] is True
    assert 'name="csrfmiddlewaretoken"' in response.text


def test_every_answer_varies_on_hx_request_from_the_one_middleware(client, campaign, sheet, gm):
    """A page and its htmx partial share a URL: caches must keep them apart, page by page."""
    assert "HX-Request" in client.get(reverse("login"))["Vary"]
    client.force_login(gm)
    for url, headers in member_urls(campaign, sheet):
        response = client.get(url, **headers)
        assert "HX-Request" in response.get("Vary", ""), url
