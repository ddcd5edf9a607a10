"""The GM's forms and the traits of a sheet are rendered once and cached (campaigns/
templatetags/form_cache.py): a write shows on the very next request, one character's
pieces never show on another's sheet, a player or an observer never gets what a GM was
shown, and every response carries its own browser's CSRF token."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.fragments import CSRF_PLACEHOLDER
from characters.models import Trait
from tests.characters.test_sheet_views import tinieblas_sheet
from tests.factories import MembershipFactory, UserFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(character, name="sheet"):
    return reverse(f"characters:{name}", args=[character.campaign_id, character.pk])


def _selected(page: str, select_name: str) -> list[str]:
    """The values selected in the page's <select name=...>."""
    found = re.search(rf'<select name="{select_name}".*?</select>', page, re.S)
    assert found, f"no <select name={select_name}>"
    return re.findall(r'<option value="([^"]*)"[^>]*\bselected\b', found.group(0))


def _options(page: str, select_name: str) -> list[str]:
    found = re.search(rf'<select name="{select_name}".*?</select>', page, re.S)
    assert found, f"no <select name={select_name}>"
    return re.findall(r'<option value="([^"]*)"', found.group(0))


def _opened(client, character, name: str) -> str:
    """What the sheet loads when the GM opens the form posted to `name`."""
    response = client.get(_url(character, name), **HTMX)
    assert response.status_code == 200
    return response.text


@pytest.fixture
def lucia(campaign, player):
    return tinieblas_sheet(campaign, player)


def test_a_vice_the_gm_sets_is_selected_in_the_cached_form_on_the_next_request(client, gm, lucia):
    client.force_login(gm)
    assert _selected(_opened(client, lucia, "details_set"), "details-vice") == ["orgullo"]
    data = {"details-virtue": "caridad", "details-vice": "ira", "details-tamano": 5}
    assert client.post(_url(lucia, "details_set"), data, **HTMX).status_code == 200
    assert _selected(_opened(client, lucia, "details_set"), "details-vice") == ["ira"]


def test_a_skill_raised_to_one_dot_is_offered_for_a_specialty_on_the_next_request(
    client, gm, lucia
):
    client.force_login(gm)
    assert "ocultismo" not in _options(
        _opened(client, lucia, "specialty_add"), "specialty-skill_key"
    )
    Trait.objects.filter(character=lucia, key="ocultismo").update(rating=1)
    assert "ocultismo" in _options(_opened(client, lucia, "specialty_add"), "specialty-skill_key")


def test_one_characters_cached_form_never_shows_on_anothers_sheet(client, gm, campaign, lucia):
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    marta = tinieblas_sheet(
        campaign, other, name="Marta", details={"virtue": "fe", "vice": "ira"}, specialties=[]
    )
    client.force_login(gm)
    assert _selected(_opened(client, lucia, "details_set"), "details-vice") == ["orgullo"]
    assert _selected(_opened(client, marta, "details_set"), "details-vice") == ["ira"]
    assert _selected(_opened(client, lucia, "details_set"), "details-vice") == ["orgullo"]


@pytest.mark.parametrize("role", ["player", "observer"])
def test_a_player_or_observer_never_gets_the_gm_forms_the_cache_holds(
    client, gm, lucia, player, observer, role
):
    client.force_login(gm)
    client.get(_url(lucia))
    for name in ("details_set", "specialty_add", "merit_set"):
        assert "csrfmiddlewaretoken" in _opened(client, lucia, name)  # cached now
    client.force_login(player if role == "player" else observer)
    page = client.get(_url(lucia)).text
    for name in ("details-vice", "specialty-skill_key", "merit-key"):
        assert name not in page
    for name in ("details_set", "specialty_add", "merit_set"):
        assert client.get(_url(lucia, name), **HTMX).status_code == 403


def test_a_stranger_gets_no_sheet_at_all(client, gm, lucia, stranger):
    client.force_login(gm)
    client.get(_url(lucia))
    client.force_login(stranger)
    assert client.get(_url(lucia)).status_code == 404


def _trait_url(character, key):
    return reverse("characters:trait_set", args=[character.campaign_id, character.pk, key])


def test_a_rating_the_gm_sets_shows_in_the_cached_traits_on_the_next_request(client, gm, lucia):
    client.force_login(gm)
    assert "Investigación 3 de 5" in client.get(_url(lucia)).text
    assert client.post(_trait_url(lucia, "investigacion"), {"rating": 4}).status_code in (200, 302)
    page = client.get(_url(lucia)).text
    assert "Investigación 4 de 5" in page
    assert "Investigación 3 de 5" not in page


def test_the_gms_dot_buttons_never_reach_a_player_or_observer_through_the_cache(
    client, gm, player, observer, lucia
):
    client.force_login(gm)
    assert _trait_url(lucia, "investigacion") in client.get(_url(lucia)).text  # cached now
    client.force_login(player)
    page = client.get(_url(lucia)).text
    assert "Investigación 3 de 5" in page
    assert _trait_url(lucia, "investigacion") not in page
    assert "?trait=investigacion" in page  # the owner rolls from the sheet
    client.force_login(observer)
    page = client.get(_url(lucia)).text
    assert _trait_url(lucia, "investigacion") not in page
    assert "?trait=investigacion" not in page  # an observer rolls nothing


def test_a_cached_trait_form_carries_the_csrf_token_of_the_browser_that_gets_it(gm, lucia):
    first = Client(enforce_csrf_checks=True)
    first.force_login(gm)
    first.get(_url(lucia))  # renders and caches the traits
    second = Client(enforce_csrf_checks=True)
    second.force_login(gm)
    page = second.get(_url(lucia)).text
    assert CSRF_PLACEHOLDER not in page
    form = page[page.index(f'action="{_trait_url(lucia, "investigacion")}"') :]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = second.post(
        _trait_url(lucia, "investigacion"), {"rating": 4, "csrfmiddlewaretoken": token}
    )
    assert response.status_code in (200, 302)
    assert Trait.objects.get(character=lucia, key="investigacion").rating == 4
