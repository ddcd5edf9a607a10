"""«Add to the fight» with nobody ticked says what to do (choose a character), next to the
list, instead of the generic "This field is required."; the list stays open with its
choices, and the rest of the panel is as it was."""

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.models import CombatParticipant
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

SPANISH = "Elige al menos un personaje para añadir al combate."
ENGLISH = "Choose at least one character to add to the fight."


@pytest.fixture
def table(gm, player, observer):
    campaign = campaign_with("tinieblas", gm, players=[player], observers=[observer])
    lucia = make_character(campaign, player, name="Lucía")
    thug = make_character(campaign, None, user=gm, name="Matón")
    make_character(campaign, None, user=gm, name="Portero")
    scene = services.scene_create(campaign=campaign, title="El bar", participants=[lucia, thug])
    return combat_services.combat_start(scene=scene, user=gm)


def add_url(combat):
    scene = combat.scene
    return reverse("mechanics:combat_add", args=[scene.campaign_id, scene.pk, combat.pk])


def test_adding_nobody_says_to_choose_a_character_next_to_the_list(client, gm, table):
    client.force_login(gm)
    response = client.post(add_url(table), {}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = parse(response.text)
    add = html.one(class_="combat-add")
    # The list stays open, its choices still there, the message beside them.
    assert "open" in add.attrs
    assert [label.text() for label in add.find_all("label")] == ["Portero (PNJ)"]
    assert add.one("fieldset").one(class_="invalid-feedback").text() == SPANISH
    assert "Este campo es obligatorio" not in response.text
    # Said once, beside the list: not again at the top of the panel.
    assert response.text.count(SPANISH) == 1
    assert html.one(id="combat-attack")
    client.cookies["django_language"] = "en"
    response = client.post(add_url(table), {}, HTTP_HX_REQUEST="true")
    add = parse(response.text).one(class_="combat-add")
    assert add.one(class_="invalid-feedback").text() == ENGLISH
    assert CombatParticipant.objects.filter(combat=table).count() == 2


def test_without_htmx_the_message_comes_back_after_the_redirect(client, gm, table):
    client.force_login(gm)
    response = client.post(add_url(table), {}, follow=True)
    assert response.status_code == 200
    assert SPANISH in response.text
    assert CombatParticipant.objects.filter(combat=table).count() == 2


@pytest.mark.parametrize("who", ["player", "observer"])
def test_a_player_or_observer_cannot_add(client, request, table, who):
    client.force_login(request.getfixturevalue(who))
    assert client.post(add_url(table), {}, HTTP_HX_REQUEST="true").status_code == 403
    assert CombatParticipant.objects.filter(combat=table).count() == 2


def test_a_stranger_finds_no_fight(client, stranger, table):
    client.force_login(stranger)
    assert client.post(add_url(table), {}, HTTP_HX_REQUEST="true").status_code == 404
