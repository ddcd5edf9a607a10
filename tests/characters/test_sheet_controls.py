"""A sheet's ✕ buttons (`characters/templatetags/sheet_controls.py`), built as strings:
each names what it removes and asks first, with every outside text escaped, and only a
GM's sheet has them."""

import pytest
from django.urls import reverse

from characters.models import Merit
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

NAME = '<b>Aliado</b> & "co"'


@pytest.fixture
def lucia(campaign, player):
    character = make_character(campaign, player, name="Lucía <i>")
    Merit.objects.create(character=character, name=NAME, rating=2)
    return character


def merits(client, character):
    response = client.get(reverse("characters:sheet", args=[character.campaign_id, character.pk]))
    assert response.status_code == 200
    return response.text, parse(response.text).one("section", id="merits")


def test_a_gm_removes_a_merit_after_a_question_that_names_it(client, gm, lucia):
    client.force_login(gm)
    text, section = merits(client, lucia)
    [form] = section.find_all("form", data_confirm=True)
    assert form.attrs["data-confirm"] == f"¿Quitar {NAME} de la ficha de Lucía <i>?"
    assert form.attrs["data-confirm-button"] == "Quitar"
    assert form.attrs["hx-target"] == "#merits"
    assert form.one("button").attrs["aria-label"] == f"Quitar {NAME}"
    assert form.one("input", name="csrfmiddlewaretoken").attrs["value"]
    # Nothing of the names reaches the page as markup.
    assert "<b>Aliado</b>" not in text
    assert "Lucía <i>" not in text


def test_the_question_reads_in_english_too(client, gm, lucia):
    client.force_login(gm)
    client.cookies["django_language"] = "en"
    _text, section = merits(client, lucia)
    [form] = section.find_all("form", data_confirm=True)
    assert form.attrs["data-confirm"] == f"Remove {NAME} from the sheet of Lucía <i>?"


@pytest.mark.parametrize("who", ["player", "observer"])
def test_a_player_or_an_observer_has_no_remove_button(client, request, lucia, who):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("characters:sheet", args=[lucia.campaign_id, lucia.pk]))
    assert not parse(response.text).find_all("form", data_confirm=True)


def test_a_stranger_gets_404(client, stranger, lucia):
    client.force_login(stranger)
    response = client.get(reverse("characters:sheet", args=[lucia.campaign_id, lucia.pk]))
    assert response.status_code == 404
