"""Strict CSP: our pages carry no inline script or style the policy would block."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def pages(campaign):
    return [
        reverse("campaigns:list"),
        reverse("campaigns:create"),
        reverse("campaigns:detail", args=[campaign.pk]),
        reverse("campaigns:edit", args=[campaign.pk]),
        reverse("password_change"),
    ]


def test_pages_send_a_strict_content_security_policy(client, campaign, gm):
    client.force_login(gm)
    response = client.get(reverse("campaigns:list"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


def test_pages_have_no_inline_scripts_or_styles(client, campaign, gm):
    client.force_login(gm)
    for url in pages(campaign):
        html = client.get(url).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\sstyle=", html), url
        assert "<style" not in html, url
        assert not re.search(r"\son[a-z]+=", html), url


def test_htmx_requests_carry_the_csrf_token(client, gm):
    client.force_login(gm)
    html = client.get(reverse("campaigns:list")).text
    assert re.search(r'<body hx-headers=\'\{"X-CSRFToken": "[\w-]+"\}\'', html)


def test_logged_out_pages_render(client):
    for url in (reverse("login"), reverse("signup")):
        assert client.get(url).status_code == 200


def test_the_site_is_spanish_whatever_the_browser_prefers(client):
    response = client.get(reverse("login"), headers={"accept-language": "en-US,en;q=0.9"})
    assert "Iniciar sesión" in response.text


def test_the_language_switcher_choice_is_kept(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Log in" in client.get(reverse("login")).text
