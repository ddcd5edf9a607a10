"""A sheet's trait rows (`characters/templatetags/trait_rows.py`, built as strings for
speed): what each viewer gets in them, and names from users shown as text."""

import pytest
from django.urls import reverse

from characters import services
from characters.models import CampaignTrait
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

NAME = '<b>Suerte</b> & "co"'
DESCRIPTION = "<img src=x onerror=alert(1)>"


@pytest.fixture
def fred(gm, player, observer):
    campaign = campaign_with("objetivo", gm, players=[player], observers=[observer])
    services.campaign_trait_add(
        campaign=campaign, user=gm, kind="attribute", name=NAME, description=DESCRIPTION
    )
    return make_character(campaign, player, name="Fred", ratings={"fuerza": 5})


def _row(client, character, key: str):
    response = client.get(character.get_absolute_url())
    assert response.status_code == 200
    assert "<b>Suerte" not in response.text
    assert "<img src=x" not in response.text
    [row] = parse(response.text).find_all("div", id=f"trait-{key}")
    return row


@pytest.mark.parametrize("who", ["gm", "player", "observer", "stranger"])
def test_a_trait_named_in_html_is_text_in_every_part_of_its_row(client, fred, request, who):
    client.force_login(request.getfixturevalue(who))
    if who == "stranger":
        assert client.get(fred.get_absolute_url()).status_code == 404
        return
    key = CampaignTrait.objects.get(campaign=fred.campaign, name=NAME).key
    if who == "observer":  # the public view has no traits
        response = client.get(fred.get_absolute_url())
        assert not parse(response.text).find_all("div", id=f"trait-{key}")
        return
    row = _row(client, fred, key)
    assert NAME in row.text()
    [name] = row.find_all(title=DESCRIPTION)
    assert NAME in name.text()
    labels = [element.attrs["aria-label"] for element in row.find_all(aria_label=True)]
    assert labels
    assert all(label.startswith(NAME) or NAME in label for label in labels)


def test_a_gm_gets_a_form_per_trait_with_a_labelled_button_per_dot(client, gm, fred):
    client.force_login(gm)
    row = _row(client, fred, "fuerza")
    [form] = row.find_all("form")
    action = reverse("characters:trait_set", args=[fred.campaign_id, fred.pk, "fuerza"])
    assert form.attrs["action"] == form.attrs["hx-post"] == action
    assert form.attrs["hx-target"] == "#trait-fuerza"
    [token] = form.find_all("input", name="csrfmiddlewaretoken")
    assert len(token.attrs["value"]) == 64  # the request's own masked token
    buttons = form.find_all("button")
    assert [b.attrs["aria-label"] for b in buttons][:2] == ["Poner Fuerza a 1", "Poner Fuerza a 2"]
    assert sum("filled" in b.attrs["class"].split() for b in buttons) == 5
    # The last filled dot takes a dot away.
    assert [b.attrs["value"] for b in buttons][4] == "4"


def test_a_player_gets_dots_to_read_and_a_link_that_rolls_the_trait(client, player, fred):
    client.force_login(player)
    row = _row(client, fred, "fuerza")
    assert not row.find_all("form")
    [dots] = row.find_all("span", class_="dots")
    assert dots.attrs["aria-label"] == "Fuerza 5 de 10"
    [link] = row.find_all("a", class_="trait-roll")
    roll = reverse("mechanics:roll", args=[fred.campaign_id, fred.pk])
    assert link.attrs["href"] == f"{roll}?trait=fuerza"
    assert link.text() == "Tirar Fuerza"


def test_the_rows_speak_english_too(client, player, fred):
    client.cookies["django_language"] = "en"
    client.force_login(player)
    row = _row(client, fred, "fuerza")
    [dots] = row.find_all("span", class_="dots")
    assert dots.attrs["aria-label"] == "Fuerza 5 of 10"
    assert row.find_all("a", class_="trait-roll")[0].text() == "Roll Fuerza"
