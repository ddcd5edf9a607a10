"""A sheet's ✕ buttons (`characters/templatetags/sheet_controls.py`), built as strings:
each names what it removes and asks first, with every outside text escaped, and only a
GM's sheet has them."""

import pytest
from django.template import engines
from django.urls import reverse

from characters.models import Merit, Specialty
from mechanics.systems.registry import get_system
from mechanics.systems.tinieblas.sheet import MeritForm
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


def test_merit_and_specialty_rows_escape_every_outside_text(client, gm, lucia):
    Merit.objects.filter(character=lucia).update(notes=NAME)
    Specialty.objects.create(character=lucia, skill_key="<x>", name=NAME)
    client.force_login(gm)
    text, section = merits(client, lucia)
    [row] = section.find_all("li")
    assert row.one("span", class_="merit-name").text().split() == [
        *NAME.split(),
        "(1–5)",
        *NAME.split(),
    ]
    assert row.one("span", class_="dots").attrs["aria-label"] == f"{NAME} 2 de 5"
    specialties = parse(text).one("section", id="specialties")
    [row] = specialties.find_all("li")
    assert row.text().split()[:2] == ["<x>:", *NAME.split()[:1]]
    assert "<b>Aliado</b>" not in text
    assert "<x>" not in text


@pytest.mark.parametrize("open_", [False, True])
def test_a_gm_form_is_the_panel_the_gm_add_form_partial_draws(rf, open_):
    """`{% gm_form %}` builds the closed panel as a string: the partial's markup, byte for
    byte (and the partial itself draws it open)."""
    url = "/c/1/?a=1&b='2'"
    context = {
        "url": url,
        "form": MeritForm(system=get_system("tinieblas")),
        "gm_open": url if open_ else "",
        "csrf_token": "token",
    }
    labels = '{% translate "Add <it> & more" as summary %}{% translate "Save" as submit %}'
    partial = (
        '{% include "characters/sheet.html#gm_add_form" with target="#t" summary=summary'
        " submit=submit %}"
    )
    engine = engines["django"]
    drawn = [
        engine.from_string(f"{{% load i18n sheet_controls %}}{labels}{body}").render(context)
        for body in (partial, '{% gm_form url "#t" form summary submit %}')
    ]
    assert drawn[0] == drawn[1]
    assert ("<form" in drawn[1]) is open_
    assert "&amp;b=&#x27;2&#x27;" in drawn[1]
