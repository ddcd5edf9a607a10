"""Cached fragments: rendered once per set of inputs, never shared across inputs, and
every response gets its own CSRF token."""

from __future__ import annotations

from django.middleware.csrf import CSRF_TOKEN_LENGTH, _unmask_cipher_token
from django.test import RequestFactory
from django.utils import translation

from campaigns.fragments import (
    CSRF_PLACEHOLDER,
    cached_fragment,
    fragment_key,
    row_state,
)


def _request():
    request = RequestFactory().get("/")
    request.META["CSRF_COOKIE"] = "x" * 32  # the browser's secret, as the middleware sets it
    return request


def test_a_fragment_is_rendered_once_for_the_same_inputs():
    calls = []

    def render(extra):
        calls.append(extra)
        return "<p>hola</p>"

    key = fragment_key("test", 1, "a")
    first = cached_fragment(_request(), key, render)
    second = cached_fragment(_request(), fragment_key("test", 1, "a"), render)
    assert first == second == "<p>hola</p>"
    assert len(calls) == 1


def test_other_inputs_or_another_language_make_another_key():
    # Whatever language an earlier request of this worker left active.
    with translation.override("es"):
        key = fragment_key("test", 1, "a")
        assert fragment_key("test", 1, "b") != key
        assert fragment_key("other", 1, "a") != key
    with translation.override("en"):
        assert fragment_key("test", 1, "a") != key


def test_every_response_gets_its_own_csrf_token_and_never_the_placeholder():
    def render(extra):
        return f'<input name="csrfmiddlewaretoken" value="{extra["csrf_token"]}">'

    key = fragment_key("form", 7)
    one, two = _request(), _request()
    two.META["CSRF_COOKIE"] = "y" * 32
    html_one, html_two = cached_fragment(one, key, render), cached_fragment(two, key, render)
    assert CSRF_PLACEHOLDER not in html_one + html_two
    token_one = html_one.split('value="')[1].split('"')[0]
    token_two = html_two.split('value="')[1].split('"')[0]
    assert len(token_one) == CSRF_TOKEN_LENGTH
    assert _unmask_cipher_token(token_one) == "x" * 32
    assert _unmask_cipher_token(token_two) == "y" * 32


def test_a_row_state_changes_with_any_field(campaign):
    before = row_state(campaign)
    campaign.players_see_full_sheets = not campaign.players_see_full_sheets
    assert row_state(campaign) != before
