"""Saving the sheet's story from its own edit page (/edit/, htmx on) lands on the sheet with
"Sheet saved.", as a plain POST does; inline on the sheet the section swaps back."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from characters.models import Character
from tests.factories import MembershipFactory, UserFactory, campaign_with, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucia(gm, player):
    campaign = campaign_with("ndp", gm, players=[player])
    return make_character(campaign, player, name="Lucía")


def edit_url(character) -> str:
    return reverse("characters:edit", args=[character.campaign_id, character.pk])


def test_saving_from_the_edit_page_redirects_to_the_sheet_with_a_message(client, player, lucia):
    client.force_login(player)
    url = edit_url(lucia)
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{url}"}
    response = client.post(url, {"story-name": "Lucía Ferrer"}, headers=headers)
    assert response["HX-Redirect"] == lucia.get_absolute_url()
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Ficha guardada."]
    assert Character.objects.get(pk=lucia.pk).name == "Lucía Ferrer"


def test_saving_inline_on_the_sheet_swaps_the_story_section_back(client, player, lucia):
    client.force_login(player)
    headers = {
        "HX-Request": "true",
        "HX-Current-URL": f"http://testserver{lucia.get_absolute_url()}",
    }
    response = client.post(edit_url(lucia), {"story-name": "Lucía Ferrer"}, headers=headers)
    assert response.status_code == 200
    assert 'id="sheet-story"' in response.text


def test_another_player_may_not_save_the_story(client, lucia):
    other = UserFactory(username="dora")
    MembershipFactory(campaign=lucia.campaign, user=other, role="player")
    client.force_login(other)
    assert client.post(edit_url(lucia), {"story-name": "X"}).status_code == 403


def test_a_stranger_does_not_find_the_edit_page(client, stranger, lucia):
    client.force_login(stranger)
    assert client.post(edit_url(lucia), {"story-name": "X"}).status_code == 404
